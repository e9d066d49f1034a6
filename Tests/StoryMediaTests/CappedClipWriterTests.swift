import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// ``VideoClipWriter`` with a cap: a clip over it is encoded again from the pictures the caller
/// replays and comes out under it; without a way to replay them it fails and leaves nothing.
@Suite struct CappedClipWriterTests {
    let folder: TemporaryFolder
    init() throws {
        FFmpegLog.silence()
        folder = try TemporaryFolder()
    }

    /// Noise no encoder can squeeze: frame `index` of a 128x96 clip.
    static func noiseFrame(_ index: Int) -> [UInt8] {
        var state = UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
        return (0..<(128 * 96 * 4)).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    func writer(_ name: String, cap: Int?) throws -> VideoClipWriter {
        let settings = VideoEncoder.Settings(width: 128, height: 96, fps: 30, tuning: .shortClip, maxBitrate: cap)
        let writer = try VideoClipWriter(path: folder.path(name), settings: settings)
        for index in 0..<10 { try Self.noiseFrame(index).withUnsafeBufferPointer { try writer.append(rgba: $0) } }
        return writer
    }

    @Test func aClipOverItsCapIsEncodedAgainUnderIt() throws {
        let plain = try writer("plain.mp4", cap: nil).finish()
        let cap = plain.bitRate / 3
        var replays = 0
        let capped = try writer("capped.mp4", cap: cap).finish { append in
            replays += 1
            for index in 0..<10 { try Self.noiseFrame(index).withUnsafeBufferPointer { try append($0) } }
        }
        #expect(capped.fitsCap)
        #expect(capped.bitRate <= cap)
        #expect(capped.passes == replays + 1 && replays >= 1)
        #expect(capped.rateFactor > 23)
        let stream = try TestEnvironment.ffprobeVideoStream(folder.path("capped.mp4"))
        #expect(stream["nb_read_frames"] as? String == "10")
        #expect((stream["bit_rate"] as? String).flatMap { Int($0) }.map { $0 <= cap } == true)
        // The whole file too: 10 frames at 30 fps are a third of a second.
        let fileBytes = try FileManager.default.attributesOfItem(atPath: folder.path("capped.mp4"))[.size] as? Int
        #expect(try #require(fileBytes) * 8 * 3 <= cap)
    }

    @Test func aClipUnderItsCapIsWrittenAsItIs() throws {
        let plain = try writer("plain.mp4", cap: nil).finish()
        let capped = try writer("capped.mp4", cap: 2 * plain.bitRate).finish { _ in Issue.record("replayed") }
        #expect(capped == plain)
        let bytes = { (name: String) in try Data(contentsOf: URL(fileURLWithPath: self.folder.path(name))) }
        #expect(try bytes("capped.mp4") == bytes("plain.mp4"))
    }

    @Test func withoutReplayAClipOverItsCapFailsAndLeavesNothing() throws {
        do {
            let writer = try writer("over.mp4", cap: 100_000)
            #expect(throws: MediaError.self) { try writer.finish() }
        }
        // The temporary file goes with the writer.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func aReplayWithTheWrongPictureCountFails() throws {
        do {
            let writer = try writer("short.mp4", cap: 100_000)
            #expect(throws: MediaError.self) {
                try writer.finish { append in try Self.noiseFrame(0).withUnsafeBufferPointer { try append($0) } }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
