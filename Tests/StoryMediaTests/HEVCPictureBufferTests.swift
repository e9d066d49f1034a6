import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryMedia

/// The pictures an HEVC stream has its decoder keep, read from its `hvcC` record's sequence
/// parameter set, agree with FFmpeg's own reading of the same set (`trace_headers`).
@Suite struct HEVCPictureBufferTests {
    /// `sps_max_dec_pic_buffering_minus1 + 1` of `clip`'s video, read by ffmpeg.
    func ffmpegReading(_ clip: String) throws -> Int? {
        let traced = try TestEnvironment.run(
            "ffmpeg", ["-v", "info", "-i", clip, "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"])
        let line = traced.stderr.split(separator: "\n").first { $0.contains("sps_max_dec_pic_buffering_minus1") }
        return line.flatMap { $0.split(separator: "=").last }.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            .map { $0 + 1 }
    }

    @Test(arguments: [("ref=16:allow-non-conformance=1", 16), ("ref=3", 5)])
    func theBufferIsReadAsFFmpegReadsIt(parameters: String, pictures: Int) throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("hevc.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=256x256:r=30:d=0.2", "-c:v", "libx265", "-x265-params",
            "log-level=error:\(parameters)", clip,
        ])
        #expect(try ffmpegReading(clip) == pictures)
        let file = try InputFile(path: clip)
        let video = try #require(file.bestStream(.video))
        let parameters = video.parameters.pointee
        let record = Array(UnsafeBufferPointer(start: parameters.extradata, count: Int(parameters.extradata_size)))
        #expect(HEVCPictureBuffer.pictures(inConfiguration: record) == pictures)
        // Cut short anywhere, or not a record, it reads nothing rather than a wrong count.
        for length in [0, 10, 22, 23] {
            #expect(HEVCPictureBuffer.pictures(inConfiguration: Array(record.prefix(length))) == nil, "\(length)")
        }
        #expect(HEVCPictureBuffer.pictures(inConfiguration: [UInt8](repeating: 0xFF, count: 64)) == nil)
    }
}
