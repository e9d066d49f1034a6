import CFFmpeg

/// Writes RGBA pictures as a constant-frame-rate H.264 or HEVC clip: the encode loop, written once.
///
/// Each ``append(rgba:)`` converts the picture to yuv420p (BT.709, limited range) with a
/// ``Scaler`` and hands it, with the frame index as its timestamp, to an ``EncoderThread``,
/// which sends it to the ``VideoEncoder``, receives packets until EAGAIN and hands them to the
/// ``OutputFile`` (which rescales their timestamps to the stream time base), while the caller
/// goes on to the next picture. ``finish()`` sends a NULL frame, drains until EOF, writes the
/// trailer and renames the file into place. A writer dropped before ``finish()`` leaves no
/// file behind.
///
/// Every error names the clip's path: an encoder that cannot open (libx264 out of memory) is
/// `.unsupported`; an encode or write that fails part-way (a full disk) is `.ioFailure`, and
/// the writer then refuses further pictures and leaves nothing behind.
public final class VideoClipWriter {
    /// The encoder settings.
    public let settings: VideoEncoder.Settings
    /// Frames appended so far.
    public private(set) var frameCount = 0

    private let output: OutputFile
    private let encoderThread: EncoderThread
    private let scaler: Scaler
    private let source: Frame
    private let pictures: [Frame]

    /// Starts a clip at `path`, written to a temporary file (next to it, or in `stagingFolder`
    /// when given) until ``finish()``.
    public init(path: String, settings: VideoEncoder.Settings, stagingFolder: String? = nil) throws {
        self.settings = settings
        (output, encoderThread, scaler, source, pictures) = try MediaError.naming(path) {
            try VideoEncoder.validate(settings)
            let output = try OutputFile(path: path, stagingFolder: stagingFolder)
            let encoder = try VideoEncoder(settings: settings, globalHeader: output.needsGlobalHeader)
            try output.addVideoStream(for: encoder)
            try output.writeHeader()
            let scaler = try Scaler(
                sourceWidth: settings.width, sourceHeight: settings.height, sourceFormat: AV_PIX_FMT_RGBA,
                width: settings.width, height: settings.height, destinationFormat: AV_PIX_FMT_YUV420P,
                destinationColorSpace: AVCOL_SPC_BT709, destinationFullRange: false,
                flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP)
            let thread = try EncoderThread(encoder: encoder, output: output)
            return (output, thread, scaler, try Frame(), [try Frame(), try Frame()])
        }
    }

    // A writer dropped before `finish()` waits for the encoder thread, so that its temporary
    // file is gone once the writer is.
    deinit { encoderThread.waitUntilIdle() }

    /// The path of the finished clip.
    public var path: String { output.path }

    /// Encodes one picture: `rgba` holds width × height packed RGBA pixels (alpha is ignored).
    /// It is converted before this returns; the encoding itself goes on in the background.
    public func append(rgba: UnsafeBufferPointer<UInt8>) throws {
        try MediaError.naming(path) { try encode(rgba: rgba) }
    }

    private func encode(rgba: UnsafeBufferPointer<UInt8>) throws {
        let slot = frameCount % 2
        try encoderThread.acquire(slot: slot)
        let picture = pictures[slot]
        try source.borrow(rgba: rgba, width: settings.width, height: settings.height)
        defer { source.unref() }
        if picture.pointer.pointee.data.0 != nil {
            // The encoder may still hold a reference to the picture.
            try ffmpegCheck(av_frame_make_writable(picture.pointer), "cannot reuse a frame", kind: .ioFailure)
        }
        try scaler.scale(source, into: picture)
        picture.pointer.pointee.pts = Int64(frameCount)
        picture.pointer.pointee.color_primaries = AVCOL_PRI_BT709
        picture.pointer.pointee.color_trc = AVCOL_TRC_BT709
        picture.pointer.pointee.colorspace = AVCOL_SPC_BT709
        picture.pointer.pointee.color_range = AVCOL_RANGE_MPEG
        frameCount += 1
        encoderThread.submit(picture, slot: slot)
    }

    /// Drains the encoder, writes the trailer and moves the clip into place.
    public func finish() throws {
        try MediaError.naming(path) { try encoderThread.finish() }
    }
}
