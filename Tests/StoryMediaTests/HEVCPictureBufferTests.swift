import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryMedia

/// The pictures an HEVC stream has its decoder keep, read from the sequence parameter sets of its
/// extradata, agree with FFmpeg's own reading of the same set (`trace_headers`), in every form
/// FFmpeg's decoder reads them in.
@Suite struct HEVCPictureBufferTests {
    /// `sps_max_dec_pic_buffering_minus1 + 1` of `clip`'s video, read by ffmpeg.
    func ffmpegReading(_ clip: String) throws -> Int? {
        let traced = try TestEnvironment.run(
            "ffmpeg", ["-v", "info", "-i", clip, "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"])
        let line = traced.stderr.split(separator: "\n").first { $0.contains("sps_max_dec_pic_buffering_minus1") }
        return line.flatMap { $0.split(separator: "=").last }.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            .map { $0 + 1 }
    }

    /// The `hvcC` record of an x265 clip made with `parameters`, checked against ffmpeg's reading.
    func record(_ parameters: String, pictures: Int, in folder: TemporaryFolder) throws -> [UInt8] {
        let clip = folder.path("hevc-\(pictures).mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=256x256:r=30:d=0.2", "-c:v", "libx265", "-x265-params",
            "log-level=error:\(parameters)", clip,
        ])
        #expect(try ffmpegReading(clip) == pictures)
        let file = try InputFile(path: clip)
        let video = try #require(file.bestStream(.video))
        let codec = video.parameters.pointee
        return Array(UnsafeBufferPointer(start: codec.extradata, count: Int(codec.extradata_size)))
    }

    @Test(arguments: [("ref=16:allow-non-conformance=1", 16), ("ref=3", 5)])
    func theBufferIsReadAsFFmpegReadsIt(parameters: String, pictures: Int) throws {
        let record = try record(parameters, pictures: pictures, in: TemporaryFolder())
        #expect(HEVCPictureBuffer.pictures(inExtradata: record) == pictures)
        // Cut short anywhere, or not a record, it reads nothing rather than a wrong count.
        for length in [0, 10, 22, 23] {
            #expect(HEVCPictureBuffer.pictures(inExtradata: Array(record.prefix(length))) == nil, "\(length)")
        }
        #expect(HEVCPictureBuffer.pictures(inExtradata: [UInt8](repeating: 0xFF, count: 64)) == nil)
    }

    /// FFmpeg's decoder takes a unit's type from its own header, reads Annex B extradata too, and
    /// reads every set it is given, any of which a picture may use: a record whose sequence
    /// parameter set sat in an array labelled as a picture parameter set was not counted, and
    /// its 4:4:4 12-bit pictures of 8192x4096 (192 MB each) took 4 GB to make a thumbnail of.
    @Test func everyFormTheDecoderReadsIsCounted() throws {
        let folder = try TemporaryFolder()
        let many = try record("ref=16:allow-non-conformance=1", pictures: 16, in: folder)
        let few = try record("ref=3", pictures: 5, in: folder)
        let manyUnits = HostileFiles.configurationUnits(of: many)
        let fewUnits = HostileFiles.configurationUnits(of: few)
        var relabelled = many
        for (label, unit) in manyUnits where (unit.first! >> 1) & 0x3F == 33 {
            relabelled[label] = relabelled[label] & 0xC0 | 34
        }
        #expect(relabelled != many)
        #expect(HEVCPictureBuffer.pictures(inExtradata: relabelled) == 16)
        // More arrays counted than the record holds: FFmpeg reads the missing ones as empty.
        var overcounted = many
        overcounted[22] = 255
        #expect(HEVCPictureBuffer.pictures(inExtradata: overcounted) == 16)
        func annexB(_ units: [(label: Int, unit: ArraySlice<UInt8>)]) -> [UInt8] {
            units.flatMap { [0, 0, 0, 1] + Array($0.unit) }
        }
        #expect(HEVCPictureBuffer.pictures(inExtradata: annexB(manyUnits)) == 16)
        #expect(HEVCPictureBuffer.pictures(inExtradata: annexB(fewUnits)) == 5)
        // The fewer set first, then the other: the most any set declares.
        #expect(HEVCPictureBuffer.pictures(inExtradata: annexB(fewUnits + manyUnits)) == 16)
    }
}
