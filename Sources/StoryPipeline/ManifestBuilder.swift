import Foundation

/// Writes `manifest.json` from a plan and what exists in the bundle: deterministic (no
/// timestamps, no absolute paths, nothing from the bundle's name), keys in a fixed order,
/// paths relative to the manifest.
struct ManifestBuilder {
    /// The manifest and what it references.
    struct Result {
        /// The manifest.
        var value: JSONValue
        /// Every bundle-relative file the manifest points at.
        var referencedFiles: Set<String>
        /// The skipped entries, including items whose outputs are missing.
        var skipped: [SkippedEntry]
    }

    let plan: BundlePlan
    let bundle: String
    let inputRoot: String

    /// Builds the manifest; an item or transition whose output is missing is left out and
    /// listed in `skipped` (it already is when its unit failed in this run).
    func build(skipped initial: [SkippedEntry]) -> Result {
        var skipped = initial
        var referenced = Set<String>()
        let outputs = Dictionary(plan.units.map { ("\($0.kind.rawValue)|\($0.sourceLabel)|\($0.story)", $0.output) }) {
            a, _ in a
        }
        func output(_ kind: WorkUnit.Kind, _ label: String, _ story: String) -> String? {
            guard let path = outputs["\(kind.rawValue)|\(label)|\(story)"],
                FileManager.default.fileExists(atPath: BundlePaths.join(bundle, path))
            else { return nil }
            return path
        }
        var stories: [JSONValue] = []
        var total = 0.0
        for story in plan.stories {
            var items: [JSONValue] = []
            var storyDuration = 0.0
            for item in story.items {
                let source: String?
                if plan.options.clipMode == .reference {
                    source = BundlePaths.relative(
                        item.absolutePath, from: URL(fileURLWithPath: bundle).standardizedFileURL.path)
                } else {
                    source = output(.clip, item.path, story.id)
                }
                guard let source, let poster = output(.poster, item.path, story.id),
                    let thumbnail = output(.thumbnail, item.path, story.id)
                else {
                    if !skipped.contains(where: { $0.path == item.path }) {
                        skipped.append(
                            SkippedEntry(path: item.path, story: story.id, reason: "its outputs are missing"))
                    }
                    continue
                }
                if plan.options.clipMode != .reference { referenced.insert(source) }
                referenced.formUnion([poster, thumbnail])
                let record = item.record
                storyDuration += record.duration
                items.append(
                    .object([
                        ("id", .string(record.id)), ("src", .string(source)), ("sha256", .string(record.sha256)),
                        ("duration", .number(record.duration)), ("width", .int(record.width)),
                        ("height", .int(record.height)), ("rotation", .int(record.rotation)),
                        ("frameRate", .number(record.frameRate)), ("codec", .string(record.codec)),
                        ("hdr", .string(record.hdr)), ("hasAudio", .bool(record.hasAudio)),
                        ("poster", .string(poster)), ("thumbnail", .string(thumbnail)),
                    ]))
            }
            let avatar = story.source.avatar.flatMap { output(.avatar, $0, story.id) }
            if let avatar { referenced.insert(avatar) }
            total += storyDuration
            stories.append(
                .object([
                    ("id", .string(story.id)),
                    (
                        "user",
                        .object([
                            ("handle", .string(story.source.handle)),
                            ("displayName", .string(story.source.displayName)),
                            ("avatar", .string(avatar)),
                        ])
                    ),
                    ("isRead", .bool(story.source.isRead)), ("duration", .number(storyDuration)),
                    ("items", .array(items)),
                ]))
        }
        let options = plan.options
        let frames = Int((options.transitionDuration * options.fps).rounded())
        var transitions: [JSONValue] = []
        for unit in plan.units where unit.kind == .transition {
            guard let faces = unit.faces, FileManager.default.fileExists(atPath: BundlePaths.join(bundle, unit.output))
            else { continue }
            referenced.insert(unit.output)
            transitions.append(
                .object([
                    ("from", .string(faces.fromStory)), ("to", .string(faces.toStory)),
                    ("direction", .string(faces.direction)), ("src", .string(unit.output)), ("frames", .int(frames)),
                    ("fps", .number(options.fps)), ("duration", .number(Double(frames) / options.fps)),
                    ("width", .int(options.canvasWidth)), ("height", .int(options.canvasHeight)),
                ]))
        }
        // Transitions in play order: forward ones by their outgoing story's position.
        let position = Dictionary(uniqueKeysWithValues: plan.stories.enumerated().map { ($0.element.id, $0.offset) })
        transitions.sort { a, b in transitionOrder(a, position).lexicographicallyPrecedes(transitionOrder(b, position))
        }
        let value = JSONValue.object([
            ("version", .int(1)),
            ("generator", .string("storyreel \(BundlePlan.toolVersion)")),
            ("canvas", .object([("width", .int(options.canvasWidth)), ("height", .int(options.canvasHeight))])),
            ("duration", .number(total)),
            ("stories", .array(stories)),
            ("transitions", .array(transitions)),
            (
                "skipped",
                .array(
                    skipped.map { entry in
                        .object([
                            ("path", .string(entry.path)), ("story", .string(entry.story)),
                            ("reason", .string(entry.reason)),
                        ])
                    })
            ),
        ])
        return Result(value: value, referencedFiles: referenced, skipped: skipped)
    }

    private func transitionOrder(_ value: JSONValue, _ position: [String: Int]) -> [Int] {
        guard case .object(let members) = value else { return [] }
        let fields = Dictionary(members.map { ($0.0, $0.1) }) { a, _ in a }
        guard case .string(let from)? = fields["from"], case .string(let to)? = fields["to"],
            case .string(let direction)? = fields["direction"]
        else { return [] }
        let a = position[from] ?? 0
        let b = position[to] ?? 0
        return [min(a, b), direction == "forward" ? 0 : 1]
    }
}
