import CFFmpeg
import Foundation

/// A video or audio decoder for one stream: owns an `AVCodecContext`, freed with
/// `avcodec_free_context`.
public final class Decoder {
    /// What one `receive` call produced.
    public enum Output {
        /// A frame was written into the caller's frame.
        case frame
        /// The decoder needs another packet first (EAGAIN: a state, not an error).
        case needsInput
        /// The decoder is fully drained (EOF: a state, not an error).
        case endOfStream
    }

    /// Which frames the decoder may skip.
    public enum Skipping {
        /// Decode every frame.
        case none
        /// Skip frames no other frame refers to (`skip_frame = AVDISCARD_NONREF`).
        case nonReferenceFrames
        /// Decode keyframes only (`skip_frame = AVDISCARD_NONKEY`).
        case nonKeyframes

        var discard: AVDiscard {
            switch self {
            case .none: return AVDISCARD_DEFAULT
            case .nonReferenceFrames: return AVDISCARD_NONREF
            case .nonKeyframes: return AVDISCARD_NONKEY
            }
        }
    }

    let context: UnsafeMutablePointer<AVCodecContext>
    private let path: String
    /// The container's colour tags (an MP4's `colr` box), given to a frame whose bitstream has
    /// none: see ``receive(into:)``.
    private let containerTransfer: AVColorTransferCharacteristic
    private let containerPrimaries: AVColorPrimaries
    private let containerSpace: AVColorSpace
    private let containerRange: AVColorRange
    /// The container's HDR light levels (an MP4's `clli` and `mdcv` boxes, the only place VP9
    /// and AV1 clips carry them), each as the frame side data it becomes, given to a frame whose
    /// bitstream has none: see ``receive(into:)``.
    private let containerLightLevels: [(type: AVFrameSideDataType, bytes: [UInt8])]
    /// False for a codec whose pictures are BT.601 by definition when untagged (JPEG's JFIF, so
    /// an MJPEG clip or a JPEG still), or hold RGB.
    private let guessesHDMatrix: Bool
    /// True when the last frame received was untagged and given the BT.709 matrix by
    /// ``isHighDefinition(width:height:)``'s rule: what it is drawn with, not what the clip says.
    private(set) var lastMatrixIsAGuess = false
    /// True for an MJPEG stream (a JPEG still too): each packet's scans are counted before it is
    /// decoded.
    private let isJPEG: Bool

    /// Opens a decoder for `stream` with frame threads on (`thread_count` 0 = automatic).
    ///
    /// A picture size in the stream's parameters over the ``PixelBudget`` is refused with
    /// `.invalidMedia` before the decoder opens, and the decoder's `max_pixels` is set to the
    /// budget, so a bitstream that claims a larger picture than its container fails to decode
    /// instead of allocating it.
    ///
    /// `strict` makes any damage the decoder notices an error instead of a concealed picture:
    /// for a still, whose one picture is all there is (a JPEG cut short would otherwise decode
    /// to its top rows over a flat fill).
    ///
    /// The pictures the decoder and its caller hold at once are bounded by `pictureLimit` bytes
    /// (``PictureLedger``): a picture past it fails to decode, with `.invalidMedia`.
    public init(
        stream: MediaStream, threads: Int = 0, skipping: Skipping = .none, strict: Bool = false,
        pictureLimit: Int = PictureLedger.standardLimit
    ) throws {
        path = stream.file.path
        let parameters = stream.parameters
        containerTransfer = parameters.pointee.color_trc
        containerPrimaries = parameters.pointee.color_primaries
        containerSpace = parameters.pointee.color_space
        containerRange = parameters.pointee.color_range
        containerLightLevels = [
            (AV_PKT_DATA_CONTENT_LIGHT_LEVEL, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL),
            (AV_PKT_DATA_MASTERING_DISPLAY_METADATA, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA),
        ].compactMap { packetType, frameType in stream.sideData(packetType).map { (frameType, $0) } }
        guessesHDMatrix = ![AV_CODEC_ID_MJPEG, AV_CODEC_ID_PNG, AV_CODEC_ID_WEBP].contains(parameters.pointee.codec_id)
        isJPEG = parameters.pointee.codec_id == AV_CODEC_ID_MJPEG
        let (width, height) = stream.codedSize
        if width != 0 || height != 0 {
            try PixelBudget.check(width: width, height: height, path: path)
        }
        if parameters.pointee.codec_id == AV_CODEC_ID_JPEG2000 {
            // One call decodes a frame, and no deadline reaches it: an audit's 8192x8192 frame
            // of 50 KB took 3.8 s and 1.2 GB, a frame thread each. No phone records it.
            throw MediaError(
                .unsupported, path: path,
                "JPEG 2000 video is not decoded (its decoder takes seconds and gigabytes a large frame)")
        }
        declaredPictures = Decoder.declaredPictures(of: stream)
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MediaError(
                .unsupported, path: path, "no decoder for codec \(stream.codecName) in this FFmpeg build",
                ffmpegCode: cff_error_decoder_not_found())
        }
        guard let allocated = avcodec_alloc_context3(codec) else {
            throw MediaError(.ioFailure, path: path, "out of memory (decoder)")
        }
        context = allocated
        try ffmpegCheck(avcodec_parameters_to_context(context, parameters), "bad codec parameters", path: path)
        context.pointee.pkt_timebase = stream.timeBaseRational
        context.pointee.thread_count = Int32(
            clamping: Decoder.threadCount(
                asked: threads, width: width, height: height, format: parameters.pointee.format))
        context.pointee.skip_frame = skipping.discard
        context.pointee.max_pixels = Int64(PixelBudget.maximumPixels)
        // A crop the stream's header gives (H.264/HEVC `crop_left`, a lossless crop) is applied
        // exactly, as browsers and AVPlayer apply it: by default libavcodec rounds a left offset
        // down to keep the planes aligned, and posters, stills and cube faces showed columns the
        // clip crops away, at another size than `inspect` reports (a QA pass: 1116x1080 for a
        // 1080x1080 clip). The scaler takes unaligned planes, as from ffmpeg's crop filter.
        context.pointee.flags |= AV_CODEC_FLAG_UNALIGNED
        if strict { context.pointee.err_recognition |= AV_EF_EXPLODE }
        guard let ledger = PictureLedger(installingOn: context, limit: pictureLimit) else {
            throw MediaError(.ioFailure, path: path, "out of memory (decoder)")
        }
        self.ledger = ledger
        try ffmpegCheckAgainstLimits(
            avcodec_open2(context, codec, nil), "cannot open the \(stream.codecName) decoder", path: path)
    }

    /// The most bytes of pictures (one each) that frame threads may decode at once: each thread
    /// keeps pictures of its own, so an audit's 8192x8192 frames of 16-bit RGBA (512 MB each,
    /// from a 0.8 MB PNG-in-MOV clip) took 2.1 GB on two cores, and 8192x8192 H.264 2.8 GB
    /// (0.2 GB on one thread; the ffmpeg CLI 3.4 GB), and more would on a server's cores. A
    /// picture of 1080x1920 still gets every thread, one of 3840x2160 in 10 bits five.
    static let inFlightPictureBytes = 128 << 20

    /// `asked` threads (0: automatic, up to 16), fewer when that many pictures of `width` ×
    /// `height` in `format` (when unknown, 8 bytes a pixel) would pass ``inFlightPictureBytes``;
    /// at least 1.
    static func threadCount(asked: Int, width: Int, height: Int, format: Int32) -> Int {
        let known =
            format >= 0
            ? av_image_get_buffer_size(
                AVPixelFormat(rawValue: format), Int32(clamping: width),
                Int32(clamping: height), 1) : -1
        let pictureBytes = known > 0 ? Int(known) : width.multipliedReportingOverflow(by: height).partialValue &* 8
        guard pictureBytes > 0 else { return max(0, asked) }
        let allowed = max(1, inFlightPictureBytes / pictureBytes)
        // FFmpeg's automatic count is the cores plus one, at most 16.
        let wanted = asked > 0 ? asked : min(16, ProcessInfo.processInfo.activeProcessorCount + 1)
        return wanted > allowed ? allowed : max(0, asked)
    }

    /// The most bytes of reference pictures a stream may have its decoder keep: the largest
    /// picture of H.264's and HEVC's highest level in 4:4:4 10-bit (8192x4352), as many as
    /// that level keeps of it (5), fit. An audit's 6.5 MB clip of 8192x8192 frames declaring 16
    /// references took 8.4 GB.
    static let referencePictureBytes = 1 << 30

    /// The pictures `stream` has its decoder keep, where its decoder does not
    /// say (H.264's does): HEVC's, from its sequence parameter sets (``HEVCPictureBuffer``); AV1's
    /// eight reference slots, which any AV1 stream may fill, and whose pictures dav1d allocates
    /// itself, outside the ``PictureLedger`` (a 12-frame clip of 8192x4352 in 4:4:4 12-bit took
    /// 2.04 GB for a thumbnail). Nil for other codecs.
    private static func declaredPictures(of stream: MediaStream) -> Int? {
        switch stream.parameters.pointee.codec_id {
        case AV_CODEC_ID_HEVC:
            return HEVCPictureBuffer.pictures(inExtradata: stream.extradata)
        case AV_CODEC_ID_AV1:
            return av1ReferenceSlots
        default:
            return nil
        }
    }

    /// AV1's reference frame slots (`NUM_REF_FRAMES`).
    static let av1ReferenceSlots = 8

    /// How many pictures the stream has its decoder keep where the decoder does not say
    /// (``declaredPictures(of:)``).
    private let declaredPictures: Int?

    /// Throws `.invalidMedia` when the decoder would keep more reference pictures like `frame`
    /// than ``referencePictureBytes`` hold (H.264 and HEVC say how many in their sequence
    /// headers; AV1 has eight slots).
    private func checkReferencePictures(like frame: Frame) throws {
        let references = declaredPictures ?? Int(max(0, context.pointee.refs))
        let bytes = frame.bufferBytes
        guard references > 0, bytes > 0 else { return }
        let (held, overflow) = references.multipliedReportingOverflow(by: bytes)
        guard overflow || held > Decoder.referencePictureBytes else { return }
        let (keeps, largest) =
            context.pointee.codec_id == AV_CODEC_ID_AV1
            ? ("may keep", "8 of the largest level's 8192x4352 in 4:2:0 10-bit fit")
            : ("keeps", "the largest level keeps 5 of 8192x4352")
        throw MediaError(
            .invalidMedia, path: path,
            "its stream \(keeps) \(references) reference pictures of \(frame.width)x\(frame.height) "
                + "(\(bytes >> 20) MB each), more than the \(Decoder.referencePictureBytes >> 20) MB storyreel decodes "
                + "(\(largest))")
    }

    /// Counts the pictures the decoder allocates; set before it opens.
    private var ledger: PictureLedger?

    /// The bytes of the pictures this decoder allocated that are held now, by it or by frames it
    /// gave out.
    var pictureBytesHeld: Int { ledger?.heldBytes ?? 0 }

    /// Throws `.invalidMedia` once the ``PictureLedger`` has refused a picture: checked after
    /// every decode call, before its result, as the decoder may conceal the failed picture or
    /// report it as out of memory.
    private func checkLedger() throws {
        guard let ledger, let refusal = ledger.refusal, refusal.picture_bytes > 0 else { return }
        let pictures = refusal.held_bytes / refusal.picture_bytes + 1
        throw MediaError(
            .invalidMedia, path: path,
            "decoding it would hold more than the \(ledger.limit >> 20) MB of pictures storyreel "
                + "allows at once (\(pictures) of \(refusal.width)x\(refusal.height), "
                + "\(refusal.picture_bytes >> 20) MB each)")
    }

    /// False until the first frame's reference pictures are checked.
    private var checkedReferencePictures = false

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&pointer)
    }

    /// Sends a packet, or nil to start draining. Returns false when the decoder must first
    /// give up frames (EAGAIN).
    public func send(_ packet: Packet?) throws -> Bool {
        // One decode call is not interrupted: a JPEG frame of too many scans is refused first,
        // as a JPEG still is (``StillImageHeader/jpegScanProblem(in:throughEnd:)``).
        if isJPEG, let packet, let data = packet.pointer.pointee.data,
            let problem = StillImageHeader.jpegScanProblem(
                in: UnsafeRawBufferPointer(start: data, count: Int(max(0, packet.pointer.pointee.size))),
                throughEnd: true)
        {
            throw MediaError(.invalidMedia, path: path, problem)
        }
        let result = avcodec_send_packet(context, packet?.pointer)
        try checkLedger()
        if result == cff_error_eagain() || result == cff_error_eof() { return false }
        try check(result)
        return true
    }

    /// Receives the next decoded frame into `frame`. A colour tag the bitstream leaves
    /// unspecified takes the container's: FFmpeg's HEVC decoder sets a frame's tags from the
    /// VUI alone, so a clip tagged HLG only in its `colr` box (tags set in a stream copy) decoded
    /// as untagged BT.601 and was not tone-mapped, while `inspect`, like MediaInfo, called it
    /// HLG (a QA pass). The H.264 decoder already keeps the container's tags. Likewise the
    /// container's HDR light levels (MaxCLL, the mastering display's peak), which tone mapping
    /// scales by: a PQ clip's `clli` box was ignored, and every VP9 or AV1 one was mapped as if
    /// its peak were 1000 cd/m² (a QA pass).
    public func receive(into frame: Frame) throws -> Output {
        let result = avcodec_receive_frame(context, frame.pointer)
        try checkLedger()
        if result == cff_error_eagain() { return .needsInput }
        if result == cff_error_eof() { return .endOfStream }
        try check(result)
        if !checkedReferencePictures {
            checkedReferencePictures = true
            try checkReferencePictures(like: frame)
        }
        let tags = frame.pointer
        if tags.pointee.color_trc == AVCOL_TRC_UNSPECIFIED { tags.pointee.color_trc = containerTransfer }
        if tags.pointee.color_primaries == AVCOL_PRI_UNSPECIFIED { tags.pointee.color_primaries = containerPrimaries }
        if tags.pointee.colorspace == AVCOL_SPC_UNSPECIFIED { tags.pointee.colorspace = containerSpace }
        if tags.pointee.color_range == AVCOL_RANGE_UNSPECIFIED { tags.pointee.color_range = containerRange }
        if isJPEG, tags.pointee.color_range == AVCOL_RANGE_UNSPECIFIED {
            // JFIF is full range. FFmpeg tags its 8-bit pictures so, but not a 12-bit grey one
            // (`gray16le`), which was read as limited range: a grey of 52 came out 42 (a QA pass).
            tags.pointee.color_range = AVCOL_RANGE_JPEG
        }
        lastMatrixIsAGuess =
            tags.pointee.colorspace == AVCOL_SPC_UNSPECIFIED && guessesHDMatrix
            && Decoder.isHighDefinition(width: Int(tags.pointee.width), height: Int(tags.pointee.height))
        if lastMatrixIsAGuess { tags.pointee.colorspace = AVCOL_SPC_BT709 }
        for level in containerLightLevels where av_frame_get_side_data(frame.pointer, level.type) == nil {
            guard let side = av_frame_new_side_data(frame.pointer, level.type, level.bytes.count)?.pointee.data else {
                continue
            }
            level.bytes.withUnsafeBytes {
                side.update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: $0.count)
            }
        }
        return .frame
    }

    /// True for a picture players call high definition: at least 1280 wide or over 576 high
    /// (mpv's rule). An untagged one is read with the BT.709 matrix, as players read it: Chromium
    /// (a QA pass measured its pixels equal to the ffmpeg CLI's with `in_color_matrix=bt709`) and
    /// Apple's players for high definition. Read with BT.601, the ffmpeg CLI's default, an
    /// untagged clip's stills and transition faces changed colour when its video took over in
    /// the player (a green of 13,223,4 against the video's 0,191,6). A vertical story of 540x960
    /// or more is high definition by this rule.
    static func isHighDefinition(width: Int, height: Int) -> Bool { width >= 1280 || height > 576 }

    /// Throws FFmpeg's reason for a failed decode. A bitstream declaring a picture over the
    /// ``PixelBudget`` fails here ("Invalid argument", from `max_pixels`): the decoder resets
    /// its size before returning, so the declared size cannot be named.
    ///
    /// A decoder's bare `return -1` is AVERROR(EPERM), "Operation not permitted", which reads as
    /// a permissions problem (a QA pass of stills: an arithmetic-coded JPEG, which FFmpeg's MJPEG
    /// decoder does not implement); it is said as what it is.
    private func check(_ result: Int32) throws {
        if result == -EPERM {
            let codec = String(cString: avcodec_get_name(context.pointee.codec_id))
            throw MediaError(
                .invalidMedia, path: path,
                "cannot decode: the \(codec) decoder refused the data (a coding it does not implement, or damage)",
                ffmpegCode: result)
        }
        try ffmpegCheck(result, "cannot decode", path: path)
    }

    /// Changes which frames are skipped from the next packet on (frame threads pick the setting
    /// up per packet).
    public func skip(_ skipping: Skipping) { context.pointee.skip_frame = skipping.discard }

    /// Forgets buffered frames, as needed after a seek.
    public func flush() { avcodec_flush_buffers(context) }
}
