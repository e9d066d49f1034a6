import Foundation
import StoryMedia
import StoryPipeline
import Synchronization

/// Render progress on stderr: done/total, the rate, the ETA and what was just finished. On a
/// terminal, a one-line bar redrawn in place; off one (a CI log), a line as the units start,
/// then every 5 s or every tenth of the work, so a long log is not empty until the end.
/// `--quiet` silences both.
final class ProgressBar: Sendable {
    private let console: Console
    private let started = MonotonicClock.now
    private let throttle: Mutex<ProgressThrottle>
    private let enabled: Bool
    private let interactive: Bool

    init(console: Console) {
        self.console = console
        enabled = !console.quiet
        interactive = console.stderrIsInteractive
        throttle = Mutex(ProgressThrottle(interactive: console.stderrIsInteractive))
    }

    /// Reports `progress` when the throttle says it is due (always at the end). The report at
    /// the start (nothing done) is a line off a terminal, so a CI log shows the run under way
    /// and its size before the first unit ends (a QA pass: 13.9 s of nothing, transitions
    /// running); a terminal's bar starts with the first unit.
    func update(_ progress: RenderProgress) {
        guard enabled else { return }
        if progress.done == 0 {
            if !interactive { console.status("storyreel: progress: 0/\(progress.total) (0%), started\n") }
            return
        }
        let elapsed = max(MonotonicClock.now - started, 0.001)
        // The line is written under the lock too, so two workers' lines never interleave.
        throttle.withLock { throttle in
            guard throttle.isDue(done: progress.done, total: progress.total, now: elapsed) else { return }
            console.status(interactive ? barLine(progress, elapsed: elapsed) : logLine(progress, elapsed: elapsed))
        }
    }

    /// `[========    ] 12/34 3.1/s ETA 7s transition ana.lima → ben_k`, redrawn in place.
    private func barLine(_ progress: RenderProgress, elapsed: Double) -> String {
        let line = Self.barText(progress, elapsed: elapsed, columns: Terminal.columns(of: STDERR_FILENO))
        return "\r\u{1B}[K" + line + (progress.done == progress.total ? "\n" : "")
    }

    /// The bar's text, within `columns - 1` characters when the terminal's width is known: a
    /// line that wrapped would be redrawn below itself at every update (a QA pass, 40 columns).
    /// What was finished is cut first (from its start, with `…`), then the bar.
    static func barText(_ progress: RenderProgress, elapsed: Double, columns: Int?) -> String {
        let (rate, eta) = rateAndETA(progress, elapsed: elapsed)
        let width = 24
        let filled = progress.total > 0 ? width * progress.done / progress.total : width
        let bar = "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled) + "] "
        let counts = String(format: "%d/%d %.1f/s ETA %.0fs", progress.done, progress.total, rate, eta)
        let last = Console.escaped(progress.current)
        let limit = max((columns ?? 80) - 1, 1)
        let room = min(40, limit - bar.count - counts.count - 1)  // columns for what was finished
        if room >= 8 { return bar + counts + " " + tail(of: last, fitting: room) }
        return String((bar.count + counts.count <= limit ? bar + counts : counts).prefix(limit))
    }

    /// `text` cut from its start to fit `limit` terminal columns, with `…` in front when cut.
    static func tail(of text: String, fitting limit: Int) -> String {
        guard columns(of: text) > limit else { return text }
        var kept: [Character] = []
        var used = 1  // the …
        for character in text.reversed() {
            let width = columns(of: String(character))
            guard used + width <= limit else { break }
            kept.insert(character, at: 0)
            used += width
        }
        return "…" + String(kept)
    }

    /// The terminal columns `text` takes: 2 for an East Asian wide or fullwidth character (CJK,
    /// kana, Hangul, fullwidth forms, most emoji), 0 for a combining mark, else 1 (a QA pass:
    /// a Japanese clip name counted as characters overflowed an 80-column line).
    static func columns(of text: String) -> Int {
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return text.unicodeScalars.reduce(0) { total, scalar in
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: return total
            default: return total + (wide.contains { $0.contains(scalar.value) } ? 2 : 1)
            }
        }
    }

    /// `storyreel: progress: 12/34 (35%), 3.1 units/s, ETA 7 s, last: transition ana.lima → ben_k`.
    private func logLine(_ progress: RenderProgress, elapsed: Double) -> String {
        let (rate, eta) = Self.rateAndETA(progress, elapsed: elapsed)
        let percent = progress.total > 0 ? progress.done * 100 / progress.total : 100
        return String(
            format: "storyreel: progress: %d/%d (%d%%), %.1f units/s, ETA %.0f s, last: %@\n", progress.done,
            progress.total, percent, rate, eta, Console.escaped(progress.current))
    }

    /// Units a second, and the seconds left from the share of the work done so far
    /// (``RenderProgress/workDone``, each unit weighed by its cost).
    private static func rateAndETA(_ progress: RenderProgress, elapsed: Double) -> (rate: Double, eta: Double) {
        let rate = Double(progress.done) / elapsed
        let share = progress.workDone
        return (rate, share > 0 && share < 1 ? elapsed * (1 - share) / share : 0)
    }
}
