import CFFmpeg

extension AVPixelFormat {
    /// True for an RGB format (packed or planar, any depth, with or without alpha).
    var isRGB: Bool { hasFlag(AV_PIX_FMT_FLAG_RGB) }

    /// True for a format with an alpha channel (a PNG with transparency).
    var hasAlpha: Bool { hasFlag(AV_PIX_FMT_FLAG_ALPHA) }

    /// True when libavutil's descriptor of the format has `flag` (`AV_PIX_FMT_FLAG_…`).
    private func hasFlag(_ flag: Int32) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(self) else { return false }
        return descriptor.pointee.flags & UInt64(flag) != 0
    }
}
