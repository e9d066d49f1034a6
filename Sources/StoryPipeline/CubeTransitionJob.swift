import CubeRender
import Foundation
import StoryMedia
import Synchronization

/// Renders one cube transition between two faces (clips or stills) and writes it as an encoded
/// clip, a folder of PNG frames and/or a filmstrip: what `storyreel cube` runs and what the
/// pipeline calls between two users' stories.
///
/// Faces: going forward, the last displayed frame of FROM and the first of TO; going backward,
/// the first frames of both (the renderer plays `forward(TO, FROM)` in reverse). A still is
/// its own face. Both faces are decoded in parallel, scaled to fill the canvas and centre-cropped,
/// and their decoders are freed before encoding starts. Frames are then rendered one at a time
/// and streamed to every output: the clip's straight into the encoder's yuv420p pictures by a
/// ``CubeYUVRenderer``, so no frame is converted, from faces in those planes (a clip's decoded
/// frame as it is when it already is one: yuv420p, BT.709, limited range, SDR, upright, at the
/// canvas size or cropped to it; anything else converted as the encoder converts RGBA); the PNG
/// frames' and the filmstrip's as RGBA by a ``CubeRenderer`` into one reused buffer. Outputs are
/// atomic, and a failure leaves none of them behind.
public struct CubeTransitionJob: Sendable {
    /// What a finished job wrote.
    public struct Summary: Sendable, Equatable {
        /// Canvas width in pixels.
        public var width: Int
        /// Canvas height in pixels.
        public var height: Int
        /// Frames rendered (N).
        public var frameCount: Int
        /// Every file written, in the order they were finished.
        public var outputs: [String]
        /// The cap the clip was held under, bits per second, or nil when it had none (or no clip
        /// was written).
        public var maxBitrate: Int?
        /// How the clip was encoded, or nil when no clip was written.
        public var video: VideoClipWriter.Outcome?
        /// Warnings for a person: a face decoded past a damaged packet (``loadFaces(damaged:)``).
        public var warnings: [String] = []
    }

    /// How the transition looks and is encoded; every field has the `storyreel cube` default.
    public struct Parameters: Sendable, Equatable {
        /// Canvas width in pixels, or nil (with ``height``) for FROM's display size rounded down to
        /// even.
        public var width: Int?
        /// Canvas height in pixels, or nil (with ``width``).
        public var height: Int?
        /// Seconds.
        public var duration = 0.5
        /// Frames per second.
        public var fps = 30.0
        /// The easing curve.
        public var easing = CubeEasing.smooth
        /// Perspective distance as a multiple of the width.
        public var perspective = 2.667
        /// Shading strength, 0...1.
        public var shade = 0.3
        /// Which way the cube turns.
        public var direction = CubeDirection.forward
        /// The clip's codec.
        public var codec = VideoEncoder.Codec.h264
        /// The clip's constant rate factor, 0...51: 23, as AMP stories recommend for 720×1280.
        public var crf = 23
        /// The most the clip's average bit rate may be, in bits per second, or nil for plain CRF
        /// (unless the job's ``CubeTransitionJob/peakFromClips`` sets one). See
        /// ``VideoEncoder/Settings/maxBitrate``.
        public var maxBitrate: Int?
        /// The x264/x265 preset.
        public var preset = "veryfast"
        /// Threads the renderer splits each frame over.
        public var threads = Parallel.coreCount

        /// The defaults.
        public init() {}
    }

    /// Where the job writes; any combination, at least one.
    public struct Outputs: Sendable, Equatable {
        /// The encoded clip (`.mp4`, or `.mov` for QuickTime), or nil.
        public var videoPath: String?
        /// A folder for `frame_0000.png` …, created when missing, or nil.
        public var framesDirectory: String?
        /// The filmstrip PNG, or nil.
        public var filmstripPath: String?
        /// The clip and the filmstrip take their names only when nothing has them (else
        /// ``StagedFile/NameTaken``): a bundle's outputs, whose names were free when the work
        /// began, so that a file put there meanwhile is someone's.
        public var exclusively = false
        /// What the clip's comment tag says before its samples' SHA-256, or nil: a bundle's
        /// transition names itself (``OutputProvenance``).
        public var comment: String?

        /// The outputs given.
        public init(
            videoPath: String? = nil, framesDirectory: String? = nil, filmstripPath: String? = nil,
            exclusively: Bool = false, comment: String? = nil
        ) {
            self.videoPath = videoPath
            self.framesDirectory = framesDirectory
            self.filmstripPath = filmstripPath
            self.exclusively = exclusively
            self.comment = comment
        }

        /// True when nothing would be written.
        public var isEmpty: Bool { videoPath == nil && framesDirectory == nil && filmstripPath == nil }
    }

    /// The outgoing face.
    public var from: CubeFaceSource
    /// The incoming face.
    public var to: CubeFaceSource
    /// How the transition looks and is encoded.
    public var parameters: Parameters
    /// Per-input deadline in seconds (nil: none).
    public var timeout: Double?
    /// When true, ``Parameters/maxBitrate`` is nil and both faces are clips, the clip is capped at
    /// ``TransitionBitrate/peak(width:height:from:to:)`` of the canvas and the two clips' bit
    /// rates, read from their headers: what `storyreel cube` does. A still has no bit rate to
    /// compare with, so a job with a still face is not capped this way. A policy for picking the
    /// cap, not a parameter of the clip: the pipeline sets ``Parameters/maxBitrate`` itself.
    public var peakFromClips = false

    /// A job from `from` to `to`.
    public init(
        from: CubeFaceSource, to: CubeFaceSource, parameters: Parameters = Parameters(), timeout: Double? = 30
    ) {
        self.from = from
        self.to = to
        self.parameters = parameters
        self.timeout = timeout
    }

    /// A job between two paths, each a clip or (`.png`, `.jpg`, `.jpeg`) a still.
    public init(from: String, to: String, parameters: Parameters = Parameters(), timeout: Double? = 30) {
        self.init(
            from: CubeFaceSource(path: from), to: CubeFaceSource(path: to), parameters: parameters, timeout: timeout)
    }

    /// The renderer's spec for a `width` × `height` canvas.
    public func spec(width: Int, height: Int) -> CubeTransitionSpec {
        CubeTransitionSpec(
            width: width, height: height, duration: parameters.duration, fps: parameters.fps,
            easing: parameters.easing, perspective: parameters.perspective, shade: parameters.shade,
            direction: parameters.direction)
    }

    /// The frame count, N = round(duration × fps).
    public var frameCount: Int { spec(width: 2, height: 2).frameCount }

    /// The canvas size given in the parameters, or nil when it comes from FROM.
    private var givenSize: (width: Int, height: Int)? {
        guard let width = parameters.width, let height = parameters.height else { return nil }
        return (width, height)
    }

    /// Checks the parameters before any file is touched (the canvas too, when it is given).
    /// Throws `CubeRenderError` saying what is wrong.
    public func validate() throws {
        guard (parameters.width == nil) == (parameters.height == nil) else {
            throw CubeRenderError("give both the canvas width and height, or neither")
        }
        try spec(width: parameters.width ?? 2, height: parameters.height ?? 2).validate()
        guard (1...51).contains(parameters.crf) else {
            throw CubeRenderError("crf \(parameters.crf) must be from 1 to 51")
        }
        if let cap = parameters.maxBitrate, cap <= 0 {
            throw CubeRenderError("the maximum bit rate must be more than 0 bits per second, got \(cap)")
        }
        guard parameters.threads >= 1 else { throw CubeRenderError("the renderer needs at least one thread") }
        if parameters.codec == .hevc, let width = parameters.width, let height = parameters.height {
            try Self.checkHEVC(width: width, height: height)
        }
    }

    /// Throws when x265 opens no encoder for a `width` × `height` canvas
    /// (``hevcCanvasProblem(width:height:)``): refused up front rather than failing at the
    /// encoder (or, in a render, at every transition).
    public static func checkHEVC(width: Int, height: Int) throws {
        guard let problem = hevcCanvasProblem(width: width, height: height) else { return }
        throw CubeRenderError(problem + "; use --codec h264")
    }

    /// Why x265 opens no encoder for a `width` × `height` picture, or nil: under 16 pixels a
    /// side; or, with a side under 32, the other over 4216, a stream no level allows, which
    /// x265 refuses to write (a cube QA pass: 8192x16 failed after the faces were decoded, 65,
    /// with "Invalid data found when processing input"; measured with the ffmpeg CLI's libx265).
    public static func hevcCanvasProblem(width: Int, height: Int) -> String? {
        if min(width, height) < 16 { return "HEVC (x265) needs a canvas of at least 16x16, got \(width)x\(height)" }
        if min(width, height) < 32, max(width, height) > 4216 {
            return
                "HEVC (x265) cannot encode a \(width)x\(height) canvas: with a side under 32 pixels, the other may be "
                + "at most 4216"
        }
        return nil
    }

    /// The cap for a `width` × `height` canvas: ``Parameters/maxBitrate`` when given; else, with
    /// ``peakFromClips`` and two clip faces, the peak rule of the clips' bit rates
    /// (``TransitionBitrate/clipBitRate(_:)``, read from their headers); else nil.
    public func maxBitrate(width: Int, height: Int) throws -> Int? {
        if let cap = parameters.maxBitrate { return cap }
        guard peakFromClips, case .clip(let fromPath) = from, case .clip(let toPath) = to else {
            return nil
        }
        let rates = try [fromPath, toPath].map {
            TransitionBitrate.clipBitRate(try ClipProbe.inspect(path: $0, timeout: timeout))
        }
        return TransitionBitrate.peak(width: width, height: height, from: rates[0], to: rates[1])
    }

    /// Decodes both faces at the canvas size, TO on another thread while FROM decodes on this
    /// one. Throws a ``MediaError`` naming the first input, in argument order, that failed.
    /// `damaged` is called (from either thread) with the path of a clip whose face was decoded
    /// past a damaged packet (``ClipFrameSource/lastFrameMayShowDamage``), which may show blocks
    /// of other frames, and whether the face is its last frame (else its first).
    public func loadFaces(
        damaged: @escaping @Sendable (_ clip: String, _ lastFrame: Bool) -> Void = { _, _ in }
    ) throws -> (from: RGBAImageBuffer, to: RGBAImageBuffer) {
        try loadFaces(
            clip: { clip, last, size in last ? try clip.lastFrame(size: size) : try clip.firstFrame(size: size) },
            still: { $0 }, damaged: damaged)
    }

    /// Decodes both faces at the canvas size as the clip's encoder takes them, as
    /// ``loadFaces()`` does: a clip's frame straight from its decoded planes when they already
    /// are that picture (``ClipFrameSource/lastFramePlanes(size:)``), anything else converted as
    /// the writer converts RGBA.
    func loadPlanarFaces(
        damaged: @escaping @Sendable (_ clip: String, _ lastFrame: Bool) -> Void = { _, _ in }
    ) throws -> (from: PlanarPicture, to: PlanarPicture) {
        try loadFaces(
            clip: { clip, last, size in
                last ? try clip.lastFramePlanes(size: size) : try clip.firstFramePlanes(size: size)
            },
            still: { try VideoClipWriter.yuv420Planes(of: $0) }, damaged: damaged)
    }

    /// Both faces at the canvas size as `clip` (given a face's clip, whether the face is its
    /// last frame, and the size) and `still` (given a still's picture) deliver them.
    private func loadFaces<Face: Sendable>(
        clip: @escaping @Sendable (ClipFrameSource, Bool, FrameSize) throws -> Face,
        still: @escaping @Sendable (RGBAImageBuffer) throws -> Face,
        damaged: @escaping @Sendable (_ clip: String, _ lastFrame: Bool) -> Void
    ) throws -> (from: Face, to: Face) {
        // A clip's face, with a warning when it was decoded past a damaged packet (a cube QA
        // pass: a zeroed keyframe gave a face 12.9 dB from the true last frame, in silence).
        let clipFace = {
            @Sendable [self] (source: ClipFrameSource, path: String, isFrom: Bool, size: FrameSize) throws -> Face in
            let last = wantsLastFrame(isFrom: isFrom)
            let face = try clip(source, last, size)
            if source.lastFrameMayShowDamage { damaged(path, last) }
            return face
        }
        let load = { @Sendable [self] (source: CubeFaceSource, isFrom: Bool, size: FrameSize) throws -> Face in
            switch source {
            case .still(let path):
                // The conversion's errors name the still too (an 8192x8192 one under a memory limit).
                return try MediaError.naming(path) {
                    try still(try Self.loadStill(path, size: size, timeout: timeout))
                }
            case .clip(let path):
                return try clipFace(try openClip(path, isFrom: isFrom), path, isFrom, size)
            }
        }
        let fromClip: (source: ClipFrameSource, path: String)?
        let size: (width: Int, height: Int)
        if let givenSize {
            fromClip = nil
            size = givenSize
        } else {
            switch from {
            case .still(let path):
                // The canvas comes from the still itself: decode it once, crop it to even sides.
                let picture = try Self.loadStill(path, size: .original, timeout: timeout)
                let (width, height) = try canvasSize(displayWidth: picture.width, displayHeight: picture.height)
                let toFace = try load(to, false, .fill(width: width, height: height))
                return (
                    try MediaError.naming(path) { try still(picture.centreCropped(width: width, height: height)) },
                    toFace
                )
            case .clip(let path):
                let opened = try openClip(path, isFrom: true)
                fromClip = (opened, path)
                size = try canvasSize(displayWidth: opened.displayWidth, displayHeight: opened.displayHeight)
            }
        }
        let fill = FrameSize.fill(width: size.width, height: size.height)
        let incoming = BackgroundWork { [to] in try load(to, false, fill) }
        let fromFace = Result {
            if let fromClip { return try clipFace(fromClip.source, fromClip.path, true, fill) }
            return try load(from, true, fill)
        }
        let toFace = incoming.wait()
        return (try fromFace.get(), try toFace.get())
    }

    /// Renders the transition and writes it as an encoded clip at `path`.
    @discardableResult
    public func writeVideo(to path: String) throws -> Summary {
        try run(writing: Outputs(videoPath: path))
    }

    /// Renders and writes every output in `outputs`, from `faces` when given (as
    /// ``loadFaces()`` returns them), else decoding them. Calls `progress` after each frame with
    /// the frames done and the frame count. With a frames folder, `framesPlanned` is called with
    /// the frame count just before the frames take their names (a failure there fails the run
    /// with nothing replaced), and `framesPlaced` once they have them, both with interrupts held
    /// off (to record them).
    @discardableResult
    public func run(
        writing outputs: Outputs, faces: (from: RGBAImageBuffer, to: RGBAImageBuffer)? = nil,
        progress: (Int, Int) -> Void = { _, _ in }, framesPlanned: (Int) throws -> Void = { _ in },
        framesPlaced: (Int) -> Void = { _ in }
    ) throws -> Summary {
        try validate()
        // The frames and the filmstrip are RGBA renders; the clip is drawn straight into the
        // encoder's yuv420p pictures from faces in those planes, which a clip's decoded frame
        // often already is (then nothing is converted).
        let needsRGBA = outputs.framesDirectory != nil || outputs.filmstripPath != nil
        if let size = givenSize { try checkAddressSpace(for: outputs, width: size.width, height: size.height) }
        let damage = Mutex<[String]>([])
        let noteDamage = { @Sendable (clip: String, lastFrame: Bool) in
            let face = lastFrame ? "its last frame" : "its first frame"
            damage.withLock { $0.append("\(clip): " + ClipFrameSource.damageWarning(face)) }
        }
        let rgbaFaces = try faces ?? (needsRGBA ? loadFaces(damaged: noteDamage) : nil)
        let planarFaces = try outputs.videoPath.map { _ in
            try rgbaFaces.map(Self.planes(of:)) ?? loadPlanarFaces(damaged: noteDamage)
        }
        guard !outputs.isEmpty,
            let canvas = rgbaFaces.map({ (width: $0.from.width, height: $0.from.height) })
                ?? planarFaces.map({ (width: $0.from.width, height: $0.from.height) })
        else {
            throw CubeRenderError("nothing to write: give a video path, a frames folder or a filmstrip path")
        }
        let spec = spec(width: canvas.width, height: canvas.height)
        try spec.validate()
        if givenSize == nil { try checkAddressSpace(for: outputs, width: canvas.width, height: canvas.height) }
        let width = spec.width
        let height = spec.height
        let frameCount = spec.frameCount
        let maxBitrate = outputs.videoPath == nil ? nil : try maxBitrate(width: width, height: height)
        let renderer = try rgbaFaces.flatMap { needsRGBA ? try makeRenderer(faces: $0) : nil }
        var video: VideoClipWriter.Outcome?
        // A run leaves all its outputs or none: a failure or an interrupt removes what it wrote.
        var created = CreatedOutputs()
        created.allOrNothing = true
        // The frames take their names only once everything else is written, so a run that fails
        // or is interrupted before then leaves an earlier run's frames as they were.
        var stagedFrames: [StagedFile] = []
        var stagedFilmstrip: StagedFile?
        var writer: VideoClipWriter?
        do {
            // The faces are laid out before the encoder opens, so an encoder that cannot get its
            // memory (libx264 at 8192x8192 under a tight limit) fails the run with its error.
            let planarRenderer = try planarFaces.map { try makePlanarRenderer(faces: $0, spec: spec) }
            writer = try outputs.videoPath.map {
                try VideoClipWriter(
                    path: $0,
                    settings: VideoEncoder.Settings(
                        codec: parameters.codec, width: width, height: height, fps: parameters.fps,
                        crf: parameters.crf, preset: parameters.preset, tuning: .shortClip,
                        maxBitrate: maxBitrate),
                    expectedFrameCount: frameCount, exclusively: outputs.exclusively, comment: outputs.comment)
            }
            writer?.defersNaming = true
            let framesDirectory = outputs.framesDirectory
            let frameEncoder = try framesDirectory.map { folder in
                try created.createFolder(folder)
                return try MediaError.naming(folder) { try ImageEncoder(format: .png, width: width, height: height) }
            }
            let filmstrip = try outputs.filmstripPath.map { path in
                try MediaError.naming(path) {
                    try Filmstrip(frameCount: frameCount, frameWidth: width, frameHeight: height)
                }
            }
            var canvas = [UInt8](repeating: 0, count: renderer == nil ? 0 : width * height * 4)
            try canvas.withUnsafeMutableBufferPointer { buffer in
                let rgba = UnsafeBufferPointer(buffer)
                for index in 0..<frameCount {
                    if let writer, let planarRenderer {
                        try writer.append(drawing: Self.drawing(frame: index, with: planarRenderer))
                    }
                    if let renderer {
                        renderer.render(frame: index, into: buffer)
                    }
                    if let frameEncoder, let framesDirectory {
                        let image = RGBAImageBuffer(width: width, height: height, pixels: Array(rgba))
                        let path = CubeTransitionJob.framePath(in: framesDirectory, index: index)
                        let frame = try StagedFile(for: path)
                        try frame.append(try MediaError.naming(path) { try frameEncoder.encode(image) })
                        try frame.finish()
                        stagedFrames.append(frame)
                        // The one arena keeps what is freed (``AllocatorTuning``), and each PNG's
                        // buffers differ in size, so they seldom fit where the last frame's were:
                        // a scale QA pass saw 6.3 GB at 1000 frames of 1080x1920 (465 MB at 60).
                        // Given back every few frames: at every frame, the pages faulted in
                        // again cost 15% of the time at 1080x1920 (a review).
                        if index % Self.framesBetweenTrims == Self.framesBetweenTrims - 1 {
                            AllocatorTuning.releaseFreeMemory()
                        }
                    }
                    if let filmstrip, let filmstripPath = outputs.filmstripPath {
                        try MediaError.naming(filmstripPath) { try filmstrip.offer(frame: index, rgba: rgba) }
                    }
                    progress(index + 1, frameCount)
                }
                if let filmstrip, let filmstripPath = outputs.filmstripPath {
                    let staged = try StagedFile(for: filmstripPath, replacing: !outputs.exclusively)
                    try staged.append(try MediaError.naming(filmstripPath) { try filmstrip.pngData() })
                    try staged.finish()
                    stagedFilmstrip = staged
                }
            }
            if let writer, let planarRenderer {
                // A clip over its cap is encoded again from the same frames: the writer keeps
                // them when they are small; else (47 MB of yuv420p at 1080x1920) they are drawn
                // anew, which is cheaper than keeping them.
                video = try writer.finishDrawn(redraw: { append in
                    for index in 0..<frameCount {
                        try append(Self.drawing(frame: index, with: planarRenderer))
                    }
                })
            }
        } catch {
            // The staged frames go first (their temporary files), so the folders made for them
            // are empty when they are removed.
            stagedFrames.removeAll()
            created.removeAll()
            throw error
        }
        // The frames take their names last, with interrupts held off until every output is
        // kept: an interrupt while they were renamed into place removed those already renamed,
        // and with them the earlier run's frames of the same names.
        try InterruptCleanup.deferringInterrupts {
            do {
                if let writer {
                    try writer.takeName()
                    created.add(writer.path)
                }
                if let stagedFilmstrip {
                    try stagedFilmstrip.commit(exclusively: outputs.exclusively)
                    created.add(stagedFilmstrip.path)
                }
                if outputs.framesDirectory != nil { try framesPlanned(frameCount) }
                for frame in stagedFrames {
                    try frame.commit()
                    created.add(frame.path)
                }
            } catch {
                stagedFrames.removeAll()
                created.removeAll()
                throw error
            }
            created.keepAll()
            if outputs.framesDirectory != nil { framesPlaced(frameCount) }
        }
        return Summary(
            width: width, height: height, frameCount: frameCount, outputs: created.files, maxBitrate: maxBitrate,
            video: video, warnings: damage.withLock { $0 })
    }

    /// Draws the clip's frames as ``run(writing:faces:progress:framesPlanned:framesPlaced:)``
    /// hands them to its encoder (from the faces it decodes, by the same renderer), and gives
    /// each to `body` as raw yuv420p, I420 order (luma, then blue and red chroma, tightly packed),
    /// encoding nothing: what a benchmark feeds the encoder alone to measure its share.
    public func drawClipFrames(_ body: ([UInt8]) throws -> Void) throws {
        try validate()
        let faces = try loadPlanarFaces()
        let spec = spec(width: faces.from.width, height: faces.from.height)
        try spec.validate()
        let renderer = try makePlanarRenderer(faces: faces, spec: spec)
        let (width, height) = (spec.width, spec.height)
        var frame = [UInt8](repeating: 0, count: width * height * 3 / 2)
        for index in 0..<spec.frameCount {
            try frame.withUnsafeMutableBytes { bytes in
                let luma = bytes.baseAddress!
                try Self.drawing(frame: index, with: renderer)(
                    luma, width, luma + width * height, width / 2, luma + width * height * 5 / 4, width / 2)
            }
            try body(frame)
        }
    }

    /// What draws frame `index` of `renderer` into a writer's yuv420p planes.
    private static func drawing(frame index: Int, with renderer: CubeYUVRenderer) -> VideoClipWriter.PlaneDrawing {
        { luma, lumaStride, blueChroma, blueChromaStride, redChroma, redChromaStride in
            renderer.render(
                frame: index,
                into: YUV420Planes(
                    luma: luma, lumaStride: lumaStride, blueChroma: blueChroma, blueChromaStride: blueChromaStride,
                    redChroma: redChroma, redChromaStride: redChromaStride))
        }
    }

    /// `faces` converted to the clip's planes as its writer converts RGBA, TO on another thread
    /// while FROM converts on this one.
    private static func planes(of faces: (from: RGBAImageBuffer, to: RGBAImageBuffer)) throws -> (
        from: PlanarPicture, to: PlanarPicture
    ) {
        let incoming = BackgroundWork { [to = faces.to] in try VideoClipWriter.yuv420Planes(of: to) }
        let from = Result { try VideoClipWriter.yuv420Planes(of: faces.from) }
        let to = incoming.wait()
        return (try from.get(), try to.get())
    }

    /// Prepares the planar renderer for the clip.
    private func makePlanarRenderer(faces: (from: PlanarPicture, to: PlanarPicture), spec: CubeTransitionSpec)
        throws -> CubeYUVRenderer
    {
        let image = { (face: PlanarPicture) in
            try YUV420Image(
                width: face.width, height: face.height, luma: face.luma, blueChroma: face.blueChroma,
                redChroma: face.redChroma)
        }
        return try CubeYUVRenderer(
            from: try image(faces.from), to: try image(faces.to), spec: spec, threads: parameters.threads)
    }

    /// How many PNG frames are written between two returns of freed memory to the kernel.
    static let framesBetweenTrims = 8

    /// `frame_0000.png`, `frame_0001.png` … in `folder`.
    public static func framePath(in folder: String, index: Int) -> String {
        (folder as NSString).appendingPathComponent(String(format: "frame_%04d.png", index))
    }

    /// Prepares the renderer for the faces (whose decoders are gone by now).
    private func makeRenderer(faces: (from: RGBAImageBuffer, to: RGBAImageBuffer)) throws -> CubeRenderer {
        let spec = spec(width: faces.from.width, height: faces.from.height)
        return try CubeRenderer(
            from: try RGBAImage(width: faces.from.width, height: faces.from.height, pixels: faces.from.pixels),
            to: try RGBAImage(width: faces.to.width, height: faces.to.height, pixels: faces.to.pixels),
            spec: spec, threads: parameters.threads)
    }

    /// True when the face is a clip's last frame rather than its first.
    private func wantsLastFrame(isFrom: Bool) -> Bool { isFrom && parameters.direction == .forward }

    /// Why TO cannot be read as a face (a clip that does not open, a still that does not
    /// decode), or nil when it can: asked once FROM has failed, so that one run names both.
    public func problemWithTo() -> (any Error)? {
        do {
            switch to {
            case .still(let path): _ = try StillImage.load(path: path, timeout: timeout)
            case .clip(let path): _ = try openClip(path, isFrom: false)
            }
            return nil
        } catch {
            return error
        }
    }

    /// A still face at `size`; a video named as a still (`clip.jpg`) is told how to be a clip
    /// face (a QA pass: it was "unknown signature").
    private static func loadStill(_ path: String, size: FrameSize, timeout: Double?) throws -> RGBAImageBuffer {
        do {
            return try StillImage.load(path: path, size: size, timeout: timeout)
        } catch let error as MediaError where error.reason == ContainerFamily.videoNotStill {
            throw MediaError(
                .invalidMedia, path: path, error.reason + "; name it .mp4 or .mov to use it as a clip face")
        }
    }

    /// Opens a face's clip. The last frame takes decoding a run of frames, which frame threads
    /// speed up; a first frame is one picture, which they would only delay. A truncated upload
    /// is refused (`.invalidMedia`), as `render` skips it and `ingest` rejects it: its frames
    /// stop early, so its "last frame" is one from the middle.
    private func openClip(_ path: String, isFrom: Bool) throws -> ClipFrameSource {
        let clip: ClipFrameSource
        do {
            clip = try ClipFrameSource(path: path, timeout: timeout, threads: wantsLastFrame(isFrom: isFrom) ? 0 : 1)
        } catch let error as MediaError
            where error.kind == .invalidMedia
            && (error.reason == "a PNG image, not a video" || error.reason == "a JPEG image, not a video")
        {
            // A face may be a still, taken as one by its name (a cube QA pass: `avatar`, a PNG
            // with no extension, was "not a video", which said nothing of how to use it).
            throw MediaError(
                .invalidMedia, path: path, error.reason + "; name it .png or .jpg to use it as a still face")
        }
        if let warning = clip.truncationWarnings.first { throw MediaError(.invalidMedia, path: path, warning) }
        return clip
    }

    /// Throws a ``MediaError/Kind/systemLimit`` error (71) naming the first output when the
    /// address-space limit (`ulimit -v`) leaves no room for `outputs` at a `width` × `height`
    /// canvas (``AddressSpace``): checked before the faces are decoded when the size is given,
    /// else once FROM has given it, before the encoder opens.
    private func checkAddressSpace(for outputs: Outputs, width: Int, height: Int) throws {
        guard let path = outputs.videoPath ?? outputs.framesDirectory ?? outputs.filmstripPath else { return }
        var bytesPerPixel = 0
        var fixedBytes = 0
        if outputs.videoPath != nil {
            bytesPerPixel += AddressSpace.cubeClipBytesPerPixel(hevc: parameters.codec == .hevc)
            fixedBytes += AddressSpace.cubeClipFixedBytes(hevc: parameters.codec == .hevc)
        }
        if outputs.framesDirectory != nil {
            bytesPerPixel += AddressSpace.cubeFramesBytesPerPixel(width: width, height: height)
        }
        if outputs.filmstripPath != nil { bytesPerPixel += AddressSpace.cubeFilmstripBytesPerPixel }
        try AddressSpace.checkRoom(
            width: width, height: height, bytesPerPixel: bytesPerPixel, fixedBytes: fixedBytes, for: path,
            making: "the \(width)x\(height) cube")
    }

    /// A display size rounded down to even sides, or a `.invalidMedia` error when that is not a
    /// canvas the renderer takes.
    private func canvasSize(displayWidth: Int, displayHeight: Int) throws -> (width: Int, height: Int) {
        let width = displayWidth / 2 * 2
        let height = displayHeight / 2 * 2
        guard width >= 2, height >= 2 else {
            throw MediaError(
                .invalidMedia, path: from.path,
                "its \(displayWidth)x\(displayHeight) picture is too small to be the canvas (at least 2x2 once its sides "
                    + "are rounded down to even); pass --size")
        }
        do {
            try spec(width: width, height: height).validate()
            // As a given --size is (a QA pass got libx265's "Invalid argument" for a 14-pixel-wide
            // FROM, after the faces were decoded).
            if parameters.codec == .hevc { try Self.checkHEVC(width: width, height: height) }
        } catch let error as CubeRenderError {
            throw MediaError(
                .invalidMedia, path: from.path,
                "its \(displayWidth)x\(displayHeight) picture cannot be the canvas (\(error.message)); pass --size")
        }
        return (width, height)
    }
}
