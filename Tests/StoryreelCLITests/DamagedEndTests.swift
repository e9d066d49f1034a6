import Foundation
import StoryreelTestSupport
import Testing

/// A clip whose end is damaged (its index intact, the last 40% of its pictures zeros, as a
/// preallocated upload cut short leaves it): `thumbnail` takes its last decodable frame, decoding
/// on several threads, and warns. The old code skipped the damaged packets on one decoding thread
/// (`render`'s stills) but failed on several (`cube`, `thumbnail`: "cannot decode"), where the
/// error comes back from `receive_frame` or with the end of the stream instead of from
/// `send_packet`. `cube` refuses it as an upload still being written (a cube QA pass: it took
/// a frame from the clip's middle for its last, in silence), as `render` skips it.
@Suite struct DamagedEndTests {
    let folder: TemporaryFolder
    let damaged: String

    init() throws {
        folder = try TemporaryFolder()
        damaged = try folder.write("damaged.mp4", HostileFiles.goodClipWithPicturesZeroed(from: 0.6))
    }

    @Test func thumbnailTakesTheLastDecodableFrameAndCubeRefusesTheClip() throws {
        let still = folder.path("last.png")
        let thumbnail = try TestEnvironment.storyreel([
            "thumbnail", damaged, "--at", "100%", "-o", still, "--width", "180",
        ])
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        #expect(FileManager.default.fileExists(atPath: still))
        #expect(thumbnail.stderr.contains("the file looks preallocated and still being written; the poster is taken"))
        let cube = folder.path("cube.mp4")
        let turned = try TestEnvironment.storyreel([
            "cube", damaged, TestEnvironment.sample("sixty-fps.mp4"), "-o", cube, "--size", "180x320", "--quiet",
        ])
        #expect(turned.status == 65, "\(turned.stderr)")
        #expect(turned.stderr.contains("the file looks preallocated and still being written"), "\(turned.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cube))
    }
}
