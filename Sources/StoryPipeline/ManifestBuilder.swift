import Foundation

/// Writes `manifest.json` from the stories and transitions that play: deterministic (no
/// timestamps, no absolute paths, nothing from the bundle's name), keys in a fixed order,
/// paths relative to the manifest.
struct ManifestBuilder {
    /// The manifest and what it references.
    struct Result {
        /// The manifest.
        var value: JSONValue
        /// Every bundle-relative file the manifest points at.
        var referencedFiles: Set<String>
    }

    /// Stories that play, each with only its playable items, in play order.
    let stories: [ResolvedStory]
    /// Transitions between them whose outputs exist, in play order.
    let transitions: [WorkUnit]
    /// What was left out, with reasons.
    let skipped: [SkippedEntry]
    /// The plan (the canvas and the settings).
    let plan: BundlePlan
    /// The bundle folder (for `--reference` paths).
    let bundle: String

    /// Builds the manifest. Item ids are the first 16 hex digits of the clip's hash; the same
    /// content playing again (a repost) gets `-2`, `-3` … in play order, so ids stay unique.
    func build() -> Result {
        var referenced = Set<String>()
        var occurrences: [String: Int] = [:]
        var stories: [JSONValue] = []
        var total = 0.0
        let bundleFolder = URL(fileURLWithPath: bundle).standardizedFileURL.path
        for story in self.stories {
            var items: [JSONValue] = []
            var storyDuration = 0.0
            for item in story.items {
                let record = item.record
                let source = item.outputs.clip ?? BundlePaths.relative(item.absolutePath, from: bundleFolder)
                referenced.formUnion(item.outputs.all)
                occurrences[record.id, default: 0] += 1
                let occurrence = occurrences[record.id] ?? 1
                storyDuration += record.duration
                items.append(
                    .object([
                        ("id", .string(occurrence == 1 ? record.id : "\(record.id)-\(occurrence)")),
                        ("src", .string(source)), ("sha256", .string(record.sha256)),
                        ("duration", .number(record.duration)), ("width", .int(record.width)),
                        ("height", .int(record.height)), ("rotation", .int(record.rotation)),
                        ("frameRate", .number(record.frameRate)), ("codec", .string(record.codec)),
                        ("hdr", .string(record.hdr)), ("hasAudio", .bool(record.hasAudio)),
                        ("poster", .string(item.outputs.poster)), ("thumbnail", .string(item.outputs.thumbnail)),
                        ("firstFrame", .string(item.outputs.firstFrame)),
                        ("lastFrame", .string(item.outputs.lastFrame)),
                    ]))
            }
            if let avatar = story.avatarOutput { referenced.insert(avatar) }
            total += storyDuration
            stories.append(
                .object([
                    ("id", .string(story.id)),
                    (
                        "user",
                        .object([
                            ("handle", .string(story.source.handle)),
                            ("displayName", .string(story.source.displayName)),
                            ("avatar", .string(story.avatarOutput)),
                        ])
                    ),
                    ("isRead", .bool(story.source.isRead)), ("duration", .number(storyDuration)),
                    ("items", .array(items)),
                ]))
        }
        var transitions: [JSONValue] = []
        for unit in self.transitions {
            guard let transition = unit.transition else { continue }
            let parameters = transition.parameters
            // The frame count the renderer made the clip with.
            let frames = CubeTransitionJob(from: transition.fromClip, to: transition.toClip, parameters: parameters)
                .frameCount
            referenced.insert(unit.output)
            transitions.append(
                .object([
                    ("from", .string(transition.fromStory)), ("to", .string(transition.toStory)),
                    ("direction", .string(transition.direction.rawValue)), ("src", .string(unit.output)),
                    ("frames", .int(frames)), ("fps", .number(parameters.fps)),
                    ("duration", .number(Double(frames) / parameters.fps)),
                    ("width", .int(plan.canvasWidth)), ("height", .int(plan.canvasHeight)),
                ]))
        }
        let value = JSONValue.object([
            ("version", .int(1)),
            ("generator", .string("storyreel \(BundlePlan.toolVersion)")),
            ("canvas", .object([("width", .int(plan.canvasWidth)), ("height", .int(plan.canvasHeight))])),
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
        return Result(value: value, referencedFiles: referenced)
    }
}
