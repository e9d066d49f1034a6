import CFFmpeg
import Foundation

/// Encodes ``RGBAImageBuffer``s as JPEG, PNG or WebP with libavcodec: owns an `AVCodecContext`
/// for one picture size, freed with `avcodec_free_context`.
///
/// - JPEG: FFmpeg's `mjpeg` encoder on full-range BT.601 YCbCr 4:2:0 (`yuv420p` tagged
///   `color_range` JPEG), which is what JFIF readers assume.
/// - PNG: 8-bit RGB, lossless (the quality is ignored).
/// - WebP: libwebp, lossy, fed RGB so libwebp does its own (gamma-aware) conversion to YUV.
///
/// `quality` runs from 1 to 100, 100 best, and is mapped to each codec's own scale.
///
/// The encoder knows no file, so its errors name none: callers add the output path with
/// ``MediaError/naming(_:)``.
public final class ImageEncoder {
    /// The quality used when none is given.
    public static let defaultQuality = 85

    /// The format written.
    public let format: ImageFormat
    /// The quality, 1...100.
    public let quality: Int
    /// The picture width the encoder was opened for.
    public let width: Int
    /// The picture height the encoder was opened for.
    public let height: Int

    private let context: UnsafeMutablePointer<AVCodecContext>

    /// Opens an encoder for `width` × `height` pictures in `format` at `quality` (1...100).
    public init(format: ImageFormat, quality: Int = ImageEncoder.defaultQuality, width: Int, height: Int) throws {
        guard (1...100).contains(quality) else {
            throw MediaError(.unsupported, "image quality must be from 1 to 100, got \(quality)")
        }
        guard width > 0, height > 0 else { throw MediaError(.unsupported, "cannot encode a \(width)x\(height) image") }
        guard PixelBudget.allows(width: width, height: height) else {
            throw MediaError(.unsupported, "cannot encode a \(width)x\(height) image: \(PixelBudget.overLimit)")
        }
        self.format = format
        self.quality = quality
        self.width = width
        self.height = height
        let (codec, allocated) = try EncoderLookup.open(format.encoderName, purpose: "image encoder")
        context = allocated
        context.pointee.width = Int32(clamping: width)
        context.pointee.height = Int32(clamping: height)
        context.pointee.pix_fmt = format.encoderPixelFormat
        context.pointee.time_base = AVRational(num: 1, den: 25)
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        context.pointee.thread_count = 1
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        switch format {
        case .jpeg:
            context.pointee.color_range = AVCOL_RANGE_JPEG
            context.pointee.colorspace = AVCOL_SPC_BT470BG
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointee.global_quality = Int32(ImageEncoder.jpegQuantizer(forQuality: quality)) * FF_QP2LAMBDA
        case .png:
            av_dict_set(&options, "pred", "paeth", 0)
        case .webp:
            av_dict_set(&options, "quality", String(quality), 0)
        }
        let opened = avcodec_open2(context, codec, &options)
        try ffmpegCheckAgainstLimits(opened, "cannot open the \(format.encoderName) encoder", kind: .unsupported)
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&pointer)
    }

    /// Encodes `image` (which must be the size the encoder was opened for) into a complete file's
    /// bytes.
    public func encode(_ image: RGBAImageBuffer) throws -> Data {
        precondition(image.width == width && image.height == height, "image size differs from the encoder's")
        let frame = try encoderInput(for: image)
        if format == .jpeg {
            frame.pointer.pointee.quality = context.pointee.global_quality
        }
        let packet = try Packet()
        try ffmpegCheck(avcodec_send_frame(context, frame.pointer), "cannot encode the image", kind: .ioFailure)
        var result = avcodec_receive_packet(context, packet.pointer)
        if result == cff_error_eagain() {
            // No encoder used here holds pictures back, but drain properly if one ever does.
            try ffmpegCheck(avcodec_send_frame(context, nil), "cannot finish the image", kind: .ioFailure)
            result = avcodec_receive_packet(context, packet.pointer)
        }
        try ffmpegCheck(result, "cannot encode the image", kind: .ioFailure)
        guard let bytes = packet.pointer.pointee.data, packet.pointer.pointee.size > 0 else {
            throw MediaError(.ioFailure, "the \(format.encoderName) encoder gave no data")
        }
        return Data(bytes: bytes, count: Int(packet.pointer.pointee.size))
    }

    /// Encodes `image` as `format` at `quality` (1...100) in one call.
    public static func encode(
        _ image: RGBAImageBuffer, format: ImageFormat, quality: Int = ImageEncoder.defaultQuality
    ) throws -> Data {
        try ImageEncoder(format: format, quality: quality, width: image.width, height: image.height).encode(image)
    }

    /// The `mjpeg` quantizer scale (2 best … 31 worst) for a 1...100 quality, following libjpeg's
    /// quality curve (scale 5000/Q % below 50, 200 − 2Q % above), where FFmpeg's `-q:v 5` is
    /// roughly libjpeg quality 75.
    static func jpegQuantizer(forQuality quality: Int) -> Int {
        let percent = quality < 50 ? 5000.0 / Double(quality) : 200.0 - 2.0 * Double(quality)
        return min(31, max(2, Int((percent / 10).rounded())))
    }

    /// A frame in the encoder's pixel format holding `image`.
    private func encoderInput(for image: RGBAImageBuffer) throws -> Frame {
        let frame = try Frame()
        switch format {
        case .jpeg:
            let source = try Frame()
            let scaler = try Scaler(
                sourceWidth: width, sourceHeight: height, sourceFormat: AV_PIX_FMT_RGBA, width: width, height: height,
                destinationFormat: AV_PIX_FMT_YUV420P, destinationColorSpace: AVCOL_SPC_BT470BG,
                destinationFullRange: true)
            try image.pixels.withUnsafeBufferPointer { pixels in
                try source.borrow(rgba: pixels, width: width, height: height)
                defer { source.unref() }
                try scaler.scale(source, into: frame)
            }
            frame.pointer.pointee.color_range = AVCOL_RANGE_JPEG
            frame.pointer.pointee.colorspace = AVCOL_SPC_BT470BG
        case .png:
            try allocate(frame, AV_PIX_FMT_RGB24)
            copyPixels(of: image, into: frame, channelOrder: [0, 1, 2])
        case .webp:
            try allocate(frame, AV_PIX_FMT_BGRA)
            copyPixels(of: image, into: frame, channelOrder: [2, 1, 0, 3])
        }
        return frame
    }

    private func allocate(_ frame: Frame, _ pixelFormat: AVPixelFormat) throws {
        try frame.allocate(width: width, height: height, format: pixelFormat)
    }

    /// Writes `image`'s RGBA channels into `frame`'s packed plane in `channelOrder` (source
    /// channel index for each destination byte of a pixel).
    private func copyPixels(of image: RGBAImageBuffer, into frame: Frame, channelOrder: [Int]) {
        let destinationStride = Int(frame.pointer.pointee.linesize.0)
        let channels = channelOrder.count
        guard let destination = frame.pointer.pointee.data.0 else { return }
        image.pixels.withUnsafeBufferPointer { source in
            for row in 0..<height {
                let sourceRow = row * width * 4
                let destinationRow = destination + row * destinationStride
                for column in 0..<width {
                    for (channel, sourceChannel) in channelOrder.enumerated() {
                        destinationRow[column * channels + channel] = source[sourceRow + column * 4 + sourceChannel]
                    }
                }
            }
        }
    }
}

extension ImageFormat {
    /// FFmpeg's encoder for the format.
    var encoderName: String {
        switch self {
        case .jpeg: return "mjpeg"
        case .png: return "png"
        case .webp: return "libwebp"
        }
    }

    /// The pixel format the encoder is fed.
    var encoderPixelFormat: AVPixelFormat {
        switch self {
        case .jpeg: return AV_PIX_FMT_YUV420P
        case .png: return AV_PIX_FMT_RGB24
        // libwebp takes AV_PIX_FMT_RGB32, a macro that is BGRA on the little-endian machines we
        // build for.
        case .webp: return AV_PIX_FMT_BGRA
        }
    }
}
