import CFFmpeg

extension Frame {
    /// The steps a crop's left and top offsets must keep to so that a picture's subsampled
    /// colour planes stay sited on its luma (2 and 2 for 4:2:0), or nil for a pixel format whose
    /// left and top cannot be cropped by moving plane pointers (bitstream and hardware formats).
    var cropAlignment: (horizontal: Int, vertical: Int)? {
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat) else { return nil }
        let unmovable = UInt64(AV_PIX_FMT_FLAG_BITSTREAM) | UInt64(AV_PIX_FMT_FLAG_HWACCEL)
        guard descriptor.pointee.flags & unmovable == 0 else { return nil }
        return (1 << Int(descriptor.pointee.log2_chroma_w), 1 << Int(descriptor.pointee.log2_chroma_h))
    }

    /// A new reference to this picture's buffers showing only `crop`, with `av_frame_apply_cropping`
    /// moving the plane pointers (unaligned, as ffmpeg's crop filter hands them to libswscale).
    /// Nothing is copied, and this frame is unchanged.
    func cropped(_ crop: FillCrop) throws -> Frame {
        let part = try Frame()
        try ffmpegCheck(av_frame_ref(part.pointer, pointer), "cannot reference a frame", kind: .ioFailure)
        part.pointer.pointee.crop_left = max(0, crop.left)
        part.pointer.pointee.crop_top = max(0, crop.top)
        part.pointer.pointee.crop_right = max(0, width - crop.left - crop.width)
        part.pointer.pointee.crop_bottom = max(0, height - crop.top - crop.height)
        try ffmpegCheck(
            av_frame_apply_cropping(part.pointer, Int32(AV_FRAME_CROP_UNALIGNED)),
            "cannot crop a \(width)x\(height) picture to \(crop.width)x\(crop.height)", kind: .invalidMedia)
        return part
    }

    /// What to hand the scaler for a picture of `size`, shown through `transform` with pixels
    /// `pixelAspect` wide: the source (for ``FrameSize/fill(width:height:)``, the whole pixels
    /// around the part that shows), the stored size to scale it to, and the part of the scaled
    /// picture to keep, in stored orientation. Every other size, and a pixel format that cannot
    /// be cropped in place, scales the whole picture. Throws `.invalidMedia` about `path` when
    /// the output, or the picture scaled on the way to it, is over the ``PixelBudget``.
    func scalingPlan(
        for size: FrameSize, pixelAspect: Double, transform: DisplayTransform, displayWidth: Int, displayHeight: Int,
        path: String?
    ) throws -> ScalingPlan {
        let output = size.outputSize(displayWidth: displayWidth, displayHeight: displayHeight)
        try PixelBudget.check(width: output.width, height: output.height, path: path, what: "the scaled picture")
        let plan = try plannedScaling(
            for: size, output: output, pixelAspect: pixelAspect, transform: transform, displayWidth: displayWidth,
            displayHeight: displayHeight)
        // The output is within the budget; the picture scaled on the way may be a little over.
        try PixelBudget.checkIntermediate(
            width: plan.width, height: plan.height, path: path, what: "the scaled picture")
        return plan
    }

    private func plannedScaling(
        for size: FrameSize, output: (width: Int, height: Int), pixelAspect: Double, transform: DisplayTransform,
        displayWidth: Int, displayHeight: Int
    ) throws -> ScalingPlan {
        let target = transform.storedSize(displayWidth: output.width, displayHeight: output.height)
        if case .fill = size, let alignment = cropAlignment {
            let fill = FillCrop(
                storedWidth: width, storedHeight: height, pixelAspect: pixelAspect, targetWidth: target.width,
                targetHeight: target.height, alignment: alignment)
            return ScalingPlan(
                source: fill.scalesWhole(width: width, height: height) ? self : try cropped(fill),
                width: fill.scaledWidth, height: fill.scaledHeight, keepLeft: fill.keepLeft, keepTop: fill.keepTop,
                keepWidth: target.width, keepHeight: target.height)
        }
        let scaled = size.scaledSize(displayWidth: displayWidth, displayHeight: displayHeight)
        let stored = transform.storedSize(displayWidth: scaled.width, displayHeight: scaled.height)
        let keepWidth = min(target.width, stored.width)
        let keepHeight = min(target.height, stored.height)
        return ScalingPlan(
            source: self, width: stored.width, height: stored.height, keepLeft: (stored.width - keepWidth) / 2,
            keepTop: (stored.height - keepHeight) / 2, keepWidth: keepWidth, keepHeight: keepHeight)
    }
}
