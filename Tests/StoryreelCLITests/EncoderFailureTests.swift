import Foundation
import StoryreelTestSupport
import Testing

/// Issue 9, item 7: x264 failing to allocate must give exit 65 or 74 (or 71, when threads cannot
/// start either then: the system's limit) with a reason that names the clip, never a crash, and
/// leave nothing behind. At 8192x8192, libx264 needs far more memory
/// to open than storyreel needs for the faces, so an address-space limit (`ulimit -v`) between
/// the two makes `avcodec_open2` fail: the error must say libx264, which shows the limit (not
/// something else) failed the run.
@Suite struct EncoderFailureTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// A limit the faces fit in (decoded, in the encoder's planes and laid out for the renderer,
    /// about 1.2 GB of address space) but libx264's 8192x8192 encoder, opened after them, does
    /// not: on the 2-core machines storyreel's CI runs on, 1.3-1.5 GB gives libx264's error.
    static let addressSpaceKiB = 1_400_000

    ///
    /// Since a later QA pass, `cube` checks the limit against its need before any work
    /// (`AddressSpace`), so at this limit the run is refused before libx264 opens, with the need
    /// named: the same one line naming the clip, and nothing left behind. libx264's own failure
    /// (its error line, then storyreel's) is reached only where the estimate falls short.
    @Test func x264ThatCannotAllocateIsAnErrorNamingTheClip() throws {
        let from = folder.path("from.png")
        let to = folder.path("to.png")
        try HostileFiles.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1", from])
        try HostileFiles.ffmpeg(["-f", "lavfi", "-i", "color=c=blue:s=64x64", "-frames:v", "1", to])
        let outputs = try TemporaryFolder()
        let clip = outputs.path("big.mp4")
        let outcome = try LimitedRun.storyreel(
            ["cube", from, to, "--size", "8192x8192", "--duration", "0.1", "-o", clip],
            virtualMemoryKiB: Self.addressSpaceKiB)
        let result = outcome.result
        #expect([65, 71, 74].contains(result.status), "\(result.status): \(result.stderr)")
        let lines = LimitedRun.errorLines(result.stderr)
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("storyreel: error: \(clip): ") == true, "\(lines)")
        #expect(
            lines.first?.contains("cannot make the 8192x8192 cube: it needs about 3792 MB of address space") == true,
            "\(lines)")
        let left = try FileManager.default.contentsOfDirectory(atPath: outputs.url.path)
        #expect(left.isEmpty, "\(left)")
    }
}
