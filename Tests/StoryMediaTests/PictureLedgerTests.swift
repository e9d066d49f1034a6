import CFFmpeg
import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryMedia

/// A decoder's pictures are counted where it allocates them (``PictureLedger``), so what a stream
/// makes it hold is bounded however its headers declare it. An audit's HEVC stream, whose
/// sequence parameter set sat in an `hvcC` array labelled as another type (FFmpeg reads the unit's
/// own header, storyreel's check read the label), held 4 GB to make one thumbnail; at the
/// standard limit it is refused at 2 GB. Here the same mechanism at a small limit.
@Suite struct PictureLedgerTests {
    /// 30 frames of 1024x1024 H.264 keeping 16 reference pictures (about 1.6 MB each).
    static func referenceHeavyClip(in folder: TemporaryFolder) throws -> String {
        let clip = folder.path("references.mp4")
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=1024x1024:r=30", "-frames:v", "30",
                "-c:v", "libx264", "-preset", "ultrafast", "-x264-params", "ref=16:bframes=0:keyint=300", clip,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        return clip
    }

    /// Decodes every frame of `clip`'s video with `decoder`, calling `each` with each frame;
    /// returns how many frames came out.
    @discardableResult
    static func decodeAll(
        _ file: InputFile, stream: MediaStream, with decoder: Decoder, each: (Frame) -> Void = { _ in }
    ) throws -> Int {
        let packet = try Packet()
        let frame = try Frame()
        var frames = 0
        func drain() throws {
            while case .frame = try decoder.receive(into: frame) {
                frames += 1
                each(frame)
            }
        }
        while try file.readPacket(into: packet) {
            guard packet.streamIndex == stream.index else { continue }
            while try !decoder.send(packet) { try drain() }
            try drain()
        }
        _ = try decoder.send(nil)
        try drain()
        return frames
    }

    @Test func picturesPastTheLimitAreRefusedWithTheirSize() throws {
        let folder = try TemporaryFolder()
        let file = try InputFile(path: try Self.referenceHeavyClip(in: folder))
        let stream = try #require(file.bestStream(.video))
        let decoder = try Decoder(stream: stream, threads: 1, pictureLimit: 16 << 20)
        do {
            try Self.decodeAll(file, stream: stream, with: decoder)
            Issue.record("17 pictures of 1.6 MB were decoded within 16 MB")
        } catch let error as MediaError {
            #expect(error.kind == .invalidMedia, "\(error)")
            #expect(
                error.reason.hasPrefix(
                    "decoding it would hold more than the 16 MB of pictures storyreel allows at once ("),
                "\(error.reason)")
            #expect(error.reason.contains(" of 1024x1024, 1 MB each)"), "\(error.reason)")
        }
    }

    /// Within the limit every frame decodes, the count never passes it, and a frame kept after
    /// its decoder is gone still holds its picture (the ledger outlives the decoder).
    @Test func picturesWithinTheLimitDecodeAndOutliveTheirDecoder() throws {
        let folder = try TemporaryFolder()
        let file = try InputFile(path: try Self.referenceHeavyClip(in: folder))
        let stream = try #require(file.bestStream(.video))
        let kept = try Frame()
        var largest = 0
        do {
            let decoder = try Decoder(stream: stream, threads: 2, pictureLimit: 64 << 20)
            let frames = try Self.decodeAll(file, stream: stream, with: decoder) { frame in
                largest = max(largest, decoder.pictureBytesHeld)
                if frame.presentationTimestamp == 0 { av_frame_ref(kept.pointer, frame.pointer) }
            }
            #expect(frames == 30)
            #expect(largest > 17 * 1024 * 1536 && largest <= 64 << 20, "\(largest) bytes held at most")
        }
        let picture = try FrameConverter(transform: .identity, sampleAspectRatio: 1)
            .picture(from: kept, size: .fill(width: 16, height: 16))
        #expect(picture.pixels.count == 16 * 16 * 4)
        av_frame_unref(kept.pointer)
    }
}
