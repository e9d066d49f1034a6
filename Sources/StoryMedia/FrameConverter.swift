import CFFmpeg

/// Turns decoded frames of one clip into upright, 8-bit, full-range RGBA pictures of a requested
/// ``FrameSize``: crop to the part a ``FrameSize/fill(width:height:)`` keeps, scale (libswscale,
/// honouring the frame's colour tags), tone-map HLG/PQ to SDR, then turn upright at the small size.
///
/// It keeps its last scalers, since every frame of a clip has the same shape.
final class FrameConverter {
    /// How stored pictures are turned upright.
    let transform: DisplayTransform
    /// Horizontal stretch of a stored pixel (1 for square pixels).
    let sampleAspectRatio: Double

    private var pictureScaler: (key: ScalerKey, scaler: Scaler)?
    private var statisticsScaler: (key: ScalerKey, scaler: Scaler)?
    private var samplingScaler: (key: ScalerKey, scaler: Scaler)?

    /// Side of the square the poster statistics are measured on.
    static let statisticsSide = 64

    init(transform: DisplayTransform, sampleAspectRatio: Double) {
        self.transform = transform
        self.sampleAspectRatio = sampleAspectRatio
    }

    /// The upright size `frame` displays at.
    func displaySize(of frame: Frame) -> (width: Int, height: Int) {
        let shownWidth = max(1, Int(saturating: (Double(frame.width) * sampleAspectRatio).rounded()))
        return transform.displaySize(width: shownWidth, height: frame.height)
    }

    /// `frame` as an upright RGBA picture of `size`. Throws `.invalidMedia` when the decoded
    /// picture, or the picture it would be scaled to, is over the ``PixelBudget``.
    func picture(from frame: Frame, size: FrameSize) throws -> RGBAImageBuffer {
        let plan = try scalingPlan(of: frame, size: size)
        var image: RGBAImageBuffer
        if let toneMapper = HDRToneMapper(for: frame) {
            let scaler = try scaler(
                for: plan.source, width: plan.width, height: plan.height, format: AV_PIX_FMT_RGB48LE)
            image = try toneMapper.map(plan.source, with: scaler)
        } else {
            let scaler = try scaler(for: plan.source, width: plan.width, height: plan.height, format: AV_PIX_FMT_RGBA)
            image = try scaler.scaleToRGBA(plan.source)
        }
        return transform.apply(to: plan.keep(of: image))
    }

    /// `frame` as the encoder's planes of `size` (``PlanarPicture``) with nothing converted, when
    /// it already is that picture: 8-bit yuv420p tagged BT.709 at limited range, SDR, upright,
    /// and of a `size` that keeps its pixels as they are (a fill that only crops, at even
    /// offsets). Nil for any other frame, which ``picture(from:size:)`` converts.
    func planes(from frame: Frame, size: FrameSize) throws -> PlanarPicture? {
        let color = frame.pointer.pointee
        guard frame.pixelFormat == AV_PIX_FMT_YUV420P, color.colorspace == AVCOL_SPC_BT709,
            color.color_range != AVCOL_RANGE_JPEG, HDRToneMapper(for: frame) == nil, transform.isIdentity,
            size.isValid
        else { return nil }
        let plan = try scalingPlan(of: frame, size: size)
        // Not scaled: the part kept is the crop's pixels as they are (the crop keeps a margin
        // for the scaler's filter, cut after it), sited on whole chroma samples.
        guard plan.width == plan.source.width, plan.height == plan.source.height,
            [plan.keepLeft, plan.keepTop, plan.keepWidth, plan.keepHeight].allSatisfy({ $0 % 2 == 0 })
        else { return nil }
        return PlanarPicture(
            copying: plan.source, left: plan.keepLeft, top: plan.keepTop, width: plan.keepWidth,
            height: plan.keepHeight)
    }

    /// How `frame` becomes a picture of `size`, once it and the picture made are within the
    /// ``PixelBudget`` (else `.invalidMedia`; an invalid `size` is `.unsupported`). The size it
    /// is shown at is not checked, only what is decoded and what is made: a 640x360 picture of
    /// 13:1 pixels, shown at 8320x360, makes a 1080x46 one (a QA pass found it refused).
    private func scalingPlan(of frame: Frame, size: FrameSize) throws -> ScalingPlan {
        guard size.isValid else { throw MediaError(.unsupported, "invalid picture size \(size)") }
        try PixelBudget.check(width: frame.width, height: frame.height, path: nil, what: "the decoded picture")
        let display = displaySize(of: frame)
        return try frame.scalingPlan(
            for: size, pixelAspect: sampleAspectRatio, transform: transform, displayWidth: display.width,
            displayHeight: display.height, path: nil)
    }

    /// Luma and colour statistics of `frame`, measured on a 64 × 64 area-averaged copy and on
    /// 64 × 64 single pixels of the full picture (orientation does not matter to them).
    /// A picture libswscale cannot stretch to 64 on its short side (4096x4, 2x4096: a QA pass
    /// found the smart pick refusing such a clip) is measured at its own size on that side.
    func statistics(of frame: Frame) throws -> FrameStatistics {
        let side = FrameConverter.statisticsSide
        let square = ScalerKey(frame: frame, width: side, height: side, format: AV_PIX_FMT_RGBA)
        let fitted = ScalerKey(
            frame: frame, width: min(side, frame.width), height: min(side, frame.height), format: AV_PIX_FMT_RGBA)
        // Either measure made for a frame of this shape serves: the square is not tried again for
        // every frame of a clip it failed for.
        if statisticsScaler?.key != square && statisticsScaler?.key != fitted {
            do {
                statisticsScaler = (square, try Scaler(for: frame, width: side, height: side))
            } catch {
                statisticsScaler = (fitted, try Scaler(for: frame, width: fitted.width, height: fitted.height))
            }
        }
        let key = statisticsScaler!.key
        if samplingScaler?.key != key {
            samplingScaler = (key, try Scaler(for: frame, width: key.width, height: key.height, flags: SWS_POINT))
        }
        return FrameStatistics(
            downscaled: try statisticsScaler!.scaler.scaleToRGBA(frame),
            pixelSamples: try samplingScaler!.scaler.scaleToRGBA(frame))
    }

    private func scaler(for frame: Frame, width: Int, height: Int, format: AVPixelFormat) throws -> Scaler {
        let key = ScalerKey(frame: frame, width: width, height: height, format: format)
        if let cached = pictureScaler, cached.key == key { return cached.scaler }
        let scaler = try Scaler(for: frame, width: width, height: height, destinationFormat: format)
        pictureScaler = (key, scaler)
        return scaler
    }

    /// What makes a scaler reusable for another frame: the source's shape and colour tags and the
    /// destination's.
    private struct ScalerKey: Equatable {
        let sourceWidth: Int
        let sourceHeight: Int
        let sourceFormat: Int
        let colorSpace: Int
        let colorRange: Int
        let width: Int
        let height: Int
        let format: Int

        init(frame: Frame, width: Int, height: Int, format: AVPixelFormat) {
            sourceWidth = frame.width
            sourceHeight = frame.height
            sourceFormat = Int(frame.pointer.pointee.format)
            colorSpace = Int(frame.pointer.pointee.colorspace.rawValue)
            colorRange = Int(frame.pointer.pointee.color_range.rawValue)
            self.width = width
            self.height = height
            self.format = Int(format.rawValue)
        }
    }
}
