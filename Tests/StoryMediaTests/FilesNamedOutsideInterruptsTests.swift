import Foundation
import StoryMedia
import StoryreelTestSupport
import Synchronization
import Testing

/// An interrupt's cleanup holds interrupts off (``InterruptCleanup/deferringInterrupts(_:)``)
/// while it records the outputs that have their names and removes the temporary files. A file
/// renamed into place by another thread meanwhile stayed in the bundle in no ledger, so no
/// `--prune` removed it (`anInterruptedRunsOutputsAreRecordedSoPruneRemovesThem` failed once under
/// load). A staged file now takes its name only while no other thread holds interrupts off, and
/// a thread that does can still name its own.
@Suite struct FilesNamedOutsideInterruptsTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    @Test func aFileTakesItsNameOnlyOnceInterruptsAreNoLongerHeldOff() throws {
        let path = folder.path("still.jpg")
        let entered = DispatchSemaphore(value: 0)
        let left = DispatchSemaphore(value: 0)
        let sawFileWhileHeld = Mutex<Bool?>(nil)
        let holder = Thread {
            _ = try? InterruptCleanup.deferringInterrupts {
                entered.signal()
                Thread.sleep(forTimeInterval: 0.5)
                sawFileWhileHeld.withLock { $0 = FileManager.default.fileExists(atPath: path) }
            }
            left.signal()
        }
        holder.start()
        entered.wait()
        try AtomicFile.write(Data("a finished still".utf8), to: path)
        left.wait()
        #expect(sawFileWhileHeld.withLock { $0 } == false, "the file was named while interrupts were held off")
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func theThreadHoldingInterruptsOffNamesItsOwnFiles() throws {
        let path = folder.path("frame.png")
        try InterruptCleanup.deferringInterrupts {
            try AtomicFile.write(Data("a frame".utf8), to: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("a frame".utf8))
    }
}
