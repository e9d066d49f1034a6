import Foundation
import StoryMedia

/// `storyreel ingest`: adds uploaded clips to a story folder safely. Each clip must inspect
/// cleanly (no warning, such as a truncated upload), have video and a duration in (0, max]; it is copied (never moved) through a
/// dot-prefixed temp name that a concurrent render ignores, and named with a sequence number
/// one above the highest in the folder, e.g. `0007-IMG_1539.MOV`, so that it plays after the
/// numbered clips; existing clips whose names do not start with a number still play after it,
/// and the outcome names them.
public struct ClipIngester: Sendable {
    /// The stories folder.
    public var storiesFolder: String
    /// The story's handle.
    public var handle: String
    /// The longest clip accepted, in seconds.
    public var maxDuration: Double
    /// Per-clip deadline in seconds.
    public var timeout: Double

    /// An ingester into `storiesFolder/handle/`.
    public init(storiesFolder: String, handle: String, maxDuration: Double = 60, timeout: Double = 30) {
        self.storiesFolder = storiesFolder
        self.handle = handle
        self.maxDuration = maxDuration
        self.timeout = timeout
    }

    /// Ingests `clips` in order; a rejected clip does not stop the others.
    public func ingest(_ clips: [String]) throws -> [IngestOutcome] {
        let folder = BundlePaths.join(storiesFolder, handle)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw MediaError(.cannotCreateOutput, path: folder, "cannot create the story folder")
        }
        let existing = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter(StoryInput.isClipFileName)
        var knownHashes: [String: String] = [:]
        for name in existing {
            if let sha = try? ContentHasher.sha256(ofFileAt: BundlePaths.join(folder, name)) { knownHashes[sha] = name }
        }
        var sequence = existing.compactMap { Int($0.prefix { $0.isASCII && $0.isNumber }) }.max() ?? 0
        return clips.map { clip in
            do {
                let info = try ClipProbe.inspect(path: clip, timeout: timeout)
                if let warning = info.warnings.first { return .rejected(reason: warning) }
                guard info.video != nil else { return .rejected(reason: "no video stream") }
                guard let duration = info.duration, duration > 0 else { return .rejected(reason: "no duration") }
                guard duration <= maxDuration else {
                    return .rejected(
                        reason: String(format: "%.1f s is longer than --max-duration %g s", duration, maxDuration))
                }
                let sha = try ContentHasher.sha256(ofFileAt: clip)
                if let name = knownHashes[sha] { return .alreadyPresent(name: name) }
                sequence += 1
                let name = String(format: "%04d-", sequence) + (clip as NSString).lastPathComponent
                try ClipPlacement.place(clip, at: BundlePaths.join(folder, name), link: false)
                knownHashes[sha] = name
                let later = existing.filter { NaturalOrder.areInIncreasingOrder(name, $0) }
                return .ingested(name: name, playsBefore: later.sorted(by: NaturalOrder.areInIncreasingOrder))
            } catch {
                return .rejected(reason: MediaError.reason(of: error))
            }
        }
    }
}
