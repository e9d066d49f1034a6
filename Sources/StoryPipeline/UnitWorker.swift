import Foundation
import StoryMedia
import Synchronization

/// Makes work units' outputs, atomically: a clip copy or link, a poster, a thumbnail, the first
/// and last frame stills, an avatar, or a cube transition. Each takes its name only when nothing
/// has it (``StagedFile/NameTaken`` otherwise): the name was free when the unit was planned (a
/// changed output is set aside first), so a file put there during the render is someone's.
struct UnitWorker: Sendable {
    /// The bundle folder.
    let bundle: String
    /// The render's options.
    let options: RenderOptions
    /// The canvas width (posters fit in it, stills fill it).
    let canvasWidth: Int
    /// The canvas height.
    let canvasHeight: Int
    /// Each source's stamp when the plan hashed it (``BundlePlan/sourceStamps``).
    let sourceStamps: [String: FileStamp]
    /// Each source's hash (``BundlePlan/sourceHashes``).
    let sourceHashes: [String: String]

    /// Makes the outputs of `units`, one batch from ``batches(of:)``, under their final names, or
    /// throws and leaves nothing behind. Returns warnings for a person (a transition over its
    /// peak, a still or a face decoded past a damaged packet), each with its output.
    func make(_ units: [WorkUnit]) throws -> [UnitWarning] {
        guard let first = units.first else { return [] }
        let destination = BundlePaths.join(bundle, first.output)
        // The files a batch decodes are pinned while it runs: it decodes the file it checks.
        let pins = try pinnedSources(of: first)
        defer { withExtendedLifetime(pins) {} }
        switch first.kind {
        case .clip:
            try ClipPlacement.place(
                first.source, at: destination, check: .sha256(first.key), link: options.clipMode == .link,
                exclusive: true, timeout: options.timeout)
        case .avatar:
            let side = RenderOptions.avatarSize
            let image = try StillImage.load(
                path: first.source, size: .fill(width: side, height: side), timeout: options.timeout)
            try checkUnchanged(first.source)
            try writeJPEG(image, as: first.output)
        case .transition:
            return try makeTransition(first, lastFrameStill: units.dropFirst().first)
        case .poster, .thumbnail, .firstFrame, .lastFrame:
            return try makeClipImages(units)
        }
        return []
    }

    /// A transition; when the still of its outgoing clip's last frame is also to be made, it is
    /// the transition's own face, written as it is (the faces are decoded once). Returns a
    /// warning for each face decoded past a damaged packet, and when the transition is over its
    /// peak even at the encoder's smallest.
    private func makeTransition(_ unit: WorkUnit, lastFrameStill: WorkUnit?) throws -> [UnitWarning] {
        guard let transition = unit.transition else { return [] }
        var parameters = transition.parameters
        parameters.threads = max(1, Parallel.coreCount / max(1, options.jobs))
        let job = CubeTransitionJob(
            from: transition.fromClip, to: transition.toClip, parameters: parameters, timeout: options.timeout)
        // Each damaged face names the transition and its clip as the render's other lines do,
        // relative to the bundle and the stories input (a QA pass: the clip's absolute path).
        let (fromClip, fromLabel, toLabel) = (transition.fromClip, unit.sourceLabel, transition.toLabel)
        let damage = Mutex<[UnitWarning]>([])
        let faces = try job.loadFaces { clip, lastFrame in
            let label = clip == fromClip ? fromLabel : toLabel
            let face = "its face from \(label)'s \(lastFrame ? "last" : "first") frame"
            let text = "\(unit.output): " + ClipFrameSource.damageWarning(face)
            damage.withLock { $0.append(UnitWarning(output: unit.output, text: text)) }
        }
        let warnings = damage.withLock { $0 }
        try checkUnchanged(transition.fromClip)
        try checkUnchanged(transition.toClip)
        if let still = lastFrameStill {
            try writeJPEG(faces.from, as: still.output)
        }
        let outputs = CubeTransitionJob.Outputs(
            videoPath: BundlePaths.join(bundle, unit.output), exclusively: true,
            comment: OutputProvenance.text(naming: unit.output))
        let summary = try job.run(writing: outputs, faces: faces)
        guard let video = summary.video, !video.fitsCap, let peak = summary.maxBitrate, let path = outputs.videoPath
        else { return warnings }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? video.bytes
        let seconds = Double(summary.frameCount) / parameters.fps
        let overPeak = TransitionBitrate.overPeakWarning(path: unit.output, bytes: bytes, seconds: seconds, peak: peak)
        return warnings + [UnitWarning(output: unit.output, text: overPeak)]
    }

    /// A clip's poster, thumbnail and stills, from one opened clip: the poster and thumbnail
    /// from one smart pick, each scaled from the frame picked to its own size (``ImageSize``);
    /// the stills are the first and last displayed frames filling the canvas, as the
    /// transitions' faces do. Each output alone is made the same way, so its bytes depend only
    /// on its key.
    private func makeClipImages(_ units: [WorkUnit]) throws -> [UnitWarning] {
        let clip = try ClipFrameSource(path: units[0].source, timeout: options.timeout, threads: 1)
        var warnings: [UnitWarning] = []
        let fill = FrameSize.fill(width: canvasWidth, height: canvasHeight)
        let picks = units.filter { $0.kind == .poster || $0.kind == .thumbnail }
        var picked: [RGBAImageBuffer]?
        for unit in units {
            let destination = BundlePaths.join(bundle, unit.output)
            let image = try MediaError.naming(destination) { () throws -> RGBAImageBuffer in
                switch unit.kind {
                case .firstFrame:
                    return try clip.firstFrame(size: fill)
                case .lastFrame:
                    return try clip.lastFrame(size: fill)
                default:
                    let pictures =
                        try picked
                        ?? clip.posterFrames(sizes: picks.map { pictureSize(of: $0.kind, clip) }, sizedByHeader: true)
                    picked = pictures
                    return pictures[picks.firstIndex { $0.output == unit.output } ?? 0]
                }
            }
            try checkUnchanged(units[0].source)
            try writeJPEG(image, as: unit.output)
            // As `cube` warns (a cube QA pass: a zeroed keyframe's damage went into the face in
            // silence); the still is written all the same, as ffmpeg writes such a frame.
            if unit.kind == .firstFrame || unit.kind == .lastFrame, clip.lastFrameMayShowDamage {
                let frame = unit.kind == .firstFrame ? "first frame" : "last frame"
                let text =
                    "\(unit.output): "
                    + ClipFrameSource.damageWarning("this still of \(units[0].sourceLabel)'s \(frame)")
                warnings.append(UnitWarning(output: unit.output, text: text))
            }
        }
        return warnings
    }

    /// The size the poster or the thumbnail of `clip` is scaled to from the frame picked.
    private func pictureSize(of kind: WorkUnit.Kind, _ clip: ClipFrameSource) -> FrameSize {
        ImageSize.pictureSize(
            of: kind, picture: (clip.displayWidth, clip.displayHeight), canvas: (canvasWidth, canvasHeight))
    }

    /// Pins (``SourcePin``) the files `unit`'s batch reads, which the plan stamped: a clip's or
    /// an avatar's source (a clip copy's too: it reads through the pin other units hold, so it
    /// holds one as well), a transition's two faces. A source that cannot be opened is left to
    /// the reader, whose error says why (``BundlePlan/pin(_:)``).
    private func pinnedSources(of unit: WorkUnit) throws -> [SourcePin] {
        let sources: [String]
        switch unit.kind {
        case .transition: sources = unit.transition.map { [$0.fromClip, $0.toClip] } ?? []
        default: sources = [unit.source]
        }
        return try sources.filter { sourceStamps[$0] != nil }.compactMap { try BundlePlan.pin($0) }
    }

    /// Throws when `source` no longer has the stamp it had when the plan hashed it: what was
    /// just decoded may be another file's picture (a clip replaced during the render), which
    /// must not be filed under the old file's key.
    private func checkUnchanged(_ source: String) throws {
        guard let stamp = sourceStamps[source] else { return }
        _ = try BundlePlan.unchanged(source, since: stamp, sha256: sourceHashes[source], timeout: options.timeout)
    }

    /// Groups pending units into jobs: a clip's poster, thumbnail and stills together (one
    /// opened clip); a forward transition with the still of its outgoing clip's last frame when
    /// both are pending (that still is the transition's face); everything else alone.
    /// Transitions, the longest jobs, go first so they do not finish last on one core.
    static func batches(of units: [WorkUnit]) -> [[WorkUnit]] {
        var lastFrames = Dictionary(
            units.filter { $0.kind == .lastFrame }.map { ($0.source, $0) }, uniquingKeysWith: { first, _ in first })
        var transitions: [[WorkUnit]] = []
        for unit in units where unit.kind == .transition {
            if unit.transition?.direction == .forward, let still = lastFrames.removeValue(forKey: unit.source) {
                transitions.append([unit, still])
            } else {
                transitions.append([unit])
            }
        }
        let taken = Set(transitions.flatMap { $0.dropFirst().map(\.output) })
        var imagesByClip: [String: Int] = [:]
        var others: [[WorkUnit]] = []
        for unit in units where unit.kind != .transition && !taken.contains(unit.output) {
            if [.poster, .thumbnail, .firstFrame, .lastFrame].contains(unit.kind) {
                if let index = imagesByClip[unit.source] {
                    others[index].append(unit)
                    continue
                }
                imagesByClip[unit.source] = others.count
            }
            others.append([unit])
        }
        return transitions + others
    }

    /// Encodes `image` as JPEG naming itself as `output` (``OutputProvenance``) and writes it
    /// atomically at that name in the bundle; every error names the path.
    private func writeJPEG(_ image: RGBAImageBuffer, as output: String) throws {
        let path = BundlePaths.join(bundle, output)
        try MediaError.naming(path) {
            let data = try ImageEncoder.encode(image, format: .jpeg, quality: RenderOptions.stillQuality)
            try AtomicFile.write(try OutputProvenance.jpeg(data, naming: output), to: path, exclusively: true)
        }
    }
}
