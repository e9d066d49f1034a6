import CFFmpeg

/// Writes pictures as a constant-frame-rate H.264 or HEVC clip: the encode loop, written once.
///
/// Each ``append(rgba:)`` converts an RGBA picture to yuv420p (BT.709, limited range) with a
/// ``Scaler``; each ``append(drawing:)`` lets the caller draw the yuv420p picture in place. The
/// writer hands the picture, with the frame index as its timestamp, to an ``EncoderThread``,
/// which sends it to the ``VideoEncoder``, receives packets until EAGAIN and hands them to the
/// ``OutputFile`` (which rescales their timestamps to the stream time base), while the caller
/// goes on to the next picture. ``finish(replay:)`` sends a NULL frame, drains until EOF, writes
/// the trailer and renames the file into place. A writer dropped before it finishes leaves no
/// file behind.
///
/// **A capped clip** (``VideoEncoder/Settings/maxBitrate``) keeps its packets in memory until its
/// size is known. When the requested CRF fits the cap, those packets are the clip, byte for byte
/// what the uncapped writer makes. When it does not, ``finish(replay:)`` (or, for drawn
/// pictures, ``finishDrawn(redraw:)``) asks the caller for the same pictures again and encodes
/// them at the rate factors a ``RateFactorSearch`` picks (usually one or two more passes), then
/// writes the pass that fits with the least of the budget unused.
/// When the caller says how many pictures are coming and their yuv420p copies fit in
/// ``retainedByteLimit``, the writer keeps the converted pictures of the first pass and encodes
/// them again itself, so a further pass neither renders nor converts anything.
///
/// Every error names the clip's path: an encoder that cannot open (libx264 out of memory) is
/// `.unsupported`; an encode or write that fails part-way (a full disk) is `.ioFailure`, and
/// the writer then refuses further pictures and leaves nothing behind.
public final class VideoClipWriter {
    /// How a finished clip was encoded.
    public struct Outcome: Sendable, Equatable {
        /// The constant rate factor of the pass written, on the encoder's own scale (for HEVC, 4
        /// above the requested CRF): the requested one, or a higher, possibly fractional one when
        /// the cap made the writer search.
        public var rateFactor: Double
        /// Encoding passes run: 1 unless the first one was over the cap.
        public var passes: Int
        /// The bytes of the clip's video packets (the container adds its parameter sets and index,
        /// about 1 KB for 15 frames).
        public var bytes: Int
        /// The video's average bit rate: ``bytes`` × 8 over frames ÷ fps. Under a cap, the whole
        /// file's size × 8 over that duration stays at or under the cap.
        public var bitRate: Int
        /// False only when even rate factor 51 was over the cap: the clip is then the smallest
        /// the encoder makes, and still over it.
        public var fitsCap: Bool
    }

    /// The encoder settings.
    public let settings: VideoEncoder.Settings
    /// Frames appended so far.
    public private(set) var frameCount = 0

    private let output: OutputFile
    private var encoderThread: EncoderThread
    /// The current pass's encoder and, for a capped clip, the packets it has given.
    private var pass: (encoder: VideoEncoder, packets: PacketBuffer?)
    private let scaler: Scaler
    private let source: Frame
    private let pictures: [Frame]
    /// The converted pictures of the first pass, kept for further passes of a capped clip, or
    /// nil when they are not kept (uncapped, no frame count given, or too big).
    private var retained: [Frame]?

    /// The most bytes of yuv420p pictures a capped writer keeps for its further passes: a 15-frame
    /// clip up to 720x1280 (21 MB); at 1080x1920 (47 MB) the caller's pictures are given again.
    public static let retainedByteLimit = 24 << 20

    /// Starts a clip at `path`, written to a temporary file (next to it, or in `stagingFolder`
    /// when given) until ``finish(replay:)``. `expectedFrameCount`, when given, is how many
    /// pictures will be appended: a capped clip whose pictures fit ``retainedByteLimit`` then
    /// keeps them for its further passes. `exclusively`: the finished clip takes its name only
    /// when nothing has it (else ``StagedFile/NameTaken``). `comment`: what the container's
    /// comment tag says before the SHA-256 of the clip's samples
    /// (``OutputFile/commentNamingSamples``).
    public init(
        path: String, settings: VideoEncoder.Settings, stagingFolder: String? = nil, expectedFrameCount: Int? = nil,
        exclusively: Bool = false, comment: String? = nil
    ) throws {
        self.settings = settings
        if settings.maxBitrate != nil, let expectedFrameCount,
            expectedFrameCount.multipliedReportingOverflow(by: settings.width * settings.height * 3 / 2)
                .partialValue <= Self.retainedByteLimit, expectedFrameCount > 0
        {
            retained = []
        }
        (output, encoderThread, pass, scaler, source, pictures) = try MediaError.naming(path) {
            try VideoEncoder.validate(settings)
            let output = try OutputFile(path: path, stagingFolder: stagingFolder, exclusively: exclusively)
            output.commentNamingSamples = comment
            let encoder = try VideoEncoder(settings: settings, globalHeader: output.needsGlobalHeader)
            let packets: PacketBuffer?
            if settings.maxBitrate == nil {
                try output.addVideoStream(for: encoder)
                try output.writeHeader()
                packets = nil
            } else {
                // The header waits for the pass that will be written (its parameter sets).
                packets = PacketBuffer()
            }
            let scaler = try Self.makeScaler(width: settings.width, height: settings.height)
            let thread = try EncoderThread(encoder: encoder, output: packets ?? output)
            return (output, thread, (encoder, packets), scaler, try Frame(), [try Frame(), try Frame()])
        }
    }

    // A writer dropped before `finish()` waits for the encoder thread, so that its temporary
    // file is gone once the writer is.
    deinit { encoderThread.waitUntilIdle() }

    /// The path of the finished clip.
    public var path: String { output.path }

    /// When true, finishing leaves the clip under its temporary name until ``takeName()``, so a
    /// command writing other outputs too can name them all once all are written (`cube -o` with
    /// `--filmstrip`: a filmstrip put in place before the clip failed on a full disk was removed
    /// with it, and the file it had replaced was lost).
    public var defersNaming: Bool {
        get { output.defersNaming }
        set { output.defersNaming = newValue }
    }

    /// Gives the clip finished with ``defersNaming`` its name.
    public func takeName() throws { try output.takeName() }

    /// Draws one yuv420p picture in place: given each plane's first byte and stride (luma at the
    /// clip's size, blue then red chroma at half its width and height), it writes every byte of
    /// every plane, as BT.709 limited-range values.
    public typealias PlaneDrawing = (
        _ luma: UnsafeMutableRawPointer, _ lumaStride: Int, _ blueChroma: UnsafeMutableRawPointer,
        _ blueChromaStride: Int, _ redChroma: UnsafeMutableRawPointer, _ redChromaStride: Int
    ) throws -> Void

    /// A picture handed to the encoder: packed RGBA to convert, or planes drawn in place.
    private enum Picture {
        case rgba(UnsafeBufferPointer<UInt8>)
        case drawn(PlaneDrawing)
    }

    /// Encodes one picture: `rgba` holds width × height packed RGBA pixels (alpha is ignored).
    /// It is converted before this returns; the encoding itself goes on in the background.
    public func append(rgba: UnsafeBufferPointer<UInt8>) throws {
        try append(.rgba(rgba))
    }

    /// Encodes one picture that `draw` writes straight into the encoder's yuv420p planes, so
    /// nothing is converted; it has been drawn when this returns, and the encoding goes on in the
    /// background.
    public func append(drawing draw: PlaneDrawing) throws {
        try withoutActuallyEscaping(draw) { try append(.drawn($0)) }
    }

    private func append(_ picture: Picture) throws {
        try MediaError.naming(path) {
            try encode(picture, index: frameCount)
            frameCount += 1
        }
    }

    /// `rgba` (packed RGBA with even sides) converted to yuv420p exactly as ``append(rgba:)``
    /// converts a picture. It uses its own scaler, so two pictures can be converted at once on
    /// two threads.
    public static func yuv420Planes(of rgba: RGBAImageBuffer) throws -> PlanarPicture {
        let (width, height) = (rgba.width, rgba.height)
        let scaler = try makeScaler(width: width, height: height)
        let (source, picture) = (try Frame(), try Frame())
        try rgba.pixels.withUnsafeBufferPointer { pixels in
            try source.borrow(rgba: pixels, width: width, height: height)
            defer { source.unref() }
            try scaler.scale(source, into: picture)
        }
        return PlanarPicture(copying: picture, width: width, height: height)
    }

    /// The scaler that converts the writer's RGBA pictures: to yuv420p, BT.709, limited range.
    private static func makeScaler(width: Int, height: Int) throws -> Scaler {
        try Scaler(
            sourceWidth: width, sourceHeight: height, sourceFormat: AV_PIX_FMT_RGBA,
            width: width, height: height, destinationFormat: AV_PIX_FMT_YUV420P,
            destinationColorSpace: AVCOL_SPC_BT709, destinationFullRange: false,
            flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP)
    }

    private func encode(_ input: Picture, index: Int) throws {
        let slot = index % 2
        try encoderThread.acquire(slot: slot)
        // A kept picture gets a frame of its own, never written again once converted.
        let picture = retained == nil ? pictures[slot] : try Frame()
        if picture.pointer.pointee.data.0 != nil {
            // The encoder may still hold a reference to the picture.
            try ffmpegCheck(av_frame_make_writable(picture.pointer), "cannot reuse a frame", kind: .ioFailure)
        }
        switch input {
        case .rgba(let rgba):
            try source.borrow(rgba: rgba, width: settings.width, height: settings.height)
            defer { source.unref() }
            try scaler.scale(source, into: picture)
        case .drawn(let draw):
            if picture.pointer.pointee.data.0 == nil {
                try picture.allocate(width: settings.width, height: settings.height, format: AV_PIX_FMT_YUV420P)
            }
            let (luma, blue, red) = (picture.plane(0), picture.plane(1), picture.plane(2))
            try draw(luma.base, luma.stride, blue.base, blue.stride, red.base, red.stride)
        }
        picture.pointer.pointee.pts = Int64(index)
        picture.pointer.pointee.color_primaries = AVCOL_PRI_BT709
        picture.pointer.pointee.color_trc = AVCOL_TRC_BT709
        picture.pointer.pointee.colorspace = AVCOL_SPC_BT709
        picture.pointer.pointee.color_range = AVCOL_RANGE_MPEG
        retained?.append(picture)
        encoderThread.submit(picture, slot: slot)
    }

    /// What hands the pictures to a further pass, one `append` per picture.
    private typealias Replay = (_ append: (Picture) throws -> Void) throws -> Void

    /// The most bytes the clip's packets may have under `maxBitrate`, for the frames appended, so
    /// that the whole file does not average more: the cap's bytes less what the MP4 container
    /// adds, bounded by `parameterSetBytes` + 1024 + 8 per frame (measured: 892 + 4.5 per frame
    /// beyond the parameter sets, 0.1 to 10 s, 270x480 to 1080x1920).
    static func budget(maxBitrate: Int, frames: Int, fps: Double, parameterSetBytes: Int) -> Int {
        let capBytes = (Double(maxBitrate) * Double(frames) / fps / 8).rounded(.down)
        let container = Double(parameterSetBytes + 1024 + 8 * frames)
        return Int(saturating: max(0, capBytes - container))
    }

    /// Drains the encoder, writes the trailer and moves the clip into place.
    ///
    /// A capped clip over its cap is encoded again: `replay` is called once per further pass and
    /// must hand the same pictures, in the same order, to the closure it is given (which encodes
    /// them as ``append(rgba:)`` does). An uncapped clip, or one whose first pass fits, never
    /// calls it.
    @discardableResult
    public func finish(replay: (_ append: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Void) throws
        -> Outcome
    {
        try withoutActuallyEscaping(replay) { replay in
            try finishing(replay: { append in try replay { try append(.rgba($0)) } })
        }
    }

    /// Drains the encoder, writes the trailer and moves the clip into place, as
    /// ``finish(replay:)`` does for pictures given with ``append(drawing:)``: a capped clip over
    /// its cap calls `redraw` once per further pass, which must draw the same pictures, in the
    /// same order, with the closure it is given.
    @discardableResult
    public func finishDrawn(redraw: (_ append: (PlaneDrawing) throws -> Void) throws -> Void) throws -> Outcome {
        try withoutActuallyEscaping(redraw) { redraw in
            try finishing(replay: { append in
                try redraw { draw in try withoutActuallyEscaping(draw) { try append(.drawn($0)) } }
            })
        }
    }

    /// Drains the encoder, writes the trailer and moves the clip into place; a capped clip over
    /// its cap throws `.unsupported`, as there is no way to encode its pictures again (see
    /// ``finish(replay:)``).
    @discardableResult
    public func finish() throws -> Outcome { try finishing(replay: nil) }

    private func finishing(replay: Replay?) throws -> Outcome {
        try MediaError.naming(path) {
            try encoderThread.finish()
            guard let maxBitrate = settings.maxBitrate, let firstPackets = pass.packets else {
                return outcome(rateFactor: pass.encoder.rateFactor, passes: 1, bytes: encoderThread.byteCount)
            }
            var search = RateFactorSearch(
                budget: Self.budget(
                    maxBitrate: maxBitrate, frames: frameCount, fps: settings.fps,
                    parameterSetBytes: pass.encoder.extradataSize))
            search.record(rateFactor: pass.encoder.rateFactor, bytes: firstPackets.byteCount)
            var kept = (encoder: pass.encoder, packets: firstPackets)
            while let rateFactor = search.next {
                guard let replay = replay ?? (retained?.count == frameCount ? { _ in } : nil) else {
                    throw MediaError(
                        .unsupported,
                        "the clip is over its \(maxBitrate) bits per second, and the pictures cannot be encoded again")
                }
                let packets = try encodeAgain(at: rateFactor, replay: replay)
                search.record(rateFactor: rateFactor, bytes: packets.byteCount)
                if search.choice?.rateFactor == rateFactor { kept = (pass.encoder, packets) }
            }
            try output.addVideoStream(for: kept.encoder)
            try output.writeHeader()
            for packet in kept.packets.packets { try output.write(packet) }
            try output.finish()
            return outcome(
                rateFactor: kept.encoder.rateFactor, passes: search.passes.count, bytes: kept.packets.byteCount,
                fitsCap: search.fits)
        }
    }

    private func outcome(rateFactor: Double, passes: Int, bytes: Int, fitsCap: Bool = true) -> Outcome {
        let seconds = Double(max(1, frameCount)) / settings.fps
        return Outcome(
            rateFactor: rateFactor, passes: passes, bytes: bytes,
            bitRate: Int(saturating: (Double(bytes) * 8 / seconds).rounded()), fitsCap: fitsCap)
    }

    /// One more pass over the pictures `replay` gives, at `rateFactor`; returns its packets.
    private func encodeAgain(at rateFactor: Double, replay: Replay) throws -> PacketBuffer {
        let encoder = try VideoEncoder(
            settings: settings, globalHeader: output.needsGlobalHeader, rateFactor: rateFactor)
        let packets = PacketBuffer()
        encoderThread = try EncoderThread(encoder: encoder, output: packets)
        pass = (encoder, packets)
        var index = 0
        if let retained, retained.count == frameCount {
            // The first pass's pictures, as they were converted (the encoder only reads them).
            for picture in retained {
                try encoderThread.acquire(slot: index % 2)
                encoderThread.submit(picture, slot: index % 2)
                index += 1
            }
        } else {
            retained = nil
            try replay { picture in
                try encode(picture, index: index)
                index += 1
            }
        }
        guard index == frameCount else {
            throw MediaError(.ioFailure, "the pictures given again were \(index), not \(frameCount)")
        }
        try encoderThread.finish()
        return packets
    }
}
