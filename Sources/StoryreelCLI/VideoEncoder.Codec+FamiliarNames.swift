import StoryMedia

extension VideoEncoder.Codec {
    /// What people call the codecs elsewhere, lowercased: the standards (`h265`, `h.264`), the
    /// encoders (`x265`, ffmpeg's `libx264`) and the MP4 sample entries (`hvc1`, `hev1`, `avc1`).
    /// `--codec` still refuses them, naming the codec meant (a QA pass: `--codec h265` was told
    /// only that it must be one of h264, hevc).
    static let familiarNames: [String: VideoEncoder.Codec] = [
        "h265": .hevc, "h.265": .hevc, "x265": .hevc, "libx265": .hevc, "hvc1": .hevc, "hev1": .hevc, "hevc1": .hevc,
        "x264": .h264, "libx264": .h264, "avc": .h264, "avc1": .h264, "h.264": .h264,
    ]
}
