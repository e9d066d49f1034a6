import Foundation
import StoryMedia

/// Makes one work unit's output, atomically: a clip copy or link, a poster, a thumbnail, an
/// avatar, or a cube transition.
struct UnitWorker: Sendable {
    /// The bundle folder.
    let bundle: String
    /// The render's options.
    let options: RenderOptions

    /// Makes `unit`'s output under its final name, or throws and leaves nothing behind.
    func make(_ unit: WorkUnit) throws {
        let destination = BundlePaths.join(bundle, unit.output)
        switch unit.kind {
        case .clip:
            try ClipPlacement.place(unit.source, at: destination, link: options.clipMode == .link)
        case .poster:
            let clip = try ClipFrameSource(path: unit.source, timeout: options.timeout)
            let image = try clip.posterFrame(size: posterSize(width: clip.displayWidth, height: clip.displayHeight))
            try writeJPEG(image, to: destination)
        case .thumbnail:
            let clip = try ClipFrameSource(path: unit.source, timeout: options.timeout)
            try writeJPEG(try clip.posterFrame(size: .width(RenderOptions.thumbnailWidth)), to: destination)
        case .avatar:
            let side = RenderOptions.avatarSize
            let image = try StillImage.load(
                path: unit.source, size: .fill(width: side, height: side), timeout: options.timeout)
            try writeJPEG(image, to: destination)
        case .transition:
            guard let faces = unit.faces else { return }
            var spec = CubeTransitionJob.Parameters()
            spec.width = options.canvasWidth
            spec.height = options.canvasHeight
            spec.fps = options.fps
            spec.duration = options.transitionDuration
            spec.direction = faces.direction == "forward" ? .forward : .backward
            spec.threads = max(1, Parallel.coreCount / max(1, options.jobs))
            _ = try CubeTransitionJob(
                from: faces.fromClip, to: faces.toClip, parameters: spec, timeout: options.timeout
            )
            .writeVideo(to: destination)
        }
    }

    /// The display size, shrunk to fit inside the canvas when it is larger.
    private func posterSize(width: Int, height: Int) -> FrameSize {
        guard width > options.canvasWidth || height > options.canvasHeight else { return .original }
        let widthLimited = Double(options.canvasWidth) / Double(width) <= Double(options.canvasHeight) / Double(height)
        return widthLimited ? .width(options.canvasWidth) : .height(options.canvasHeight)
    }

    private func writeJPEG(_ image: RGBAImageBuffer, to path: String) throws {
        try AtomicFile.write(try ImageEncoder.encode(image, format: .jpeg, quality: 85), to: path)
    }
}
