import Foundation
import Synchronization

/// The lines of clips `ingest` has put in the story but not yet said (`CLIP: ingested as …`), by
/// the clip's argument index, for an interrupt to say: a clip takes its name, and its line is
/// printed only after the folder's flush, so a run interrupted between the two left the clip
/// in the story with nothing said (a QA pass of interrupts). Each line is said once: by the
/// run, or by the interrupt, which waits briefly for one the run is saying.
final class UnsaidLines: Sendable {
    /// A line, and whether the run is saying it now.
    private struct Line {
        var text: String
        var beingSaid = false
    }

    private let lines = Mutex<[Int: Line]>([:])

    /// Records `text` as clip `index`'s line: the clip is in the story.
    func record(_ text: String, for index: Int) {
        lines.withLock { $0[index] = Line(text: text) }
    }

    /// Says clip `index`'s line `text` with `say`, marked meanwhile as being said, then forgets it.
    func say(_ text: String, for index: Int, with say: (String) -> Void) {
        lines.withLock { $0[index]?.beingSaid = true }
        say(text)
        lines.withLock { $0[index] = nil }
    }

    /// Says, in argument order, every line recorded and not yet said, with `say`, and waits up
    /// to `patience` seconds for one the run is saying (a write to a reader that has stopped
    /// reading is not waited for beyond that).
    func sayTheRest(with say: (String) -> Void, patience: Duration = .seconds(1)) {
        let deadline = ContinuousClock.now + patience
        while true {
            let (unsaid, beingSaid) = lines.withLock { lines in
                let unsaid = lines.filter { !$0.value.beingSaid }.sorted { $0.key < $1.key }.map(\.value.text)
                lines = lines.filter { $0.value.beingSaid }
                return (unsaid, !lines.isEmpty)
            }
            unsaid.forEach(say)
            guard beingSaid, ContinuousClock.now < deadline else { return }
            usleep(1000)
        }
    }
}
