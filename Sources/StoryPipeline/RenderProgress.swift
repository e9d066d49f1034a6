/// A progress report from a running render: called after each finished work unit.
public struct RenderProgress: Sendable {
    /// Units finished so far (rendered, cached or failed).
    public var done: Int
    /// Units in this run.
    public var total: Int
    /// What was just finished, e.g. `poster ana.lima/IMG_0001.MOV`.
    public var current: String

    /// `done` of `total` units, `current` just finished.
    public init(done: Int, total: Int, current: String) {
        self.done = done
        self.total = total
        self.current = current
    }
}
