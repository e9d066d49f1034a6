import Foundation
import StoryMedia

/// Writes `manifest.json` from the stories and transitions that play: deterministic (no
/// timestamps, no absolute paths, nothing from the bundle's name), keys in a fixed order,
/// paths relative to the manifest.
struct ManifestBuilder {
    /// The manifest and what it references.
    struct Result {
        /// The manifest.
        var manifest: Manifest
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
    /// The bundle's ledger, which keeps each transition's codecs string once read; nil reads
    /// every transition.
    var ledger: BundleLedger? = nil

    /// `seconds` rounded to the microsecond, ffprobe's precision: a sum of durations is written
    /// as `0.3`, not `0.30000000000000004` (the items' own durations already are such values),
    /// and 7 frames at 24 fps as `0.291667`, not `0.2916666666666667` (an end-to-end QA pass).
    static func microseconds(_ seconds: Double) -> Double {
        seconds.isFinite ? (seconds * 1_000_000).rounded() / 1_000_000 : seconds
    }

    /// Builds the manifest. Item ids are the first 16 hex digits of the clip's hash; the same
    /// content playing again (a repost) gets `-2`, `-3` … in play order, so ids stay unique.
    /// Throws a ``MediaError/Kind/systemLimit`` error met reading a transition's header (out of
    /// open files, FFmpeg's libraries not loadable): that is no transition's fault, and a
    /// manifest written without its codecs would drop them silently (a QA pass).
    func build() throws -> Result {
        var referenced = Set<String>()
        var occurrences: [String: Int] = [:]
        var stories: [Manifest.Story] = []
        var total = 0.0
        let bundleFolder = URL(fileURLWithPath: bundle).standardizedFileURL.path
        for story in self.stories {
            var items: [Manifest.Item] = []
            var storyDuration = 0.0
            for item in story.items {
                let record = item.record
                referenced.formUnion(item.outputs.all)
                let src = item.outputs.clip ?? BundlePaths.relative(item.absolutePath, from: bundleFolder)
                // A `--reference` clip inside the bundle (a spec naming `clips/….mp4`) is a file
                // the manifest uses like any other: `--prune` keeps it (a re-check QA pass: one
                // that hashed to its name was taken for an unrecorded copy and removed).
                referenced.insert(src)
                occurrences[record.id, default: 0] += 1
                let occurrence = occurrences[record.id] ?? 1
                storyDuration += record.duration
                items.append(
                    Manifest.Item(
                        id: occurrence == 1 ? record.id : "\(record.id)-\(occurrence)",
                        src: src,
                        sha256: record.sha256, duration: record.duration, width: record.width, height: record.height,
                        rotation: record.rotation, frameRate: record.frameRate, codec: record.codec,
                        codecs: record.codecs, hdr: record.hdr, hasAudio: record.hasAudio,
                        audioCodecs: record.audioCodecs, poster: item.outputs.poster, thumbnail: item.outputs.thumbnail,
                        firstFrame: item.outputs.firstFrame, lastFrame: item.outputs.lastFrame))
            }
            if let avatar = story.avatarOutput { referenced.insert(avatar) }
            storyDuration = Self.microseconds(storyDuration)
            total += storyDuration
            let user = Manifest.User(
                handle: story.source.handle, displayName: story.source.displayName, avatar: story.avatarOutput)
            stories.append(
                Manifest.Story(
                    id: story.id, user: user, isRead: story.source.isRead, duration: storyDuration, items: items))
        }
        total = Self.microseconds(total)
        var transitions: [Manifest.Transition] = []
        for unit in self.transitions {
            guard let transition = unit.transition else { continue }
            let parameters = transition.parameters
            // The frame count the renderer made the clip with.
            let frames = CubeTransitionJob(from: transition.fromClip, to: transition.toClip, parameters: parameters)
                .frameCount
            referenced.insert(unit.output)
            transitions.append(
                Manifest.Transition(
                    from: transition.fromStory, to: transition.toStory,
                    direction: transition.direction == .forward ? .forward : .backward, src: unit.output,
                    frames: frames, fps: parameters.fps, duration: Self.microseconds(Double(frames) / parameters.fps),
                    width: plan.canvasWidth, height: plan.canvasHeight,
                    codecs: try codecs(ofTransition: unit.output)))
        }
        let manifest = Manifest(
            generator: BundleGenerator.current,
            canvas: Manifest.Size(width: plan.canvasWidth, height: plan.canvasHeight), duration: total,
            stories: stories, transitions: transitions,
            skipped: skipped.map { $0.insideBundle(bundle) })
        return Result(manifest: manifest, referencedFiles: referenced)
    }

    /// The RFC 6381 codecs string of the transition at bundle-relative `output`, read from its
    /// header (the encoder's profile and level are known only once it has run, and a cached
    /// transition was encoded by an earlier run) and kept in the ledger, so that a no-op re-run
    /// opens no media file; nil when its header cannot be read. Rethrows a
    /// ``MediaError/Kind/systemLimit`` error.
    private func codecs(ofTransition output: String) throws -> String? {
        if let known = ledger?.codecs(of: output) { return known }
        let path = BundlePaths.join(bundle, output)
        let stamp = FileStamp(path: path, followingLinks: false)
        let info: ClipInfo
        do {
            info = try ClipProbe.inspect(path: path, timeout: 5)
        } catch let error as MediaError where error.kind == .systemLimit {
            throw error
        } catch {
            return nil
        }
        guard let codecs = info.video?.codecs else { return nil }
        if let stamp { ledger?.noteCodecs(codecs, of: output, readAt: stamp) }
        return codecs
    }
}
