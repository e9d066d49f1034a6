import CFFmpeg
import CFFmpegOnDemand

/// A constant-frame-rate video encoder: owns an `AVCodecContext`, freed with
/// `avcodec_free_context`.
///
/// H.264 goes through libx264 (High profile), HEVC through libx265; both take 8-bit yuv420p tagged
/// BT.709 (primaries, transfer, matrix) and limited range. The time base is 1/fps and a frame's
/// timestamp is its index, so the output is CFR by construction.
public final class VideoEncoder {
    /// The codecs storyreel writes.
    public enum Codec: String, Sendable, CaseIterable {
        /// H.264 High profile through libx264, tagged `avc1`.
        case h264
        /// HEVC Main profile through libx265, tagged `hvc1` (what AVPlayer requires).
        case hevc

        /// FFmpeg's encoder name.
        var encoderName: String { self == .h264 ? "libx264" : "libx265" }

        /// How many steps x265's rate factor runs below x264's for the same PSNR. Measured on the
        /// demo's cube transitions (veryfast, no B-frames): x265 matched x264 CRF 17-26 at CRF
        /// +3.9 to +4.7, and at +4 it is 11-47% smaller within -0.07..+0.53 dB.
        public static let hevcRateFactorOffset = 4

        /// The encoder's own rate factor for storyreel's `crf`, which is on x264's scale: the same
        /// for H.264, ``hevcRateFactorOffset`` more for HEVC (at most 51), so that one `--crf`
        /// gives about one quality in either codec and HEVC the smaller file.
        public func rateFactor(forCRF crf: Int) -> Double {
            self == .h264 ? Double(crf) : Double(min(51, crf + Self.hevcRateFactorOffset))
        }
    }

    /// How the encoder trades latency and memory against compression, on top of the preset.
    public enum Tuning: Sendable, Equatable {
        /// The preset as it is.
        case standard
        /// For clips of a few dozen frames, such as cube transitions: no B-frames, a 5-frame
        /// rate-control lookahead and, for H.264, slice threads instead of frame threads. Each
        /// frame is encoded as it arrives (the work overlaps rendering, no long drain at the end)
        /// and far fewer frames are held in memory. Measured on 15 cube frames at 1080x1920:
        /// the same size within 0.5%, about 20% less CPU and 45% less memory than `veryfast`.
        case shortClip
    }

    /// What one ``receive(into:)`` call produced.
    public enum Output {
        /// A packet was written into the caller's packet.
        case packet
        /// The encoder needs another frame first (EAGAIN: a state, not an error).
        case needsInput
        /// The encoder is fully drained (EOF: a state, not an error).
        case endOfStream
    }

    /// The encoder's settings.
    public struct Settings: Sendable, Equatable {
        /// The codec.
        public var codec: Codec
        /// Width in pixels (even).
        public var width: Int
        /// Height in pixels (even).
        public var height: Int
        /// Frames per second.
        public var fps: Double
        /// Constant rate factor on x264's scale: lower is better and bigger, 0...51. HEVC encodes
        /// at ``Codec/rateFactor(forCRF:)``, 4 more, for about the same PSNR.
        public var crf: Int
        /// The x264/x265 preset, e.g. `veryfast`.
        public var preset: String
        /// Encoder threads (0 = as many as the encoder likes).
        public var threads: Int
        /// Latency and memory against compression, on top of the preset.
        public var tuning: Tuning
        /// The most the clip's average bit rate may be, in bits per second, or nil for plain CRF.
        /// It holds for the whole file: its size × 8 over the clip's duration (frames ÷ fps), so
        /// the video packets' bytes too; ``VideoClipWriter`` encodes the pictures again at a
        /// higher CRF while the clip is over it.
        public var maxBitrate: Int?

        /// Settings with storyreel's defaults: CRF 23, preset `veryfast`, automatic threads, the
        /// preset untuned, no cap.
        public init(
            codec: Codec = .h264, width: Int, height: Int, fps: Double, crf: Int = 23, preset: String = "veryfast",
            threads: Int = 0, tuning: Tuning = .standard, maxBitrate: Int? = nil
        ) {
            self.codec = codec
            self.width = width
            self.height = height
            self.fps = fps
            self.crf = crf
            self.preset = preset
            self.threads = threads
            self.tuning = tuning
            self.maxBitrate = maxBitrate
        }
    }

    /// The settings the encoder was opened with.
    public let settings: Settings
    let context: UnsafeMutablePointer<AVCodecContext>

    /// The constant rate factor the encoder was opened with, on its own scale: the codec's
    /// ``Codec/rateFactor(forCRF:)`` of ``Settings/crf``, unless a capped clip's search asked for
    /// another, fractional one.
    public let rateFactor: Double

    /// Opens the encoder. `globalHeader` asks for out-of-band parameter sets, as MP4 needs
    /// (``OutputFile/needsGlobalHeader``). Throws `.unsupported` for settings the encoder cannot
    /// take (an odd or empty size, one over the ``PixelBudget``, a frame rate that is not a
    /// positive number, a CRF outside 0...51, threads outside 0...1024, a cap that is not a
    /// positive bit rate) and when the encoder fails to open, e.g. when libx264 cannot allocate its
    /// buffers. The errors name no file: ``VideoClipWriter`` adds it.
    public convenience init(settings: Settings, globalHeader: Bool) throws {
        try self.init(
            settings: settings, globalHeader: globalHeader, rateFactor: settings.codec.rateFactor(forCRF: settings.crf))
    }

    /// Opens the encoder at `rateFactor` (its own scale, 0...51, fractions allowed) instead of the
    /// settings' CRF:
    /// what ``VideoClipWriter`` does for the passes that bring a clip under its cap.
    init(settings: Settings, globalHeader: Bool, rateFactor: Double) throws {
        try VideoEncoder.validate(settings)
        guard rateFactor.isFinite, (0...51).contains(rateFactor) else {
            throw MediaError(.unsupported, "crf \(rateFactor) must be from 0 to 51")
        }
        self.settings = settings
        self.rateFactor = rateFactor
        let (codec, allocated) = try EncoderLookup.open(settings.codec.encoderName, purpose: "encoder")
        context = allocated
        let frameRate = av_d2q(settings.fps, 1_000_000)
        context.pointee.width = Int32(clamping: settings.width)
        context.pointee.height = Int32(clamping: settings.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.framerate = frameRate
        context.pointee.time_base = AVRational(num: frameRate.den, den: frameRate.num)
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        context.pointee.colorspace = AVCOL_SPC_BT709
        context.pointee.color_range = AVCOL_RANGE_MPEG
        context.pointee.thread_count = Int32(clamping: settings.threads)
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }

        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "preset", settings.preset, 0)
        // Both wrappers take the rate factor as a float; the rounding keeps an Int CRF exact.
        av_dict_set(&options, "crf", VideoEncoder.format(rateFactor: rateFactor), 0)
        let shortClip = settings.tuning == .shortClip
        if shortClip { context.pointee.max_b_frames = 0 }
        switch settings.codec {
        case .h264:
            av_dict_set(&options, "profile", "high", 0)
            // libx264's AVX-512 code left out: with it, identical pictures made different files
            // from run to run (a QA pass of cube: 16x16, 2 to 7 files in 16 runs; AVX2's code
            // gives one, as fast).
            let cpu = VideoEncoder.x264CPUFlags
            let parameters =
                (shortClip ? ["sliced-threads=1", "rc-lookahead=5"] : []) + (cpu == 0 ? [] : ["asm=\(cpu)"])
            if !parameters.isEmpty { av_dict_set(&options, "x264-params", parameters.joined(separator: ":"), 0) }
        case .hevc:
            // x265 logs to stderr by itself; storyreel reports errors its own way. `info=0` leaves out
            // the SEI of x265's settings, 2.4 KB of the parameter sets: 38 kb/s of a 0.5 s clip.
            // x265 3.5's cuTree writes past the end of its row of the lookahead's 8×8 blocks when
            // the row has fewer than 4, a picture at most 48 pixels wide: heap corruption, which
            // aborted 1–2% of `cube --size 36x64 --codec hevc` runs (a cube QA pass; valgrind
            // shows the write in every run at widths 16–48, none from 50 up). Without cuTree, which
            // only shifts quality between such a picture's few blocks, nothing writes there.
            let cuTree = settings.width > VideoEncoder.widestWithoutCuTree ? "" : ":cutree=0"
            av_dict_set(
                &options, "x265-params",
                "log-level=error:info=0" + (shortClip ? ":rc-lookahead=5" : "") + cuTree, 0)
        }
        try AddressSpace.checkHeadroom(
            Double(settings.width) * Double(settings.height)
                * Double(AddressSpace.encoderBytesPerPixel(hevc: settings.codec == .hevc)),
            making: "open the \(settings.codec.encoderName) encoder for a \(settings.width)x\(settings.height) video")
        try ffmpegCheckAgainstLimits(
            avcodec_open2(context, codec, &options), "cannot open the \(settings.codec.encoderName) encoder",
            kind: .unsupported)
        if let unused = av_dict_get(options, "", nil, AV_DICT_IGNORE_SUFFIX) {
            throw MediaError(
                .unsupported,
                "the \(settings.codec.encoderName) encoder does not accept '\(String(cString: unused.pointee.key))'")
        }
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&pointer)
    }

    /// The widest picture x265 encodes without cuTree (see `init`): its cuTree corrupts the heap
    /// up to this width.
    static let widestWithoutCuTree = 48

    /// The CPU flags libx264 is given (`asm`): those it detects less AVX-512, or 0 to let it
    /// detect them (no AVX-512 here, or libx264 not found). Read once, after the libraries load.
    static let x264CPUFlags = cff_x264_cpu_flags_without_avx512()

    /// Throws `.unsupported` saying what is wrong with `settings`, before any FFmpeg call.
    static func validate(_ settings: Settings) throws {
        let (width, height) = (settings.width, settings.height)
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
            throw MediaError(.unsupported, "cannot encode a \(width)x\(height) video: yuv420p needs even sides")
        }
        guard PixelBudget.allows(width: width, height: height) else {
            throw MediaError(.unsupported, "cannot encode a \(width)x\(height) video: \(PixelBudget.overLimit)")
        }
        guard settings.fps.isFinite, settings.fps > 0 else {
            throw MediaError(.unsupported, "cannot encode at \(settings.fps) frames per second")
        }
        guard (0...51).contains(settings.crf) else {
            throw MediaError(.unsupported, "crf \(settings.crf) must be from 0 to 51")
        }
        guard (0...1024).contains(settings.threads) else {
            throw MediaError(.unsupported, "\(settings.threads) encoder threads: give 0 (automatic) to 1024")
        }
        if let cap = settings.maxBitrate, cap <= 0 {
            throw MediaError(.unsupported, "a maximum bit rate of \(cap) bits per second: give a positive one")
        }
    }

    /// `23` for 23, `27.25` for 27.25: the rate factor as the encoder options take it (hundredths).
    static func format(rateFactor: Double) -> String {
        let hundredths = Int((rateFactor * 100).rounded())
        return hundredths % 100 == 0 ? String(hundredths / 100) : String(format: "%.2f", Double(hundredths) / 100)
    }

    /// Bytes of the out-of-band parameter sets (SPS, PPS, VPS) the container stores.
    var extradataSize: Int { Int(context.pointee.extradata_size) }

    /// The encoder's time base: one tick per frame.
    var timeBase: AVRational { context.pointee.time_base }

    /// Sends a frame, or nil to start draining. Returns false when the encoder must first give
    /// up packets (EAGAIN).
    public func send(_ frame: Frame?) throws -> Bool {
        let result = avcodec_send_frame(context, frame?.pointer)
        if result == cff_error_eagain() { return false }
        try ffmpegCheckAgainstLimits(result, "cannot encode", kind: .ioFailure)
        return true
    }

    /// Receives the next encoded packet into `packet`.
    public func receive(into packet: Packet) throws -> Output {
        let result = avcodec_receive_packet(context, packet.pointer)
        if result == cff_error_eagain() { return .needsInput }
        if result == cff_error_eof() { return .endOfStream }
        try ffmpegCheckAgainstLimits(result, "cannot encode", kind: .ioFailure)
        return .packet
    }
}
