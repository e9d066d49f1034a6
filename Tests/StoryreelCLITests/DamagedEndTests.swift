import Foundation
import StoryreelTestSupport
import Testing

/// A clip whose end is damaged (its index intact, the last 40% of its pictures zeros, as a
/// preallocated upload cut short leaves it) has one verdict everywhere: its last decodable frame.
/// The old code skipped the damaged packets on one decoding thread (`render`'s stills) but failed
/// on several (`cube`, `thumbnail`: "cannot decode"), where the error comes back from
/// `receive_frame` or with the end of the stream instead of from `send_packet`.
@Suite struct DamagedEndTests {
    let folder: TemporaryFolder
    let damaged: String

    init() throws {
        folder = try TemporaryFolder()
        damaged = try folder.write("damaged.mp4", HostileFiles.goodClipWithPicturesZeroed(from: 0.6))
    }

    @Test func thumbnailAndCubeTakeTheLastDecodableFrame() throws {
        let still = folder.path("last.png")
        let thumbnail = try TestEnvironment.storyreel([
            "thumbnail", damaged, "--at", "100%", "-o", still, "--width", "180",
        ])
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        #expect(FileManager.default.fileExists(atPath: still))
        let cube = folder.path("cube.mp4")
        let turned = try TestEnvironment.storyreel([
            "cube", damaged, TestEnvironment.sample("sixty-fps.mp4"), "-o", cube, "--size", "180x320", "--quiet",
        ])
        #expect(turned.status == 0, "\(turned.stderr)")
        let frames = try TestEnvironment.run(
            "ffprobe",
            ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", cube])
        #expect(frames.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "15")
    }
}
