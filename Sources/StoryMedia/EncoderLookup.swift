import CFFmpeg

/// Finds an FFmpeg encoder by name and allocates a codec context for it: the start shared by
/// ``VideoEncoder`` and ``ImageEncoder``, which own and free the context.
enum EncoderLookup {
    /// The encoder named `name` (e.g. `libx264`, `mjpeg`) and a fresh context for it, or a
    /// ``MediaError`` saying this FFmpeg build lacks it.
    static func open(_ name: String, purpose: String) throws -> (
        codec: UnsafePointer<AVCodec>, context: UnsafeMutablePointer<AVCodecContext>
    ) {
        try MediaLibraries.require()
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw MediaError(
                .unsupported, "this FFmpeg build has no \(name) encoder", ffmpegCode: cff_error_encoder_not_found())
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw MediaError(.ioFailure, "out of memory (\(purpose))")
        }
        return (codec, context)
    }
}
