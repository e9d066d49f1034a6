import CFFmpeg

/// One stream of an ``InputFile``. It keeps its file alive, so the `AVStream` it reads from
/// stays valid for as long as the stream is used.
public final class MediaStream {
    /// The kind of a stream.
    public enum Kind: Sendable {
        case video, audio

        var mediaType: AVMediaType { self == .video ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_AUDIO }
    }

    /// The file the stream belongs to.
    public let file: InputFile
    /// The stream's index in its file.
    public let index: Int

    init(file: InputFile, index: Int) {
        self.file = file
        self.index = index
    }

    var stream: UnsafeMutablePointer<AVStream> { file.context.pointee.streams[index]! }
    var parameters: UnsafeMutablePointer<AVCodecParameters> { stream.pointee.codecpar }

    /// The stream's kind, or nil for data, subtitle and other streams.
    public var kind: Kind? {
        switch parameters.pointee.codec_type {
        case AVMEDIA_TYPE_VIDEO: return .video
        case AVMEDIA_TYPE_AUDIO: return .audio
        default: return nil
        }
    }

    /// True for cover art: a still picture attached to the file (`attached_pic`), not video.
    public var isAttachedPicture: Bool { stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 }

    /// True when every picture of the codec stands alone (PNG, MJPEG, ProRes): a damaged one
    /// leaves the others whole.
    public var isIntraOnly: Bool {
        guard let descriptor = avcodec_descriptor_get(parameters.pointee.codec_id) else { return false }
        return descriptor.pointee.props & AV_CODEC_PROP_INTRA_ONLY != 0
    }

    /// FFmpeg's short codec name, e.g. `h264`, `hevc`, `aac`; `unknown`, as ffprobe says, for a
    /// sample entry FFmpeg does not know (FFmpeg's own name for it, `none`, read as no video).
    public var codecName: String {
        guard parameters.pointee.codec_id != AV_CODEC_ID_NONE else { return "unknown" }
        return String(cString: avcodec_get_name(parameters.pointee.codec_id))
    }

    /// The codec profile's name, e.g. `High` or `Main 10`, or nil when unknown.
    public var profileName: String? {
        avcodec_profile_name(parameters.pointee.codec_id, parameters.pointee.profile).map { String(cString: $0) }
    }

    /// The RFC 6381 codecs string (`avc1.64001f`, `hvc1.2.4.L120.90`), from the stream's
    /// decoder configuration record; see ``CodecsString``.
    public var codecs: String {
        let picture = CodecsString.Picture(
            width: Int(parameters.pointee.width), height: Int(parameters.pointee.height), bitDepth: bitDepth ?? 8,
            chromaShift: av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.pointee.format))
                .map { Int($0.pointee.log2_chroma_w) } ?? 1)
        // A Dolby Vision sample entry (`dvh1`, `dvhe`, `dva1`, `dvav`) is named as such: a
        // player that does not play Dolby Vision entries was told `hvc1.…` (a QA pass).
        if let named = CodecsString.dolbyVision(tag: codecTag, profile: dolbyVision?.profile, level: dolbyVision?.level)
        {
            return named
        }
        // VP9's `vpcC` record, which the demuxer does not keep, as the sniffer read it (a QA
        // pass: the level derived from the rate was not the box's where the muxer wrote it from
        // the picture size alone).
        let record = extradata.isEmpty ? (file.trackPictures[index]?.vp9Configuration ?? []) : extradata
        return CodecsString.make(
            codec: codecName, tag: codecTag, extradata: record, profile: Int(parameters.pointee.profile),
            level: Int(parameters.pointee.level), picture: picture)
    }

    /// The four-character codec tag from the container, e.g. `hvc1` or `avc1`.
    public var codecTag: String {
        let tag = parameters.pointee.codec_tag
        let bytes = (0..<4).map { UInt8((tag >> (8 * UInt32($0))) & 0xFF) }
        return bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) ? String(decoding: bytes, as: UTF8.self) : ""
    }

    /// Coded width and height in pixels.
    public var codedSize: (width: Int, height: Int) {
        (Int(parameters.pointee.width), Int(parameters.pointee.height))
    }

    /// The stream's time base in seconds per tick.
    public var timeBase: Double { av_q2d(stream.pointee.time_base) }

    /// The stream time base as a fraction.
    var timeBaseRational: AVRational { stream.pointee.time_base }

    /// The stream's start time in its time base, or 0 when unknown.
    public var startTimestamp: Int64 {
        let value = stream.pointee.start_time
        return value == cff_nopts_value() ? 0 : value
    }

    /// The stream's duration in seconds, or nil when unknown.
    public var duration: Double? {
        let value = stream.pointee.duration
        return value == cff_nopts_value() ? nil : Double(value) * timeBase
    }

    /// The stream's average bit rate in bits per second as the container gives it (ffprobe's
    /// stream `bit_rate`), or nil when it says nothing. For MP4 and QuickTime the demuxer works it
    /// out from the stream's sample sizes over its duration when no `btrt` box gives it.
    public var bitRate: Int? {
        let value = parameters.pointee.bit_rate
        return value > 0 ? Int(value) : nil
    }

    /// FFmpeg's average frame rate (ffprobe's `avg_frame_rate`), or nil when unknown.
    public var averageFrameRate: Double? {
        let rate = stream.pointee.avg_frame_rate
        return rate.num > 0 && rate.den > 0 ? av_q2d(rate) : nil
    }

    /// The display matrix from the container, if any, as 9 fixed-point values.
    public var displayMatrix: [Int32]? {
        var size = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size),
            size >= 9 * MemoryLayout<Int32>.size
        else { return nil }
        return data.withMemoryRebound(to: Int32.self, capacity: 9) { Array(UnsafeBufferPointer(start: $0, count: 9)) }
    }

    /// The container's HDR light metadata (`mdcv` and `clli` boxes), or nil when it has none.
    public var containerLightMetadata: HDRLightMetadata? {
        HDRLightMetadata(
            mastering: sideData(AV_PKT_DATA_MASTERING_DISPLAY_METADATA),
            light: sideData(AV_PKT_DATA_CONTENT_LIGHT_LEVEL))
    }

    /// The container's side data of `type` (its bytes, copied), or nil when it has none.
    func sideData(_ type: AVPacketSideDataType) -> [UInt8]? {
        var size = 0
        guard let data = av_stream_get_side_data(stream, type, &size), size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// How the stored picture must be turned to display upright.
    public var orientation: DisplayOrientation {
        displayMatrix.map { DisplayOrientation(matrix: $0) } ?? .upright
    }

    /// The Dolby Vision configuration record (`dvcC`, `dvvC`), if the stream carries one: its
    /// profile, level and base-layer compatibility.
    public var dolbyVision: (profile: Int, level: Int, compatibilityID: Int)? {
        var size = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DOVI_CONF, &size),
            size >= MemoryLayout<AVDOVIDecoderConfigurationRecord>.size
        else { return nil }
        return data.withMemoryRebound(to: AVDOVIDecoderConfigurationRecord.self, capacity: 1) {
            (Int($0.pointee.dv_profile), Int($0.pointee.dv_level), Int($0.pointee.dv_bl_signal_compatibility_id))
        }
    }

    /// The pixel format's name, e.g. `yuv420p10le`, or nil when unknown.
    public var pixelFormatName: String? {
        var format = AVPixelFormat(rawValue: parameters.pointee.format)
        // libavcodec's H.264 and HEVC decoders name a 4:4:4 picture of the identity matrix (GBR,
        // as libx264rgb writes it) with the `gbrp` formats (so ffprobe does; a re-check found it
        // `yuvj444p`); the parser gives the YUV ones.
        let codec = parameters.pointee.codec_id
        if codec == AV_CODEC_ID_H264 || codec == AV_CODEC_ID_HEVC, parameters.pointee.color_space == AVCOL_SPC_RGB {
            let planar: [AVPixelFormat: AVPixelFormat] = [
                AV_PIX_FMT_YUV444P: AV_PIX_FMT_GBRP, AV_PIX_FMT_YUV444P9LE: AV_PIX_FMT_GBRP9LE,
                AV_PIX_FMT_YUV444P10LE: AV_PIX_FMT_GBRP10LE, AV_PIX_FMT_YUV444P12LE: AV_PIX_FMT_GBRP12LE,
                AV_PIX_FMT_YUV444P14LE: AV_PIX_FMT_GBRP14LE,
            ]
            if let rgb = planar[format] { return av_get_pix_fmt_name(rgb).map { String(cString: $0) } }
        }
        // libavcodec's H.264 decoder names a full-range picture with the `yuvj` formats (so
        // ffprobe does); the parser, which storyreel reads instead, gives the plain ones.
        if parameters.pointee.codec_id == AV_CODEC_ID_H264 && parameters.pointee.color_range == AVCOL_RANGE_JPEG {
            switch format {
            case AV_PIX_FMT_YUV420P: format = AV_PIX_FMT_YUVJ420P
            case AV_PIX_FMT_YUV422P: format = AV_PIX_FMT_YUVJ422P
            case AV_PIX_FMT_YUV444P: format = AV_PIX_FMT_YUVJ444P
            default: break
            }
        }
        return av_get_pix_fmt_name(format).map { String(cString: $0) }
    }

    /// Bits per sample of the first colour component, e.g. 8 or 10.
    public var bitDepth: Int? {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.pointee.format)) else {
            return nil
        }
        return Int(descriptor.pointee.comp.0.depth)
    }

    /// The colour transfer's FFmpeg name, e.g. `bt709` or `arib-std-b67`; nil when unspecified.
    public var colorTransferName: String? {
        Self.colourName(parameters.pointee.color_trc, unspecified: AVCOL_TRC_UNSPECIFIED, av_color_transfer_name)
    }

    /// The colour primaries' FFmpeg name, e.g. `bt709` or `bt2020`; nil when unspecified.
    public var colorPrimariesName: String? {
        Self.colourName(parameters.pointee.color_primaries, unspecified: AVCOL_PRI_UNSPECIFIED, av_color_primaries_name)
    }

    /// The matrix coefficients' FFmpeg name (ffprobe's `color_space`), e.g. `bt709` or
    /// `bt2020nc`; nil when unspecified.
    public var colorSpaceName: String? {
        Self.colourName(parameters.pointee.color_space, unspecified: AVCOL_SPC_UNSPECIFIED, av_color_space_name)
    }

    /// The colour range's FFmpeg name, `tv` (limited) or `pc` (full); nil when unspecified.
    public var colorRangeName: String? {
        Self.colourName(parameters.pointee.color_range, unspecified: AVCOL_RANGE_UNSPECIFIED, av_color_range_name)
    }

    /// FFmpeg's name of colour tag `value` (by `name`, e.g. `av_color_primaries_name`), or nil
    /// when it is `unspecified` or a value FFmpeg has no name for.
    static func colourName<Tag: Equatable>(
        _ value: Tag, unspecified: Tag, _ name: (Tag) -> UnsafePointer<CChar>?
    ) -> String? {
        guard value != unspecified else { return nil }
        return name(value).map { String(cString: $0) }
    }

    /// The decoder configuration record (`avcC`, `hvcC`, …) the container gives, or none.
    public var extradata: [UInt8] {
        let size = Int(clamping: max(parameters.pointee.extradata_size, 0))
        return parameters.pointee.extradata.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    /// The sample aspect ratio, or nil when unknown or square: the container's (an MP4's `pasp`
    /// box, which the demuxer puts on the stream, not in the codec parameters) over the codec
    /// parameters', as `av_guess_sample_aspect_ratio` (and so ffprobe) picks it. Reading the codec
    /// parameters alone showed a 2:1 clip at half its width.
    public var sampleAspectRatio: Double? {
        let ratio = av_guess_sample_aspect_ratio(file.context, stream, nil)
        guard ratio.num > 0, ratio.den > 0, ratio.num != ratio.den else { return nil }
        return av_q2d(ratio)
    }

    /// True when the container or the codec parameters give a sample aspect ratio, square or
    /// not; false when only the bitstream can (an H.264/HEVC VUI, read by the decoder).
    public var hasSampleAspectRatio: Bool {
        let ratio = av_guess_sample_aspect_ratio(file.context, stream, nil)
        return ratio.num > 0 && ratio.den > 0
    }

    /// Audio sample rate in Hz.
    public var sampleRate: Int { Int(parameters.pointee.sample_rate) }

    /// The RFC 6381 codecs string of an audio stream (`mp4a.40.2`, `ac-3`), or nil where
    /// browsers do not answer for it alike; see ``CodecsString/audio(codec:sampleRate:extradata:profile:)``.
    public var audioCodecs: String? {
        CodecsString.audio(
            codec: codecName, sampleRate: sampleRate, extradata: extradata, profile: Int(parameters.pointee.profile))
    }

    /// Audio channel count.
    public var channelCount: Int { Int(parameters.pointee.ch_layout.nb_channels) }

    /// The audio channel layout's name as ffprobe gives it (`mono`, `stereo`, `5.1(side)`), or
    /// nil when the track names no layout, only a count.
    public var channelLayoutName: String? {
        guard parameters.pointee.ch_layout.order != AV_CHANNEL_ORDER_UNSPEC,
            parameters.pointee.ch_layout.nb_channels > 0
        else { return nil }
        var text = [CChar](repeating: 0, count: 128)
        guard av_channel_layout_describe(&parameters.pointee.ch_layout, &text, text.count) > 0 else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The track's language (ISO 639-2, `eng`) from its header, or nil when it says none or
    /// `und` (undetermined), as ffprobe and MediaInfo leave it out.
    public var language: String? {
        guard let language = tags["language"], !language.isEmpty, language != "und" else { return nil }
        return language
    }

    /// The stream's metadata tags.
    public var tags: [String: String] { MediaStream.dictionary(stream.pointee.metadata) }

    /// The container's index for this stream: timestamp, position, size and flags of every
    /// sample, in decode order, without decoding anything.
    ///
    /// Throws `.invalidMedia` ("the sample index is corrupt: …") when an entry describes a sample
    /// no file can hold: a negative size (a sample size of 2^29 to 2^30 − 1 in `stsz` does not
    /// fit FFmpeg's 30-bit size field and comes back negative), a negative position, or an end
    /// past the largest file offset, or when the file's streams list more samples than
    /// storyreel reads (``ContainerSniffer/tooManySamples(_:)``).
    public var indexEntries: [IndexEntry] {
        get throws {
            let count = Int(max(0, avformat_index_get_entries_count(stream)))
            // The sniffer refuses a file whose index claims too many samples before FFmpeg opens
            // it; this holds what FFmpeg built all the same (an edit list expands an index by up to
            // ``ContainerSniffer/maximumEditExpansion``), all streams together, before any copy.
            let total = file.streams.reduce(UInt64(0)) { sum, stream in
                sum + UInt64(max(0, avformat_index_get_entries_count(stream.stream)))
            }
            if total > ContainerSniffer.maximumIndexedSamples + ContainerSniffer.maximumEditExpansion {
                throw MediaError(.invalidMedia, path: file.path, ContainerSniffer.tooManySamples(total))
            }
            var entries: [IndexEntry] = []
            entries.reserveCapacity(count)
            for number in 0..<count {
                guard let entry = avformat_index_get_entry(stream, Int32(number)) else { continue }
                let position = entry.pointee.pos
                let size = entry.pointee.size
                guard size >= 0, position >= 0, !position.addingReportingOverflow(Int64(size)).overflow else {
                    // A negative size is the file's 2^29 or more, wrapped by FFmpeg's 30-bit field:
                    // the number printed was not the file's (a QA pass).
                    let described =
                        size < 0 ? "a size of 2^29 bytes or more (more than FFmpeg's index holds)" : "size \(size)"
                    throw MediaError(
                        .invalidMedia, path: file.path,
                        "the sample index is corrupt: sample \(number + 1) of stream \(index) has \(described) at "
                            + "offset \(position)")
                }
                entries.append(
                    IndexEntry(
                        timestamp: entry.pointee.timestamp, position: position, size: Int(size),
                        isKeyframe: entry.pointee.flags & AVINDEX_KEYFRAME != 0,
                        isDiscarded: entry.pointee.flags & cff_index_discard_frame() != 0))
            }
            return entries
        }
    }

    static func dictionary(_ dictionary: OpaquePointer?) -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            result[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
            entry = next
        }
        return result
    }
}
