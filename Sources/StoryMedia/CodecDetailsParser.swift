import CFFmpeg

/// Reads a video stream's pixel format, profile and coded size from its headers and first packet with
/// FFmpeg's bitstream parser, instead of decoding a frame as `avformat_find_stream_info` does.
/// Owns an `AVCodecParserContext` (closed with `av_parser_close`) and the `AVCodecContext` it
/// parses into (freed with `avcodec_free_context`).
final class CodecDetailsParser {
    private let parser: UnsafeMutablePointer<AVCodecParserContext>
    private let codecContext: UnsafeMutablePointer<AVCodecContext>

    /// A parser for `stream`'s codec, or nil when FFmpeg has none for it.
    init?(stream: MediaStream) {
        guard let parser = av_parser_init(Int32(clamping: stream.parameters.pointee.codec_id.rawValue)) else {
            return nil
        }
        guard let context = avcodec_alloc_context3(nil) else {
            av_parser_close(parser)
            return nil
        }
        // Demuxed QuickTime packets are whole frames, length-prefixed rather than Annex B.
        parser.pointee.flags |= PARSER_FLAG_COMPLETE_FRAMES
        self.parser = parser
        codecContext = context
        // Without the parameters (extradata) the parser cannot work; the details stay unknown.
        guard (try? ffmpegCheck(avcodec_parameters_to_context(context, stream.parameters), "codec parameters")) != nil
        else { return nil }
    }

    deinit {
        av_parser_close(parser)
        var context: UnsafeMutablePointer<AVCodecContext>? = codecContext
        avcodec_free_context(&context)
    }

    /// Parses one packet; afterwards ``pixelFormatName`` and ``profile`` may be known.
    func parse(_ packet: Packet) {
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: Int32 = 0
        var data = packet.pointer.pointee.data
        var remaining = packet.pointer.pointee.size
        while remaining > 0, let input = data {
            let used = av_parser_parse2(
                parser, codecContext, &output, &outputSize, input, remaining, cff_nopts_value(), cff_nopts_value(), 0)
            guard used > 0 else { break }
            data = input + Int(used)
            remaining -= used
        }
    }

    /// The pixel format the parser found, or nil.
    var pixelFormat: Int32? { parser.pointee.format >= 0 ? parser.pointee.format : nil }

    /// The codec profile the parser found, or nil.
    var profile: Int32? { codecContext.pointee.profile >= 0 ? codecContext.pointee.profile : nil }

    /// The picture size the H.264 or HEVC parser read from the active sequence parameter set
    /// (cropped, as the decoder outputs it), or nil.
    var pictureSize: (width: Int32, height: Int32)? {
        let (width, height) = (parser.pointee.width, parser.pointee.height)
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// The coded size the parser found (the MPEG-4 Part 2 parser reads it from the stream's
    /// headers), or nil.
    var size: (width: Int32, height: Int32)? {
        let (width, height) = (codecContext.pointee.width, codecContext.pointee.height)
        return width > 0 && height > 0 ? (width, height) : nil
    }
}
