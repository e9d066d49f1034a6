/// When a progress report is due. On a terminal the bar is redrawn at most ten times a second;
/// off one (a CI log), a line is printed every `interval` seconds or each time another tenth of
/// the work is done, whichever comes first, and at the end.
struct ProgressThrottle: Sendable {
    /// Seconds between two reports at least (unless a tenth or the end is reached off a terminal).
    let interval: Double
    /// True off a terminal: a report also at each tenth of the work.
    let byTenths: Bool
    private var lastReport: Double
    private var lastTenth = 0

    /// A throttle for a terminal bar (`interactive`, drawn at once) or for log lines (the first
    /// after `interval` or a tenth: a line at the first unit gave a rate and an ETA from one
    /// unit and the start-up, 50–130× too long in a QA pass).
    init(interactive: Bool) {
        interval = interactive ? 0.1 : 5
        byTenths = !interactive
        lastReport = interactive ? -.infinity : 0
    }

    /// True when `done` of `total` at `now` seconds should be reported; remembers it if so.
    mutating func isDue(done: Int, total: Int, now: Double) -> Bool {
        let tenth = total > 0 ? done * 10 / total : 10
        let due = done == total || now - lastReport >= interval || (byTenths && tenth > lastTenth)
        if due {
            lastReport = now
            lastTenth = tenth
        }
        return due
    }
}
