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
    /// All work units, sorted by output path; an output shared by several items (the same clip
    /// twice) is made by one unit.
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
                    sha256: try ContentHasher.sha256(ofFileAt: absolute, timeout: timeout), info: info, path: absolute)
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
                    items.append(
                        .init(
                            path: clip, absolutePath: BundlePaths.join(root, clip), record: record,
                            outputs: try itemOutputs(clip: clip, record: record, options: options)))
                case .failure(let error):
                    skipped.append(SkippedEntry(path: clip, story: source.handle, reason: error.reason))
                }
                position += 1
            }
            guard !items.isEmpty else {
                skipped.append(SkippedEntry(path: source.handle, story: source.handle, reason: "no playable clip"))
                continue
            }
            var story = ResolvedStory(source: source, items: items)
            if let relative = source.avatar {
                let absolute = BundlePaths.join(root, relative)
                do {
                    let sha256 = try ContentHasher.sha256(
                        ofFileAt: absolute, timeout: options.timeout, maxSize: StillImage.maximumFileSize)
                    story.avatar = (absolute, sha256)
                    let avatarKey = try key(["avatar", sha256, "\(RenderOptions.avatarSize)"])
                    story.avatarOutput = "avatars/\(avatarKey).jpg"
                } catch {
                    skipped.append(
                        SkippedEntry(path: relative, story: source.handle, reason: MediaError.reason(of: error)))
                }
            }
            stories.append(story)
        }
        var units: [WorkUnit] = []
        for story in stories {
            for item in story.items {
                let outputs = item.outputs
                let unit = { (kind: WorkUnit.Kind, key: String, output: String) in
                    WorkUnit(
                        kind: kind, key: key, output: output, story: story.id, source: item.absolutePath,
                        sourceLabel: item.path)
                }
                if let clip = outputs.clip { units.append(unit(.clip, item.record.sha256, clip)) }
                units.append(unit(.poster, outputKey(outputs.poster), outputs.poster))
                units.append(unit(.thumbnail, outputKey(outputs.thumbnail), outputs.thumbnail))
            }
            if let avatar = story.avatar, let output = story.avatarOutput {
                units.append(
                    WorkUnit(
                        kind: .avatar, key: outputKey(output), output: output, story: story.id, source: avatar.path,
                        sourceLabel: story.source.avatar ?? ""))
            }
        }
        units += try transitionUnits(between: stories, options: options)
        return BundlePlan(stories: stories, units: unique(units), skipped: skipped, options: options)
    }

    /// The units of this shard (all of them when `options.shard` is nil): unit i of the sorted
    /// list belongs to shard (i mod N) + 1.
    public var shardUnits: [WorkUnit] {
        guard let shard = options.shard else { return units }
        return units.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
    }

    /// The transitions between consecutive `stories`, in play order: story i's forward turn to
    /// story i+1 (from the last frame of its last item to the first frame of the next story's
    /// first item), then, with `--both-directions`, the backward turn from i+1 to i (both first
    /// frames).
    public static func transitionUnits(between stories: [ResolvedStory], options: RenderOptions) throws
        -> [WorkUnit]
    {
        var units: [WorkUnit] = []
        for (from, to) in zip(stories, stories.dropFirst()) {
            units.append(try transitionUnit(from: from, to: to, direction: "forward", options: options))
            if options.bothDirections {
                units.append(try transitionUnit(from: to, to: from, direction: "backward", options: options))
            }
        }
        return units
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

    /// The outputs an item plays from: its clip's copy (named by the clip's id), its poster and
    /// its thumbnail (named by keys of the clip's hash and their parameters).
    private static func itemOutputs(clip: String, record: ClipRecord, options: RenderOptions) throws
        -> ResolvedStory.ItemOutputs
    {
        let sha = record.sha256
        let canvas = "\(options.canvasWidth)x\(options.canvasHeight)"
        let copy =
            options.clipMode == .reference ? nil : "clips/\(record.id).\((clip as NSString).pathExtension.lowercased())"
        return .init(
            clip: copy, poster: "posters/\(try key(["poster", sha, canvas])).jpg",
            thumbnail: "thumbs/\(try key(["thumbnail", sha, "\(RenderOptions.thumbnailWidth)"])).jpg")
    }

    /// The key an output's name carries: its file name without the extension.
    private static func outputKey(_ output: String) -> String {
        ((output as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// One unit per output (the first one planned), sorted by output path.
    private static func unique(_ units: [WorkUnit]) -> [WorkUnit] {
        var seen = Set<String>()
        return units.filter { seen.insert($0.output).inserted }.sorted { $0.output < $1.output }
    }

    /// Forward: last frame of `from`'s last item to the first frame of `to`'s first item.
    /// Backward (going back from `from` to the previous story `to`): both faces are first frames.
    private static func transitionUnit(
        from: ResolvedStory, to: ResolvedStory, direction: String, options: RenderOptions
    ) throws -> WorkUnit {
        guard let fromItem = direction == "forward" ? from.items.last : from.items.first, let toItem = to.items.first
        else { throw MediaError(.invalidMedia, path: from.id, "a story without items has no transition") }
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
