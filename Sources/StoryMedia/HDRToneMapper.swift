import CFFmpeg
import Foundation

/// Maps an HLG or PQ picture (BT.2020) to SDR BT.709 the way this ffmpeg chain does, so a poster
/// looks like what `ffmpeg` makes of the clip:
///
///     zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,
///     tonemap=tonemap=hable:desat=0,geq=r='clip(r(X,Y),0,1)':g='clip(g(X,Y),0,1)':b='clip(b(X,Y),0,1)',
///     zscale=t=bt709:m=bt709:r=tv,format=yuv420p
///
/// It works on the already-scaled-down picture (16-bit RGB from libswscale, still in the HDR
/// signal's non-linear encoding), one pixel at a time, following zimg 3.0 (behind `zscale`) and
/// vf_tonemap step by step:
/// 1. to display light, 1.0 = 100 cd/m²: HLG through its inverse OETF and a per-component OOTF
///    (power 1.2, 1000 cd/m² peak); PQ through its EOTF;
/// 2. BT.2020 primaries to BT.709, in linear light;
/// 3. Hable's filmic curve on the brightest component, normalised by the curve at the signal peak
///    (from the frame's light-level or mastering side data, else 1000 cd/m², as vf_tonemap finds
///    it), the same factor applied to all three components so hues hold;
/// 4. each component clipped to 0...1: a BT.2020 colour outside BT.709 loses its negative
///    components, a highlight above the peak is white;
/// 5. back to non-linear BT.709 for display (power 1/2.4).
///
/// An SDR picture with BT.2020 primaries (`.sdr`) takes steps 1, 2, 4 and 5 alone, with display
/// light the BT.709 display gamma (power 2.4) gives and no curve: players convert its primaries,
/// and without it its poster, stills and transition faces came out washed out (a green of 126,
/// 193, 76 where players show 32, 201, 31: the colour QA pass), then jumped when the video began.
///
/// Step 4 is the `geq` in the chain above. Without it, what `zscale` makes of components outside
/// 0...1 depends on the machine (zimg kept their sign on some, and clips them on an AVX2-only
/// AMD EPYC), which moved a saturated BT.2020 red between (217, 0, 0) and (255, 0, 0).
struct HDRToneMapper {
    /// The transfer functions handled: HDR's two, and SDR's (with BT.2020 primaries only).
    enum Transfer: Sendable {
        case hlg, pq, sdr
    }

    let transfer: Transfer
    /// The signal peak in units of 100 cd/m².
    let peak: Float
    /// True when the picture's primaries are not BT.709 (taken to be BT.2020) and are converted.
    let convertsPrimaries: Bool

    /// A tone mapper for `frame`, or nil when the frame is neither HLG or PQ nor SDR with BT.2020
    /// primaries.
    init?(for frame: Frame) {
        switch frame.pointer.pointee.color_trc {
        case AVCOL_TRC_ARIB_STD_B67: transfer = .hlg
        case AVCOL_TRC_SMPTE2084: transfer = .pq
        default:
            guard frame.pointer.pointee.color_primaries == AVCOL_PRI_BT2020 else { return nil }
            transfer = .sdr
        }
        convertsPrimaries = frame.pointer.pointee.color_primaries != AVCOL_PRI_BT709
        peak = HDRToneMapper.signalPeak(of: frame)
    }

    init(transfer: Transfer, peak: Float = 10, convertsPrimaries: Bool = true) {
        self.transfer = transfer
        self.peak = peak
        self.convertsPrimaries = convertsPrimaries
    }

    /// Scales `frame` to the scaler's size (the scaler must produce `AV_PIX_FMT_RGB48LE`) and
    /// tone-maps the result into 8-bit RGBA.
    func map(_ frame: Frame, with scaler: Scaler) throws -> RGBAImageBuffer {
        precondition(scaler.destinationFormat == AV_PIX_FMT_RGB48LE)
        let scaled = try Frame()
        try scaler.scale(frame, into: scaled)
        let width = scaler.destinationWidth
        let height = scaler.destinationHeight
        let stride = Int(scaled.pointer.pointee.linesize.0)
        guard let plane = scaled.pointer.pointee.data.0 else {
            throw MediaError(.ioFailure, "cannot scale the picture (no output plane)")
        }
        let toLinear =
            switch transfer {
            case .hlg: HDRToneMapper.hlgTable
            case .pq: HDRToneMapper.pqTable
            case .sdr: HDRToneMapper.sdrTable
            }
        let peakCurve = HDRToneMapper.hable(peak)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { output in
            toLinear.withUnsafeBufferPointer { toLinear in
                HDRToneMapper.displayEncodingTable.withUnsafeBufferPointer { encoding in
                    for row in 0..<height {
                        let input = UnsafeRawPointer(plane + row * stride).assumingMemoryBound(to: UInt16.self)
                        var index = row * width * 4
                        for column in 0..<width {
                            let (red, green, blue) = toneMap(
                                toLinear[Int(UInt16(littleEndian: input[column * 3]))],
                                toLinear[Int(UInt16(littleEndian: input[column * 3 + 1]))],
                                toLinear[Int(UInt16(littleEndian: input[column * 3 + 2]))],
                                peakCurve: peakCurve, encoding: encoding)
                            output[index] = red
                            output[index + 1] = green
                            output[index + 2] = blue
                            index += 4
                        }
                    }
                }
            }
        }
        return RGBAImageBuffer(width: width, height: height, pixels: pixels)
    }

    /// Steps 2 to 5 for one pixel in display light (1.0 = 100 cd/m², the picture's primaries).
    func toneMap(_ red: Float, _ green: Float, _ blue: Float) -> (UInt8, UInt8, UInt8) {
        HDRToneMapper.displayEncodingTable.withUnsafeBufferPointer { encoding in
            toneMap(red, green, blue, peakCurve: HDRToneMapper.hable(peak), encoding: encoding)
        }
    }

    /// Steps 2 to 5 for one pixel, with the curve's value at the peak and the display encoding
    /// table passed in (the hot loop fetches them once).
    @inline(__always)
    private func toneMap(
        _ red: Float, _ green: Float, _ blue: Float, peakCurve: Float, encoding: UnsafeBufferPointer<Float>
    ) -> (UInt8, UInt8, UInt8) {
        var (red, green, blue) = (red, green, blue)
        if convertsPrimaries {
            (red, green, blue) = (
                1.660491 * red - 0.587641 * green - 0.072850 * blue,
                -0.124550 * red + 1.132900 * green - 0.008349 * blue,
                -0.018151 * red - 0.100579 * green + 1.118730 * blue
            )
        }
        let signal = max(max(red, green), max(blue, 1e-6))
        let factor = transfer == .sdr ? 1 : HDRToneMapper.hable(signal) / (peakCurve * signal)
        return (
            HDRToneMapper.byte(HDRToneMapper.displayEncode(red * factor, encoding)),
            HDRToneMapper.byte(HDRToneMapper.displayEncode(green * factor, encoding)),
            HDRToneMapper.byte(HDRToneMapper.displayEncode(blue * factor, encoding))
        )
    }

    /// Hable's (Uncharted 2) filmic curve, as vf_tonemap writes it.
    static func hable(_ value: Float) -> Float {
        let shoulder: Float = 0.15
        let linear: Float = 0.50
        let angle: Float = 0.10
        let toe: Float = 0.20
        let toeNumerator: Float = 0.02
        let toeDenominator: Float = 0.30
        return (value * (value * shoulder + linear * angle) + toe * toeNumerator)
            / (value * (value * shoulder + linear) + toe * toeDenominator) - toeNumerator / toeDenominator
    }

    /// HLG's inverse OETF (ARIB STD-B67): signal 0...1 to scene light 0...1.
    static func hlgInverseOETF(_ signal: Float) -> Float {
        let x = max(signal, 0)
        if x <= 0.5 { return x * x / 3 }
        return (expf((x - 0.55991073) / 0.17883277) + 0.28466892) / 12
    }

    /// The PQ EOTF (SMPTE ST 2084): signal 0...1 to display light, 1.0 = 10000 cd/m².
    static func pqEOTF(_ signal: Float) -> Float {
        guard signal > 0 else { return 0 }
        let power = powf(signal, 1 / 78.84375)
        let numerator = max(power - 0.8359375, 0)
        let denominator = max(18.8515625 - 18.6875 * power, .leastNormalMagnitude)
        return powf(numerator / denominator, 1 / 0.1593017578125)
    }

    /// Linear light clipped to 0...1 (steps 4 and 5), then to the BT.709 display encoding, power
    /// 1/2.4. NaN (from hostile light-level metadata) gives 0.
    static func displayEncode(_ linear: Float) -> Float {
        displayEncodingTable.withUnsafeBufferPointer { displayEncode(linear, $0) }
    }

    /// ``displayEncode(_:)`` with ``displayEncodingTable`` passed in.
    @inline(__always)
    private static func displayEncode(_ linear: Float, _ table: UnsafeBufferPointer<Float>) -> Float {
        guard linear > 0 else { return 0 }
        return table[Int(sqrtf(min(linear, 1)) * Float(encodingSteps) + 0.5)]
    }

    /// A 0...1 value as a rounded, clipped 8-bit code; NaN (from hostile light-level metadata)
    /// gives 0 rather than a trap.
    @inline(__always)
    static func byte(_ value: Float) -> UInt8 {
        let code = value * 255 + 0.5
        return code >= 255 ? 255 : (code >= 0 ? UInt8(code) : 0)
    }

    /// Each 16-bit HLG code value's display light, 1.0 = 100 cd/m² (1000 cd/m² peak).
    private static let hlgTable: [Float] = (0...65535).map { 10 * powf(hlgInverseOETF(Float($0) / 65535), 1.2) }
    /// Each 16-bit PQ code value's display light, 1.0 = 100 cd/m².
    private static let pqTable: [Float] = (0...65535).map { 100 * pqEOTF(Float($0) / 65535) }
    /// Each 16-bit SDR code value's display light, 1.0 = white (the BT.709 display gamma, 2.4).
    private static let sdrTable: [Float] = (0...65535).map { powf(Float($0) / 65535, 2.4) }

    /// Steps in ``displayEncodingTable``.
    private static let encodingSteps = 4096

    /// Linear 0...1 to display encoding, indexed by the square root of the light so the steps
    /// are fine where the curve is steep, near black.
    private static let displayEncodingTable: [Float] = (0...encodingSteps).map { step in
        let root = Float(step) / Float(encodingSteps)
        return powf(root * root, 1 / 2.4)
    }

    /// The lowest peak taken from a file's metadata, 1 cd/m²: Hable's curve is about 0 at 0, and
    /// the peak divides by it.
    static let minimumPeak: Float = 0.01

    /// The peak as vf_tonemap finds it: MaxCLL, else the mastering display's peak, else
    /// 1000 cd/m²; in units of 100 cd/m².
    static func signalPeak(of frame: Frame) -> Float {
        if let side = av_frame_get_side_data(frame.pointer, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL)?.pointee,
            let data = side.data, side.size >= MemoryLayout<AVContentLightMetadata>.size
        {
            let maximum = data.withMemoryRebound(to: AVContentLightMetadata.self, capacity: 1) { $0.pointee.MaxCLL }
            if maximum > 0 { return max(Float(maximum) / 100, minimumPeak) }
        }
        if let side = av_frame_get_side_data(frame.pointer, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA)?.pointee,
            let data = side.data, side.size >= MemoryLayout<AVMasteringDisplayMetadata>.size
        {
            let mastering = data.withMemoryRebound(to: AVMasteringDisplayMetadata.self, capacity: 1) { $0.pointee }
            if mastering.has_luminance != 0, mastering.max_luminance.den != 0 {
                let luminance = Float(av_q2d(mastering.max_luminance))
                if luminance > 0, luminance.isFinite { return max(luminance / 100, minimumPeak) }
            }
        }
        return 10
    }
}
