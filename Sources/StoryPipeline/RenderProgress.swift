/// A progress report from a running render: called once as the units start (``done`` 0) and
/// after each finished work unit.
public struct RenderProgress: Sendable {
    /// Units finished so far (rendered, cached or failed).
    public var done: Int
    /// Units in this run.
    public var total: Int
    /// What was just finished, e.g. `poster ana.lima/IMG_0001.MOV`; empty in the report at the start.
    public var current: String
    /// The share of the run's work that is done, 0 to 1, with each unit weighed by what it
    /// costs (``WorkUnit/estimatedCost``): a transition takes about 30 times a still, so an
    /// ETA from units alone, after the transitions that run first, was 15–50 times too long (a
    /// QA pass: "ETA 708 s" 3.6 s before the end).
    public var workDone: Double

    /// `done` of `total` units, `current` just finished, `workDone` of the work done (by default
    /// the units' share).
    public init(done: Int, total: Int, current: String, workDone: Double? = nil) {
        self.done = done
        self.total = total
        self.current = current
        self.workDone = workDone ?? (total > 0 ? Double(done) / Double(total) : 1)
    }
}
