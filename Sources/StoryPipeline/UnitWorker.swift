import Foundation
import StoryMedia

/// Makes one work unit's output, atomically: a clip copy or link, a poster, a thumbnail, an
/// avatar, or a cube transition.
struct UnitWorker: Sendable {
    /// The bundle folder.
    let bundle: String
    /// The render's options.
    let options: RenderOptions

    /// Makes the outputs of `units` (one unit, or a clip's poster and thumbnail together, which
    /// share one smart pick) under their final names, or throws and leaves nothing behind.
    func make(_ units: [WorkUnit]) throws {
        guard let first = units.first else { return }
        if first.kind == .poster || first.kind == .thumbnail {
            try makeClipImages(units)
            return
        }
        let destination = BundlePaths.join(bundle, first.output)
        switch first.kind {
        case .clip:
            try ClipPlacement.place(
                first.source, at: destination, sha256: first.key, link: options.clipMode == .link,
                timeout: options.timeout)
        case .avatar:
            let side = RenderOptions.avatarSize
            let image = try StillImage.load(
                path: first.source, size: .fill(width: side, height: side), timeout: options.timeout)
            try writeJPEG(image, to: destination)
        case .transition:
            guard let faces = first.faces else { return }
            var parameters = CubeTransitionJob.Parameters()
            parameters.width = options.canvasWidth
            parameters.height = options.canvasHeight
            parameters.fps = options.fps
            parameters.duration = options.transitionDuration
            parameters.direction = faces.direction == "forward" ? .forward : .backward
            parameters.threads = max(1, Parallel.coreCount / max(1, options.jobs))
            _ = try CubeTransitionJob(
                from: faces.fromClip, to: faces.toClip, parameters: parameters, timeout: options.timeout
            )
            .writeVideo(to: destination)
        case .poster, .thumbnail:
            break
        }
    }

    /// A clip's poster and thumbnail: one smart pick at display size, then each output resized
    /// from it. Either output alone is made the same way, so its bytes depend only on its key.
    private func makeClipImages(_ units: [WorkUnit]) throws {
        let clip = try ClipFrameSource(path: units[0].source, timeout: options.timeout, threads: 1)
        let picked = try clip.posterFrame(size: .original)
        for unit in units {
            let destination = BundlePaths.join(bundle, unit.output)
            try MediaError.naming(destination) {
                let size: FrameSize =
                    unit.kind == .poster
                    ? posterSize(width: picked.width, height: picked.height) : .width(RenderOptions.thumbnailWidth)
                let (width, height) = size.outputSize(displayWidth: picked.width, displayHeight: picked.height)
                let image =
                    (width, height) == (picked.width, picked.height)
                    ? picked
                    : try picked.pixels.withUnsafeBufferPointer {
                        try RGBAResizer(
                            sourceWidth: picked.width, sourceHeight: picked.height, width: width, height: height
                        )
                        .resize($0)
                    }
                try writeJPEG(image, to: destination)
            }
        }
    }

    /// Groups pending units into jobs: a clip's poster and thumbnail together, everything else
    /// alone. Transitions, the longest jobs, go first so they do not finish last on one core.
    static func batches(of units: [WorkUnit]) -> [[WorkUnit]] {
        var imagesByClip: [String: Int] = [:]
        var batches: [[WorkUnit]] = []
        for unit in units {
            if unit.kind == .poster || unit.kind == .thumbnail {
                if let index = imagesByClip[unit.source] {
                    batches[index].append(unit)
                    continue
                }
                imagesByClip[unit.source] = batches.count
            }
            batches.append([unit])
        }
        return batches.filter { $0[0].kind == .transition } + batches.filter { $0[0].kind != .transition }
    }

    /// The display size, shrunk to fit inside the canvas when it is larger.
    private func posterSize(width: Int, height: Int) -> FrameSize {
        guard width > options.canvasWidth || height > options.canvasHeight else { return .original }
        let widthLimited = Double(options.canvasWidth) / Double(width) <= Double(options.canvasHeight) / Double(height)
        return widthLimited ? .width(options.canvasWidth) : .height(options.canvasHeight)
    }

    /// Encodes `image` as JPEG and writes it atomically; every error names `path`.
    private func writeJPEG(_ image: RGBAImageBuffer, to path: String) throws {
        try MediaError.naming(path) {
            try AtomicFile.write(try ImageEncoder.encode(image, format: .jpeg, quality: 85), to: path)
        }
    }
}
