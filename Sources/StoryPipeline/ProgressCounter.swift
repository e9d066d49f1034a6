import Synchronization

/// Counts finished units across worker threads, and the share of the work they were
/// (``WorkUnit/estimatedCost``).
final class ProgressCounter: Sendable {
    private let done = Mutex((units: 0, cost: 0.0))
    private let total: Int
    private let totalCost: Double

    /// A counter for a run of `units`.
    init(units: [WorkUnit]) {
        total = units.count
        totalCost = units.reduce(0) { $0 + $1.estimatedCost }
    }

    /// The report at the start: nothing done yet.
    func start() -> RenderProgress {
        RenderProgress(done: 0, total: total, current: "", workDone: 0)
    }

    /// The report for `unit`, just finished.
    func finish(_ unit: WorkUnit) -> RenderProgress {
        let (count, cost) = done.withLock { done in
            done.units += 1
            done.cost += unit.estimatedCost
            return done
        }
        return RenderProgress(
            done: count, total: total, current: "\(unit.kind.rawValue) \(unit.title)",
            workDone: count >= total || totalCost <= 0 ? 1 : min(cost / totalCost, 1))
    }
}
