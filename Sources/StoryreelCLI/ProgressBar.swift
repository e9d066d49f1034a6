import Foundation
import StoryPipeline

/// A one-line progress bar on stderr for a terminal: done/total, the current item, the rate and
/// the ETA. Off a terminal it draws nothing (the command prints one summary line instead).
final class ProgressBar: @unchecked Sendable {
    // `lastDraw` is only touched under `lock`; that makes the bar safe to call from workers.
    private let console: Console
    private let started = Date()
    private let lock = NSLock()
    private var lastDraw = Date.distantPast
    private let enabled: Bool

    init(console: Console) {
        self.console = console
        enabled = console.stderrIsInteractive && !console.quiet
    }

    /// Redraws the bar for `progress`, at most ten times a second (and always at the end).
    func update(_ progress: RenderProgress) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard progress.done == progress.total || now.timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let rate = Double(progress.done) / elapsed
        let eta = rate > 0 ? Double(progress.total - progress.done) / rate : 0
        let width = 24
        let filled = progress.total > 0 ? width * progress.done / progress.total : width
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        let current = progress.current.count > 40 ? "…" + progress.current.suffix(39) : progress.current
        console.status(
            String(
                format: "\r\u{1B}[K[%@] %d/%d %.1f/s ETA %.0fs %@", bar, progress.done, progress.total, rate, eta,
                current))
        if progress.done == progress.total { console.status("\n") }
    }
}
