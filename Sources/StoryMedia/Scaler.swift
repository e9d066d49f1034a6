import CFFmpeg

/// Converts and resizes pictures with libswscale: owns a `SwsContext`, freed with
/// `sws_freeContext`.
///
/// The source's colour matrix and range are honoured; an untagged source is treated as libswscale
/// (and so the ffmpeg CLI) treats it by default: BT.601 matrix, limited range.
public final class Scaler {
    private let context: OpaquePointer
    /// Destination width in pixels.
    public let destinationWidth: Int
    /// Destination height in pixels.
    public let destinationHeight: Int
    let destinationFormat: AVPixelFormat
    /// libswscale 5.1 reads 8-bit grey through a palette of full-range levels, whatever range it
    /// is told: limited-range black (16) and white (235) came out 16 and 235 where 10-bit grey and
    /// 4:2:0 of the same levels came out 0 and 255 (a colour QA pass). Such a source is expanded
    /// to full range here first (``fullRangeGrey(_:)``).
    private let expandsLimitedGrey: Bool

    /// A scaler from `source`'s size, pixel format and colour tags to `width` × `height` in
    /// `destinationFormat`. `destinationColorSpace` and `destinationFullRange` describe the
    /// output when it is YUV (ignored for RGB). Both sizes must be within the ``PixelBudget``,
    /// with the margin a fill may take (``PixelBudget/allowsIntermediate(width:height:)``), else
    /// `.invalidMedia`. The default `flags` interpolate chroma in full to RGB: without it, YUV
    /// 4:2:0 and 4:2:2 came out of libswscale 5.1 with accurate rounding up to 2 levels darker
    /// than players show them (grey 126 for 128; a colour QA pass), as the ffmpeg CLI's
    /// `-sws_flags bicubic+accurate_rnd` does.
    init(
        sourceWidth: Int, sourceHeight: Int, sourceFormat: AVPixelFormat,
        sourceColorSpace: AVColorSpace = AVCOL_SPC_UNSPECIFIED, sourceFullRange: Bool = false,
        width: Int, height: Int, destinationFormat: AVPixelFormat,
        destinationColorSpace: AVColorSpace = AVCOL_SPC_BT709, destinationFullRange: Bool = true,
        flags: Int32 = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT
    ) throws {
        // Within the budget (with a fill's filter margin), every side and every row of bytes
        // fits libswscale's `int`s.
        guard PixelBudget.allowsIntermediate(width: sourceWidth, height: sourceHeight),
            PixelBudget.allowsIntermediate(width: width, height: height)
        else {
            throw MediaError(
                .invalidMedia,
                "cannot scale a \(sourceWidth)x\(sourceHeight) picture to \(width)x\(height): "
                    + PixelBudget.overLimit)
        }
        guard
            let context = sws_getContext(
                Int32(clamping: sourceWidth), Int32(clamping: sourceHeight), sourceFormat, Int32(clamping: width),
                Int32(clamping: height),
                destinationFormat, flags, nil, nil, nil)
        else {
            // libswscale refuses a format it lacks, and a size it cannot filter (a 2x2 picture
            // scaled to 8192 wide).
            let formatName = av_get_pix_fmt_name(sourceFormat).map { String(cString: $0) } ?? "\(sourceFormat.rawValue)"
            throw MediaError(
                .unsupported,
                "libswscale cannot scale a \(sourceWidth)x\(sourceHeight) \(formatName) picture to \(width)x\(height)")
        }
        self.context = context
        destinationWidth = width
        destinationHeight = height
        self.destinationFormat = destinationFormat
        expandsLimitedGrey = sourceFormat == AV_PIX_FMT_GRAY8 && !sourceFullRange
        let destinationTable = sws_getCoefficients(Scaler.swsColorSpace(destinationColorSpace))
        if sourceFormat.isRGB && destinationFormat.isRGB {
            // RGB to RGB: libswscale scales through a YUV of its own, with one matrix in and the
            // other out, so the two must be one and the same, at full range: with BT.601 in and
            // BT.709 out, a PNG still's red 253 came out 230 (a QA pass; 16-bit PNGs even unscaled).
            sws_setColorspaceDetails(context, destinationTable, 1, destinationTable, 1, 0, 1 << 16, 1 << 16)
        } else {
            let sourceTable = sws_getCoefficients(Scaler.swsColorSpace(sourceColorSpace))
            sws_setColorspaceDetails(
                context, sourceTable, sourceFullRange ? 1 : 0, destinationTable, destinationFullRange ? 1 : 0, 0,
                1 << 16, 1 << 16)
        }
    }

    /// A scaler for decoded `frame`s of this shape, honouring the frame's colour tags.
    convenience init(
        for frame: Frame, width: Int, height: Int, destinationFormat: AVPixelFormat = AV_PIX_FMT_RGBA,
        flags: Int32 = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT
    ) throws {
        try self.init(
            sourceWidth: frame.width, sourceHeight: frame.height, sourceFormat: frame.pixelFormat,
            sourceColorSpace: frame.pointer.pointee.colorspace,
            sourceFullRange: frame.pointer.pointee.color_range == AVCOL_RANGE_JPEG
                || Scaler.isFullRangeFormat(frame.pixelFormat),
            width: width, height: height, destinationFormat: destinationFormat, flags: flags)
    }

    deinit { sws_freeContext(context) }

    /// Scales `source` into `destination`, allocating its buffers when it has none.
    public func scale(_ source: Frame, into destination: Frame) throws {
        if destination.pointer.pointee.data.0 == nil {
            try destination.allocate(width: destinationWidth, height: destinationHeight, format: destinationFormat)
        }
        let source = try expandsLimitedGrey ? Scaler.fullRangeGrey(source) : source
        try ffmpegCheck(
            sws_scale_frame(context, destination.pointer, source.pointer), "cannot scale the picture", kind: .ioFailure)
    }

    /// Each limited-range grey level (16…235) stretched to full range, rounded; levels outside
    /// it clipped to 0 and 255. Made once, not once a frame.
    private static let fullRangeGreyLevels: [UInt8] = (0..<256).map { (level: Int) -> UInt8 in
        let stretched: Int = ((level - 16) * 255 + 109) / 219
        return UInt8(max(0, min(255, stretched)))
    }

    /// A copy of 8-bit grey `source` with its limited-range levels (16…235) stretched to full
    /// range (0…255), as libswscale stretches every other limited-range format.
    static func fullRangeGrey(_ source: Frame) throws -> Frame {
        let expanded = try Frame()
        try expanded.allocate(width: source.width, height: source.height, format: AV_PIX_FMT_GRAY8)
        _ = av_frame_copy_props(expanded.pointer, source.pointer)
        expanded.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        let levels = fullRangeGreyLevels
        let (from, fromStride) = source.plane(0)
        let (to, toStride) = expanded.plane(0)
        for row in 0..<source.height {
            let input = (from + row * fromStride).assumingMemoryBound(to: UInt8.self)
            let output = (to + row * toStride).assumingMemoryBound(to: UInt8.self)
            for column in 0..<source.width { output[column] = levels[Int(input[column])] }
        }
        return expanded
    }

    /// Scales `source` into a packed RGBA buffer (the scaler's destination format must be RGBA).
    public func scaleToRGBA(_ source: Frame) throws -> RGBAImageBuffer {
        precondition(destinationFormat == AV_PIX_FMT_RGBA)
        let source = try expandsLimitedGrey ? Scaler.fullRangeGrey(source) : source
        // Not cleared first: libswscale writes every byte of the picture (checked: all its rows),
        // and clearing 8 MB a face was measurable.
        let byteCount = destinationWidth * destinationHeight * 4
        let pixels = try [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            var planes: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(clamping: destinationWidth * 4), 0, 0, 0]
            let source = source.pointer
            let sourcePlanes = withUnsafeBytes(of: source.pointee.data) { raw in
                Array(raw.bindMemory(to: UnsafePointer<UInt8>?.self).prefix(4))
            }
            let sourceStrides = withUnsafeBytes(of: source.pointee.linesize) { raw in
                Array(raw.bindMemory(to: Int32.self).prefix(4))
            }
            let rows = sws_scale(context, sourcePlanes, sourceStrides, 0, source.pointee.height, &planes, &strides)
            try ffmpegCheck(rows, "cannot scale the picture", kind: .ioFailure)
            guard Int(rows) == destinationHeight else {
                throw MediaError(.ioFailure, "cannot scale the picture: \(rows) of \(destinationHeight) rows written")
            }
            initialized = byteCount
        }
        return RGBAImageBuffer(width: destinationWidth, height: destinationHeight, pixels: pixels)
    }

    /// libswscale's colour-space constant for an FFmpeg colour space (BT.601 when unspecified).
    static func swsColorSpace(_ space: AVColorSpace) -> Int32 {
        switch space {
        case AVCOL_SPC_BT709: return SWS_CS_ITU709
        case AVCOL_SPC_FCC: return SWS_CS_FCC
        case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020
        default: return SWS_CS_DEFAULT
        }
    }

    /// The deprecated `yuvj*` formats are full range whatever the frame's tag says.
    static func isFullRangeFormat(_ format: AVPixelFormat) -> Bool {
        [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P].contains(format)
    }
}
