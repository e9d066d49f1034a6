import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryMedia

/// The decode loop's skipping of frames no other frame refers to hands out exactly the frames a
/// full decode does from the chosen time on.
@Suite struct VideoFrameReaderTests {
    /// Once the deadline has passed, no packet is read, even one FFmpeg has already buffered.
    /// From a resource-exhaustion audit: the interrupt callback stops only reads from the file,
    /// and a 203 KB clip of 8192x8192 frames, all in the buffer, was decoded for 12 s at
    /// `--timeout 5` (2.3 GB).
    @Test func noPacketIsReadPastTheDeadline() throws {
        let file = try InputFile(path: TestEnvironment.sample("stories/ben_k/1.mp4"), timeout: 2)
        let packet = try Packet()
        #expect(try file.readPacket(into: packet))
        Thread.sleep(forTimeInterval: 2.2)
        #expect(throws: MediaError.self) { _ = try file.readPacket(into: packet) }
        do {
            _ = try file.readPacket(into: packet)
        } catch let error as MediaError {
            #expect(error.kind == .timedOut, "\(error)")
        }
    }

    /// Every frame the reader hands out: its presentation time and a 32×32 RGBA copy.
    static func decode(_ clip: String, shownBefore skipUntil: Int64?) throws -> [(time: Int64, pixels: [UInt8])] {
        let file = try InputFile(path: clip)
        let stream = try #require(file.bestStream(.video))
        let reader = try VideoFrameReader(stream: stream, threads: 1)
        if let skipUntil { reader.decodeOnlyReferenceFrames(shownBefore: skipUntil) }
        let converter = FrameConverter(transform: .identity, sampleAspectRatio: 1)
        let frame = try Frame()
        var frames: [(time: Int64, pixels: [UInt8])] = []
        while try reader.next(into: frame) {
            let time = try #require(frame.presentationTimestamp)
            frames.append((time, try converter.picture(from: frame, size: .fill(width: 32, height: 32)).pixels))
        }
        return frames
    }

    /// x264's default B-frames (a pyramid, so some B-frames are references and some are not):
    /// skipping before frame 40's time decodes fewer frames before it and the very same ones from
    /// it on.
    @Test func skippingNonReferenceFramesKeepsEveryFrameFromTheTimeOn() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("b-frames.mp4")
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x96:r=30:d=3", "-c:v", "libx264",
                "-bf", "3", "-pix_fmt", "yuv420p", clip,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        let full = try Self.decode(clip, shownBefore: nil)
        try #require(full.count == 90)
        let from = full[40].time
        let skipping = try Self.decode(clip, shownBefore: from)
        let kept = skipping.filter { $0.time >= from }
        let fullKept = full.filter { $0.time >= from }
        #expect(kept.map(\.time) == fullKept.map(\.time))
        #expect(zip(kept, fullKept).allSatisfy { $0.pixels == $1.pixels }, "the same pictures from frame 40 on")
        let before = skipping.count - kept.count
        #expect(before < 40, "non-reference frames before frame 40 are skipped (\(before) of 40 decoded)")
        #expect(before > 0, "reference frames before frame 40 are still decoded")
    }
}
