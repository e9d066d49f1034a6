import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryMedia

/// HLG and PQ clips are tone-mapped to SDR like ffmpeg's zscale/tonemap chain: neither washed
/// out nor too dark.
@Suite struct HDRToneMappingTests {
    static let iphone = TestEnvironment.sample("iphone-hevc-hdr.mov")

    /// HLG is made to look right on an SDR screen untouched, and the sample's saturated bars come
    /// out as the same BT.709 primaries either way, so this checks the match only; the PQ clip
    /// below is where skipping the tone mapping would show.
    @Test func hdrPosterFollowsTheToneMapChain() throws {
        let source = try ClipFrameSource(path: Self.iphone)
        let poster = try source.posterFrame(size: .width(360))
        let shown = try #require(source.lastFrameTime)
        let mapped = try FFmpegReference.frame(
            Self.iphone, at: shown, width: 360, height: 640, filters: FFmpegReference.toneMapChain)
        let psnr = PixelComparison.psnr(poster.pixels, mapped)
        #expect(psnr >= 25, "\(psnr) dB against the tone-map chain")
    }

    /// A PQ clip (a test card at PQ code values, up to 10000 cd/m²) read untouched is far from
    /// what the chain shows; storyreel's frame is close to the chain.
    @Test func pqFrameFollowsTheToneMapChainNotTheRawSignal() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("pq.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=0.2",
            "-vf", "scale=out_color_matrix=bt2020:out_range=tv,format=yuv420p10le",
            "-c:v", "libx265", "-preset", "ultrafast",
            "-x265-params", "log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:range=limited",
            "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc", "-color_range", "tv",
            "-tag:v", "hvc1", clip,
        ])
        let frame = try ClipFrameSource(path: clip).frame(at: 0, size: .width(320))
        let mapped = try FFmpegReference.frame(
            clip, at: 0, width: 320, height: 180, filters: FFmpegReference.toneMapChain)
        let untouched = try FFmpegReference.frame(clip, at: 0, width: 320, height: 180)
        let psnr = PixelComparison.psnr(frame.pixels, mapped)
        #expect(psnr >= 24, "\(psnr) dB against the tone-map chain")
        #expect(psnr > PixelComparison.psnr(untouched, mapped) + 2, "closer to the chain than the raw signal")
    }

    /// From a QA pass: colour tags set in a stream copy land in the MP4's `colr` box only, not
    /// in the HEVC bitstream. `inspect` called such a clip HLG or PQ (as MediaInfo does), but
    /// its frames decoded untagged, so the poster was the raw BT.601 reading, 21–23 dB from the
    /// same clip tagged in its bitstream. The container's tags now fill what the bitstream
    /// leaves unspecified.
    @Test(arguments: ["arib-std-b67", "smpte2084"])
    func tagsOnlyInTheContainerAreHonoured(transfer: String) throws {
        let folder = try TemporaryFolder()
        let untagged = folder.path("untagged.mp4")
        let tagged = folder.path("tagged.mp4")
        let containerOnly = folder.path("container-only.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=0.2",
            "-vf", "scale=out_color_matrix=bt2020:out_range=tv,format=yuv420p10le",
            "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-tag:v", "hvc1", untagged,
        ])
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=0.2",
            "-vf", "scale=out_color_matrix=bt2020:out_range=tv,format=yuv420p10le",
            "-c:v", "libx265", "-preset", "ultrafast",
            "-x265-params", "log-level=error:colorprim=bt2020:transfer=\(transfer):colormatrix=bt2020nc:range=limited",
            "-tag:v", "hvc1", tagged,
        ])
        try HostileFiles.ffmpeg([
            "-i", untagged, "-c", "copy", "-tag:v", "hvc1", "-color_primaries", "bt2020", "-color_trc", transfer,
            "-colorspace", "bt2020nc", containerOnly,
        ])
        let expected = try ClipFrameSource(path: tagged).frame(at: 0, size: .width(320))
        let frame = try ClipFrameSource(path: containerOnly).frame(at: 0, size: .width(320))
        let raw = try ClipFrameSource(path: untagged).frame(at: 0, size: .width(320))
        #expect(PixelComparison.psnr(frame.pixels, expected.pixels) >= 45, "read as the bitstream-tagged clip")
        #expect(PixelComparison.psnr(raw.pixels, expected.pixels) < 30, "the test can tell the two apart")
    }

    /// From a QA pass: a PQ clip's peak light level (MaxCLL) in the MP4's `clli` box, the only
    /// place VP9 and AV1 clips carry it, was ignored: the clip was mapped as if its peak were
    /// 1000 cd/m². It now scales the curve as the same level in the bitstream's SEI does.
    @Test func aPeakLightLevelOnlyInTheContainerIsHonoured() throws {
        let folder = try TemporaryFolder()
        let plain = folder.path("plain.mp4")
        let inBitstream = folder.path("sei.mp4")
        let pq = "colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:range=limited"
        for (path, extra) in [(plain, ""), (inBitstream, ":max-cll=100,50")] {
            try HostileFiles.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=0.2",
                "-vf", "scale=out_color_matrix=bt2020:out_range=tv,format=yuv420p10le",
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:\(pq)\(extra)",
                "-tag:v", "hvc1", path,
            ])
        }
        // `clli` (MaxCLL 100, MaxFALL 50) after the sample entry's `hvcC`, each box around it
        // 12 bytes longer; the index is written last, so no sample moves.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        func boxStart(_ type: String) throws -> Int {
            try #require(Data(bytes).range(of: Data(type.utf8))?.lowerBound) - 4
        }
        func size(at start: Int) -> Int { HostileFiles.bigEndian(bytes[start..<(start + 4)]) }
        #expect(try boxStart("mdat") < boxStart("moov"))
        let hvcC = try boxStart("hvcC")
        let clli: [UInt8] = [0, 0, 0, 12] + Array("clli".utf8) + [0, 100, 0, 50]
        let parents = try ["moov", "trak", "mdia", "minf", "stbl", "stsd", "hvc1"].map(boxStart)
        bytes.insert(contentsOf: clli, at: hvcC + size(at: hvcC))
        for start in parents {
            let grown = UInt32(size(at: start) + clli.count)
            bytes.replaceSubrange(start..<(start + 4), with: withUnsafeBytes(of: grown.bigEndian, Array.init))
        }
        let inContainer = folder.path("clli.mp4")
        try Data(bytes).write(to: URL(fileURLWithPath: inContainer))
        let probed = try TestEnvironment.ffprobeVideoStream(inContainer)
        let sideData = probed["side_data_list"] as? [[String: Any]] ?? []
        #expect(sideData.contains { $0["max_content"] as? Int == 100 }, "ffprobe reads the box: \(probed)")

        let expected = try ClipFrameSource(path: inBitstream).frame(at: 0, size: .width(320))
        let frame = try ClipFrameSource(path: inContainer).frame(at: 0, size: .width(320))
        let unscaled = try ClipFrameSource(path: plain).frame(at: 0, size: .width(320))
        #expect(PixelComparison.psnr(frame.pixels, expected.pixels) >= 40, "mapped as with the level in the SEI")
        #expect(PixelComparison.psnr(unscaled.pixels, expected.pixels) < 32, "the test can tell the two apart")
    }

    /// From the colour QA pass: an SDR clip with BT.2020 primaries was converted with its matrix
    /// only, so its frames came out washed out (16.85 dB from what a colour-managed player shows;
    /// a green of 126, 193, 76 for 32, 201, 31). Its primaries are converted to BT.709 now, as
    /// zimg converts them.
    @Test func anSDRClipWithBT2020PrimariesIsConvertedToBT709() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("sdr2020.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "smptehdbars=s=320x180:r=30:d=0.2",
            "-vf",
            "zscale=tin=bt709:pin=bt709:min=bt709:rin=limited:t=bt2020-10:p=bt2020:m=bt2020nc:r=limited,"
                + "format=yuv420p10le",
            "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-color_primaries", "bt2020",
            "-color_trc", "bt2020-10", "-colorspace", "bt2020nc", "-color_range", "tv", "-tag:v", "hvc1", clip,
        ])
        let frame = try ClipFrameSource(path: clip).frame(at: 0, size: .width(320))
        let player = try FFmpegReference.frame(
            clip, at: 0, width: 320, height: 180,
            filters: "zscale=min=bt2020nc:rin=limited:tin=bt709:pin=bt2020:m=bt709:r=full:t=bt709:p=bt709,format=gbrp")
        let matrixOnly = try FFmpegReference.frame(
            clip, at: 0, width: 320, height: 180, filters: "scale=in_color_matrix=bt2020:in_range=tv")
        let psnr = PixelComparison.psnr(frame.pixels, player)
        #expect(psnr >= 32, "\(psnr) dB against zimg's conversion")
        let unconverted = PixelComparison.psnr(matrixOnly, player)
        #expect(unconverted < 25, "the matrix alone is far from it: \(unconverted) dB")
    }

    @Test func curvesMatchTheirDefinitions() {
        #expect(abs(HDRToneMapper.hlgInverseOETF(0.5) - 1.0 / 12) < 1e-6)
        #expect(abs(HDRToneMapper.hlgInverseOETF(1) - 1) < 1e-4)
        #expect(abs(HDRToneMapper.pqEOTF(1) - 1) < 1e-4)
        #expect(abs(HDRToneMapper.pqEOTF(0.508078) * 10000 - 100) < 0.5, "PQ code 0.508 is 100 cd/m²")
        #expect(abs(HDRToneMapper.hable(0)) < 1e-6)
        #expect(HDRToneMapper.displayEncode(1) == 1 && HDRToneMapper.displayEncode(0) == 0)
        #expect(abs(HDRToneMapper.displayEncode(0.18) - powf(0.18, 1 / 2.4)) < 2e-3)
        #expect(HDRToneMapper.displayEncode(-0.18) == 0, "out-of-gamut negatives clip to 0")
        #expect(HDRToneMapper.displayEncode(3) == 1, "light above the peak clips to 1")
        #expect(HDRToneMapper.displayEncode(.nan) == 0)
    }

    /// A saturated BT.2020 primary lies outside BT.709: converted, it has negative components,
    /// which clip to 0, so it comes out as the pure BT.709 primary rather than a darker shade.
    @Test func outOfGamutColoursClipToTheBT709Gamut() {
        let mapper = HDRToneMapper(transfer: .hlg)
        let red = mapper.toneMap(9, 0, 0)
        #expect(red.0 == 255 && red.1 == 0 && red.2 == 0, "BT.2020 red at 900 cd/m²: \(red)")
        let green = mapper.toneMap(0, 5, 0)
        #expect(green.0 == 0 && green.1 > 200 && green.2 == 0, "BT.2020 green: \(green)")
        let inGamut = HDRToneMapper(transfer: .hlg, convertsPrimaries: false).toneMap(2, 1, 0.5)
        #expect(inGamut.0 > inGamut.1 && inGamut.1 > inGamut.2 && inGamut.2 > 0, "in gamut, nothing clips: \(inGamut)")
    }

    @Test func toneMappingKeepsGreysGreyAndOrdered() {
        let mapper = HDRToneMapper(transfer: .hlg)
        var previous = -1
        for light: Float in [0, 0.05, 0.2, 1, 3, 10] {
            let (red, green, blue) = mapper.toneMap(light, light, light)
            #expect(red == green && green == blue, "grey \(light) stays grey")
            #expect(Int(red) > previous, "brighter light gives a brighter pixel")
            previous = Int(red)
        }
        let peak = mapper.toneMap(10, 10, 10)
        #expect(peak.0 >= 250, "the signal peak maps to white")
    }
}
