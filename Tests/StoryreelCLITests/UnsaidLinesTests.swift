import Foundation
import Synchronization
import Testing

@testable import StoryreelCLI

/// An interrupt says each line of a clip in the story that the run has not said, once: not one
/// the run has said, and not one the run is saying, which it waits for (a full test run found
/// the interrupt passing over a line the run was saying, and the process dying before the run
/// said it).
@Suite struct UnsaidLinesTests {
    @Test func anInterruptSaysWhatTheRunHasNotAndWaitsForWhatItIsSaying() throws {
        let lines = UnsaidLines()
        let said = Mutex<[String]>([])
        lines.record("a: ingested as s/0001-a.mp4", for: 0)
        lines.record("b: ingested as s/0002-b.mp4", for: 1)
        lines.record("c: ingested as s/0003-c.mp4", for: 2)
        lines.say("a: ingested as s/0001-a.mp4", for: 0) { text in said.withLock { $0.append(text) } }
        // The run is saying b's line, slowly, when the interrupt comes.
        let saying = Thread {
            lines.say("b: ingested as s/0002-b.mp4", for: 1) { text in
                Thread.sleep(forTimeInterval: 0.2)
                said.withLock { $0.append(text) }
            }
        }
        saying.start()
        Thread.sleep(forTimeInterval: 0.05)
        lines.sayTheRest { text in said.withLock { $0.append(text) } }
        #expect(
            said.withLock { $0 } == [
                "a: ingested as s/0001-a.mp4", "c: ingested as s/0003-c.mp4", "b: ingested as s/0002-b.mp4",
            ])
        lines.sayTheRest { text in said.withLock { $0.append(text) } }
        #expect(said.withLock { $0.count } == 3, "nothing is said twice")
    }
}
