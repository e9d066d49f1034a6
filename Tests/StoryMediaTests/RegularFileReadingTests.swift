import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// Issue 9, item 10: hashing and stills read only regular files, capped in size and bounded in
/// time. Hashing a FIFO used to block forever in `open` (holding the bundle lock while it did),
/// and hashing `/dev/zero` read forever. Each case here must throw at once.
@Suite(.timeLimit(.minutes(1))) struct RegularFileReadingTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    func fifo(_ name: String) throws -> String {
        let path = folder.path(name)
        try HostileFiles.fifo(at: path)
        return path
    }

    func link(_ name: String, to target: String) throws -> String {
        let path = folder.path(name)
        try HostileFiles.link(at: path, to: target)
        return path
    }

    func expectError(_ kind: MediaError.Kind, path: String, _ body: () throws -> Void) {
        let started = Date()
        do {
            try body()
            Issue.record("\(path) was read")
        } catch let error as MediaError {
            #expect(error.kind == kind, "\(error)")
            #expect(error.path == path)
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test func hashingRefusesFIFOsAndDevices() throws {
        for path in [
            try fifo("clip.mov"), try link("zero.mov", to: "/dev/zero"), try link("random.mov", to: "/dev/urandom"),
            "/dev/zero",
        ] {
            expectError(.unreadableInput, path: path) { _ = try ContentHasher.sha256(ofFileAt: path) }
        }
    }

    @Test func hashingObeysTheSizeCapAndTheDeadline() throws {
        let path = try folder.write("four-mib.bin", Data(repeating: 7, count: 4 << 20))
        expectError(.invalidMedia, path: path) { _ = try ContentHasher.sha256(ofFileAt: path, maxSize: 1 << 20) }
        expectError(.timedOut, path: path) { _ = try ContentHasher.sha256(ofFileAt: path, timeout: 1e-9) }
        // Within both, it is the file's SHA-256, as sha256sum says.
        let reference = try TestEnvironment.run("sha256sum", [path])
        let hash = try ContentHasher.sha256(ofFileAt: path, timeout: 30, maxSize: 4 << 20)
        #expect(reference.stdout.hasPrefix(hash + " "))
        #expect(hash.count == 64)
    }

    @Test func stillsRefuseFIFOsDevicesAndHugeFiles() throws {
        for path in [try fifo("avatar.png"), try link("avatar-zero.jpg", to: "/dev/zero")] {
            expectError(.unreadableInput, path: path) { _ = try StillImage.load(path: path, size: .width(64)) }
        }
        // A PNG signature followed by 20 MB of nothing (a sparse file): refused by its size,
        // before a byte of it is decoded.
        let huge = try folder.write("huge.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: StillImage.maximumFileSize + 1)
        try handle.close()
        #expect(StillImage.maximumFileSize == 20_000_000)
        expectError(.invalidMedia, path: huge) { _ = try StillImage.load(path: huge) }
    }
}
