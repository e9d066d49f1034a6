import Foundation
import StoryMedia

/// Everything a render will produce, as content-keyed work units, from a resolved input.
/// The same input and options always give the same units in the same order, so the plan can be
/// split into shards that different machines render.
public struct BundlePlan: Sendable {
    /// The version of the rendering code, part of every key: bump it when outputs change.
    public static let rendererVersion = "storyreel-render-1"
    /// storyreel's version, printed by `--version` and written into manifests as the generator.
    public static let toolVersion = "0.1.0"

    /// Stories with at least one playable clip, in play order.
    public var stories: [ResolvedStory]
    /// All work units, sorted by output path.
    public var units: [WorkUnit]
    /// What was left out, with reasons.
    public var skipped: [SkippedEntry]
    /// The options the plan was made with.
    public var options: RenderOptions

    /// Resolves `input` (hashing and probing clips, or taking them from `cache`) and lists the work.
    public static func make(input: StoryInput, options: RenderOptions, cache: StatCache?) throws -> BundlePlan {
        let root = URL(fileURLWithPath: input.root).standardizedFileURL.path
        let clipPaths = input.stories.flatMap(\.clips)
        let timeout = options.timeout
        let records: [Result<ClipRecord, MediaError>] = Parallel.map(clipPaths.count, jobs: options.jobs) { index in
            let absolute = BundlePaths.join(root, clipPaths[index])
            if let cached = cache?.record(for: absolute) { return .success(cached) }
            do {
                let info = try ClipProbe.inspect(path: absolute, timeout: timeout)
                let record = try ClipRecord(
                    sha256: try ContentHasher.sha256(ofFileAt: absolute), info: info, path: absolute)
                cache?.store(record, for: absolute)
                return .success(record)
            } catch {
                return .failure((error as? MediaError) ?? MediaError(.ioFailure, path: absolute, "\(error)"))
            }
        }
        var skipped = input.skipped
        var stories: [ResolvedStory] = []
        var position = 0
        for source in input.stories {
            var items: [ResolvedStory.Item] = []
            for clip in source.clips {
                switch records[position] {
                case .success(let record):
                    items.append(.init(path: clip, absolutePath: BundlePaths.join(root, clip), record: record))
                case .failure(let error):
                    skipped.append(SkippedEntry(path: clip, story: source.handle, reason: error.reason))
                }
                position += 1
            }
            guard !items.isEmpty else {
                skipped.append(SkippedEntry(path: source.handle, story: source.handle, reason: "no playable clip"))
                continue
            }
            var avatar: (String, String)?
            if let relative = source.avatar {
                let absolute = BundlePaths.join(root, relative)
                do {
                    avatar = (absolute, try ContentHasher.sha256(ofFileAt: absolute))
                } catch {
                    skipped.append(
                        SkippedEntry(
                            path: relative, story: source.handle, reason: MediaError.reason(of: error)))
                }
            }
            stories.append(ResolvedStory(source: source, items: items, avatar: avatar))
        }
        let units = try workUnits(for: stories, root: root, options: options)
        return BundlePlan(stories: stories, units: units, skipped: skipped, options: options)
    }

    /// The units of this shard (all of them when `options.shard` is nil): unit i of the sorted
    /// list belongs to shard (i mod N) + 1.
    public var shardUnits: [WorkUnit] {
        guard let shard = options.shard else { return units }
        return units.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
    }

    static func key(_ parts: [String]) throws -> String {
        String(try ContentHasher.sha256(of: ([rendererVersion] + parts).joined(separator: "|")).prefix(20))
    }

    /// The transition parameters that go into a transition's key.
    static func transitionParameters(_ options: RenderOptions) -> [String] {
        [
            "\(options.canvasWidth)x\(options.canvasHeight)", "fps=\(options.fps)",
            "duration=\(options.transitionDuration)",
            "smooth", "perspective=2.667", "shade=0.3", "h264", "crf=20",
        ]
    }

    private static func workUnits(for stories: [ResolvedStory], root: String, options: RenderOptions) throws
        -> [WorkUnit]
    {
        var units: [WorkUnit] = []
        let canvas = "\(options.canvasWidth)x\(options.canvasHeight)"
        for story in stories {
            for item in story.items {
                let sha = item.record.sha256
                if options.clipMode != .reference {
                    let ext = (item.path as NSString).pathExtension.lowercased()
                    units.append(
                        WorkUnit(
                            kind: .clip, key: sha, output: "clips/\(item.record.id).\(ext)", story: story.id,
                            source: item.absolutePath, sourceLabel: item.path))
                }
                let posterKey = try key(["poster", sha, canvas])
                units.append(
                    WorkUnit(
                        kind: .poster, key: posterKey, output: "posters/\(posterKey).jpg", story: story.id,
                        source: item.absolutePath, sourceLabel: item.path))
                let thumbKey = try key(["thumbnail", sha, "\(RenderOptions.thumbnailWidth)"])
                units.append(
                    WorkUnit(
                        kind: .thumbnail, key: thumbKey, output: "thumbs/\(thumbKey).jpg", story: story.id,
                        source: item.absolutePath, sourceLabel: item.path))
            }
            if let avatar = story.avatar {
                let avatarKey = try key(["avatar", avatar.sha256, "\(RenderOptions.avatarSize)"])
                units.append(
                    WorkUnit(
                        kind: .avatar, key: avatarKey, output: "avatars/\(avatarKey).jpg", story: story.id,
                        source: avatar.path, sourceLabel: story.source.avatar ?? ""))
            }
        }
        for (from, to) in zip(stories, stories.dropFirst()) {
            units.append(try transitionUnit(from: from, to: to, direction: "forward", options: options))
            if options.bothDirections {
                units.append(try transitionUnit(from: to, to: from, direction: "backward", options: options))
            }
        }
        // Clips share a key when two stories hold the same file; one unit makes it.
        var seen = Set<String>()
        return units.filter { seen.insert($0.output).inserted }.sorted { $0.output < $1.output }
    }

    /// Forward: last frame of `from`'s last item to the first frame of `to`'s first item.
    /// Backward (going back from `from` to the previous story `to`): both faces are first frames.
    private static func transitionUnit(
        from: ResolvedStory, to: ResolvedStory, direction: String, options: RenderOptions
    ) throws -> WorkUnit {
        let fromItem = direction == "forward" ? from.items.last! : from.items.first!
        let toItem = to.items.first!
        let fromFace = direction == "forward" ? "last" : "first"
        let unitKey = try key(
            ["transition", direction, fromItem.record.sha256 + ":" + fromFace, toItem.record.sha256 + ":first"]
                + transitionParameters(options))
        return WorkUnit(
            kind: .transition, key: unitKey, output: "transitions/\(unitKey).mp4", story: from.id,
            source: fromItem.absolutePath, sourceLabel: fromItem.path,
            faces: .init(
                fromStory: from.id, toStory: to.id, fromClip: fromItem.absolutePath, toClip: toItem.absolutePath,
                direction: direction))
    }
}
