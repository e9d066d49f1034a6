import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryMedia

/// HLG and PQ clips are tone-mapped to SDR like ffmpeg's zscale/tonemap chain: neither washed
/// out nor too dark.
@Suite struct HDRToneMappingTests {
    static let iphone = TestEnvironment.sample("iphone-hevc-hdr.mov")

    @Test func hdrPosterFollowsTheToneMapChain() throws {
        let source = try ClipFrameSource(path: Self.iphone)
        let poster = try source.posterFrame(size: .width(360))
        let shown = try #require(source.lastFrameTime)
        let mapped = try FFmpegReference.frame(
            Self.iphone, at: shown, width: 360, height: 640, filters: FFmpegReference.toneMapChain)
        let untouched = try FFmpegReference.frame(Self.iphone, at: shown, width: 360, height: 640)
        let psnr = PixelComparison.psnr(poster.pixels, mapped)
        #expect(psnr >= 23, "\(psnr) dB against the tone-map chain")
        #expect(psnr > PixelComparison.psnr(untouched, mapped) + 2, "closer to the chain than no tone mapping")
    }

    @Test func curvesMatchTheirDefinitions() {
        #expect(abs(HDRToneMapper.hlgInverseOETF(0.5) - 1.0 / 12) < 1e-6)
        #expect(abs(HDRToneMapper.hlgInverseOETF(1) - 1) < 1e-4)
        #expect(abs(HDRToneMapper.pqEOTF(1) - 1) < 1e-4)
        #expect(abs(HDRToneMapper.pqEOTF(0.508078) * 10000 - 100) < 0.5, "PQ code 0.508 is 100 cd/m²")
        #expect(abs(HDRToneMapper.hable(0)) < 1e-6)
        #expect(HDRToneMapper.displayEncode(1) == 1 && HDRToneMapper.displayEncode(0) == 0)
        #expect(abs(HDRToneMapper.displayEncode(0.18) - powf(0.18, 1 / 2.4)) < 2e-3)
        #expect(HDRToneMapper.displayEncode(-0.18) < 0, "out-of-gamut negatives keep their sign")
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
