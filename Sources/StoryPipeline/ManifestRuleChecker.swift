import Foundation
import StoryMedia

/// What a decoded ``Manifest`` must satisfy beyond its types, checked in document order with one
/// problem line per fault, each starting with its JSON path: the manifest's and each story's
/// `duration` are the sums of their items' durations, story ids and item ids are unique, a
/// story's id is its user's handle, an item id is its clip's SHA-256 prefix, transitions join
/// adjacent stories that exist, one per pair and direction, and last their frames at their rate
/// on the canvas, every referenced file is a regular file inside
/// the bundle, each clip still has its recorded SHA-256, each image is a whole JPEG and each
/// transition a whole clip of its frames and size (``OutputIntegrity``). Files are found by
/// ``BundleFileResolver`` and read through ``RegularFile`` with a deadline; a clip that plays
/// twice is hashed once.
struct ManifestRuleChecker {
    /// The problems found so far, in document order.
    private(set) var problems: [String] = []
    private let resolver: BundleFileResolver
    private let timeout: Double?
    /// Story ids and where they first appear, for uniqueness and transitions.
    private var storyIndex: [String: Int] = [:]
    /// Item ids and where they first appear.
    private var itemPaths: [String: String] = [:]
    /// Each transition's stories and direction, and where it first appears: a player keeps one.
    private var transitionPaths: [String: String] = [:]
    /// SHA-256 of the clips already hashed, by identity.
    private var hashes: [FileIdentity: Result<String, MediaError>] = [:]
    /// The clips already probed, by identity.
    private var probedClips: [FileIdentity: ProbedClip] = [:]
    /// Images already checked (a repost shares its poster), by identity and the size expected.
    private var checkedImages: Set<ImageCheck> = []
    /// Each referenced path as the resolver found it: a path named again is not walked again.
    private var resolved: [String: BundleFileResolver.Outcome] = [:]
    /// Each transition clip's problem (nil: none), by the clip's identity and what it must hold:
    /// a clip named again is not probed again.
    private var transitionProblems: [TransitionCheck: String?] = [:]
    /// The manifest's canvas, which every transition fills.
    private var canvas = Manifest.Size(width: 0, height: 0)

    /// An image and the size one use of it expects: the same file used where another size is
    /// expected (a poster given as a thumbnail) is checked again.
    private struct ImageCheck: Hashable {
        let relative: String
        let identity: FileIdentity
        let width: Int?
        let height: Int?
        let tolerance: Int
    }

    /// What a clip's header says of it: its probe, or why it cannot be read as a clip.
    private enum ProbedClip {
        case info(ClipInfo)
        case unreadable(String)

        init(path: String, timeout: Double?) {
            do {
                self = .info(try ClipProbe.inspect(path: path, timeout: timeout))
            } catch {
                self = .unreadable(MediaError.reason(of: error))
            }
        }
    }

    /// A transition clip and the frames, size and codecs its entry says it has.
    private struct TransitionCheck: Hashable {
        let relative: String
        let identity: FileIdentity
        let frames: Int
        let fps: Double
        let width: Int
        let height: Int
        let codecs: String?
    }

    /// A checker resolving files with `resolver` and giving each clip `timeout` seconds to hash.
    init(resolver: BundleFileResolver, timeout: Double?) {
        self.resolver = resolver
        self.timeout = timeout
    }

    /// Checks a whole manifest.
    mutating func check(_ manifest: Manifest) {
        canvas = manifest.canvas
        checkDuration(manifest.duration, of: manifest.stories.flatMap(\.items), at: "duration", "every item's duration")
        for (index, story) in manifest.stories.enumerated() {
            check(story, index: index)
        }
        for (index, transition) in manifest.transitions.enumerated() {
            check(transition, at: "transitions[\(index)]")
        }
        // The player page beside the manifest, when there is one (a --no-player bundle has none),
        // is published with it: a file of the bundle's, as the ones the manifest names are (a QA
        // pass: a page that was a symlink to /etc/passwd validated).
        if case .problem(let reason) = resolver.resolve("index.html") {
            report("index.html", "the player page \(reason)")
        }
    }

    /// How far a duration may be from the sum it states: a millisecond, far above what adding
    /// up doubles in another order can differ by, far below what a player would notice.
    static let durationTolerance = 0.001

    /// Reports `duration` unless it is the sum of `items`' durations, within
    /// ``durationTolerance``. Items with a duration the schema faults (not above 0) make no
    /// sum worth comparing: the schema has reported them.
    private mutating func checkDuration(
        _ duration: Double, of items: [Manifest.Item], at path: String, _ sumOfWhat: String
    ) {
        guard items.allSatisfy({ $0.duration > 0 }) else { return }
        let sum = items.reduce(0) { $0 + $1.duration }
        guard sum.isFinite else {
            // Items near Double's limit (1e308 s): no sum to compare with, and no clip lasts that long.
            report(path, "expected the sum of \(sumOfWhat), which is more than a number holds: one is far too long")
            return
        }
        let isTheSum = abs(duration - sum) <= Self.durationTolerance
        if !isTheSum {
            report(
                path,
                "expected \(Self.seconds(sum)), the sum of \(sumOfWhat), got \(ManifestSchemaChecker.format(duration))")
        }
    }

    /// A manifest's string as a problem line quotes it: escaped, and cut at 80 characters with
    /// `…` (a QA pass: a 5 MB id made a 5 MB line).
    private static func quoted(_ text: String) -> String { ManifestSchemaChecker.describe(.string(text)) }

    /// A manifest's path as a problem line shows it: cut at 160 characters with `…` (a review:
    /// a 100 KB `src` that cannot be read was printed whole).
    private static func shown(_ path: String) -> String { path.shortened(to: 160) }

    /// Seconds to the millisecond, without needless zeros: `18.5`, `2.467`, `10`.
    private static func seconds(_ value: Double) -> String {
        // Past 1e15 s a millisecond is below a Double's step (and × 1000 overflows near 1e308).
        guard value.isFinite, abs(value) < 1e15 else { return ManifestSchemaChecker.format(value) }
        return ManifestSchemaChecker.format((value * 1000).rounded() / 1000)
    }

    /// True when problems past ``ManifestValidator/problemLimit`` were found and not kept.
    private(set) var isCut = false

    private mutating func report(_ path: String, _ message: String) {
        guard problems.count < ManifestValidator.problemLimit else {
            isCut = true
            return
        }
        problems.append("\(path): \(message)")
    }

    private mutating func check(_ story: Manifest.Story, index: Int) {
        let path = "stories[\(index)]"
        if let first = storyIndex[story.id] {
            report("\(path).id", "\(Self.quoted(story.id)) is also the id of stories[\(first)]")
        } else {
            storyIndex[story.id] = index
        }
        if story.user.handle != story.id {
            // Players key transitions by the id and show the handle: they are one name.
            report(
                "\(path).user.handle",
                "expected the story's id, \(Self.quoted(story.id)), got \(Self.quoted(story.user.handle))")
        }
        checkDuration(story.duration, of: story.items, at: "\(path).duration", "its items' durations")
        if let avatar = story.user.avatar {
            checkImage(avatar, at: "\(path).user.avatar", size: ImageSize.avatar)
        }
        for (itemIndex, item) in story.items.enumerated() {
            check(item, at: "\(path).items[\(itemIndex)]")
        }
    }

    private mutating func check(_ item: Manifest.Item, at path: String) {
        if let first = itemPaths[item.id] {
            report("\(path).id", "\(Self.quoted(item.id)) is also the id of \(first)")
        } else {
            itemPaths[item.id] = path
        }
        if !item.sha256.hasPrefix(String(item.id.prefix(16))) {
            report("\(path).id", "does not start with the first 16 hex digits of its sha256")
        }
        // Each image is the size render makes it at: the poster and the thumbnail from the clip's
        // display size, the first- and last-frame stills filling the canvas.
        let images: [(WorkUnit.Kind, String, String?)] = [
            (.poster, "poster", item.poster), (.thumbnail, "thumbnail", item.thumbnail),
            (.firstFrame, "firstFrame", item.firstFrame), (.lastFrame, "lastFrame", item.lastFrame),
        ]
        for case (let kind, let key, let relative?) in images {
            let size = ImageSize.of(kind, picture: (item.width, item.height), canvas: (canvas.width, canvas.height))
            checkImage(relative, at: "\(path).\(key)", size: size, tolerance: ImageSize.tolerance(of: kind))
        }
        guard let clip = checkFile(item.src, at: "\(path).src") else { return }
        let hashed = hashes[clip.identity] ?? hash(clip)
        hashes[clip.identity] = hashed
        switch hashed {
        case .success(let actual):
            if actual != item.sha256 {
                report("\(path).src", "\(Self.shown(item.src)) does not match its sha256 (it hashes to \(actual))")
            }
        case .failure(let error):
            report("\(path).src", "\(Self.shown(item.src)) cannot be read: \(error.reason)")
        }
        let probed = probedClips[clip.identity] ?? ProbedClip(path: clip.path, timeout: timeout)
        probedClips[clip.identity] = probed
        switch probed {
        // A file that is no clip is a problem where the item gives `codecs`, which it then
        // cannot have; an item from before `codecs` was written is held to its hash alone.
        case .unreadable(let reason):
            if let codecs = item.codecs {
                report(
                    "\(path).codecs",
                    "is \(Self.quoted(codecs)), but \(Self.shown(item.src)) cannot be read as a clip: \(reason)")
            }
        case .info(let info):
            guard let video = info.video else {
                if let codecs = item.codecs {
                    report(
                        "\(path).codecs", "is \(Self.quoted(codecs)), but \(Self.shown(item.src)) has no video stream")
                }
                return
            }
            check(item, against: info, video: video, at: path)
        }
    }

    /// Reports each of the item's facts about its clip that the clip's probe does not bear out,
    /// as `render` wrote them (``ClipRecord``). The codecs string a player asks `canPlayType`
    /// about (a QA pass: a tampered one validated, and a player would have refused or tried a
    /// clip on its word); the duration the page shows a clip it cannot play for, and times its
    /// progress bar by (a QA pass: 500 or 1e300 s validated, and the page stood on that item's
    /// stills for as long); the size it lays the clip out at, its turn, its HDR kind and codec,
    /// and whether it has sound and of what codecs (the page's mute button).
    private mutating func check(
        _ item: Manifest.Item, against info: ClipInfo, video: ClipInfo.Video, at path: String
    ) {
        // The clip as each line names it, cut once.
        let src = Self.shown(item.src)
        // What render skips and ingest rejects, as a transition's is reported (a QA pass: an item
        // clip cut short, its sha256 mended to the cut bytes, validated).
        if let warning = info.warnings.first { report("\(path).src", "\(src) cannot be trusted: \(warning)") }
        if let codecs = item.codecs, codecs != video.codecs {
            report("\(path).codecs", "is \(Self.quoted(codecs)), but \(src) has codecs \(video.codecs)")
        }
        if let duration = info.duration, !(abs(item.duration - duration) <= Self.durationTolerance) {
            report(
                "\(path).duration",
                "is \(ManifestSchemaChecker.format(item.duration)), but \(src) lasts \(Self.seconds(duration)) s"
            )
        }
        if (item.width, item.height) != (video.displayWidth, video.displayHeight) {
            report(
                "\(path).width",
                "is \(item.width) (height \(item.height)), but \(src) is shown at "
                    + "\(video.displayWidth)x\(video.displayHeight)")
        }
        if item.rotation != video.rotation {
            report("\(path).rotation", "is \(item.rotation), but \(src) turns \(video.rotation)°")
        }
        let frameRate = video.frameRate ?? 0
        if !(abs(item.frameRate - frameRate) <= 0.001) {
            report(
                "\(path).frameRate",
                "is \(ManifestSchemaChecker.format(item.frameRate)), but \(src) has "
                    + ManifestSchemaChecker.format(frameRate))
        }
        if item.codec != video.codec {
            report("\(path).codec", "is \(Self.quoted(item.codec)), but \(src) is \(video.codec)")
        }
        if item.hdr != video.hdr {
            report("\(path).hdr", "is \(Self.quoted(item.hdr)), but \(src) is \(Self.quoted(video.hdr))")
        }
        if item.hasAudio != (info.audio != nil) {
            report(
                "\(path).hasAudio",
                "is \(item.hasAudio), but \(src) has " + (item.hasAudio ? "no sound" : "sound"))
        }
        // What the page asks `canPlayType` whether its sound plays (a tampered `opus` on AC-3
        // audio would have the page offer sound the browser plays silent).
        if let codecs = item.audioCodecs, codecs != info.audio?.codecs {
            let actual = info.audio.map { audio in audio.codecs.map { "codecs \($0)" } ?? "\(audio.codec) audio" }
            report(
                "\(path).audioCodecs", "is \(Self.quoted(codecs)), but \(src) has " + (actual ?? "no sound"))
        }
    }

    private mutating func check(_ transition: Manifest.Transition, at path: String) {
        if let file = checkFile(transition.src, at: "\(path).src") {
            let check = TransitionCheck(
                relative: transition.src, identity: file.identity, frames: transition.frames, fps: transition.fps,
                width: transition.width, height: transition.height, codecs: transition.codecs)
            // Its frames at its fps, as the file times them (a QA pass: a manifest's fps of 60
            // for a 30 fps transition passed), and the file its own (another transition's passed).
            let problem =
                transitionProblems[check]
                ?? OutputIntegrity.transitionProblem(
                    at: file.path, frames: transition.frames, width: transition.width, height: transition.height,
                    codecs: transition.codecs, fps: transition.fps, named: transition.src, timeout: timeout)
            transitionProblems[check] = problem
            if let problem { report("\(path).src", "\(transition.src) \(problem)") }
        }
        if transition.fps > 0,
            abs(transition.duration - Double(transition.frames) / transition.fps) > Self.durationTolerance
        {
            report(
                "\(path).duration",
                "expected \(Self.seconds(Double(transition.frames) / transition.fps)), its frames at its fps, got "
                    + ManifestSchemaChecker.format(transition.duration))
        }
        // A canvas out of the schema's range is reported once, as that, not at every transition.
        if ImageSize.isCanvas((canvas.width, canvas.height)),
            (transition.width, transition.height) != (canvas.width, canvas.height)
        {
            report(
                path, "is \(transition.width)x\(transition.height), not the canvas, \(canvas.width)x\(canvas.height)")
        }
        // Stories are all known by now: a transition joins story i and i+1, in its direction.
        var indices: [Int] = []
        for (key, id) in [("from", transition.from), ("to", transition.to)] {
            if let index = storyIndex[id] {
                indices.append(index)
            } else {
                report("\(path).\(key)", "no story \(Self.quoted(id))")
            }
        }
        let join = "\(transition.direction.rawValue) \(transition.from) \(transition.to)"
        if let first = transitionPaths[join] {
            // Readers would keep one of the two (the page the last, StoryreelKit the first).
            report(
                path,
                "a second \(transition.direction.rawValue) transition from \(Self.quoted(transition.from)) to "
                    + "\(Self.quoted(transition.to)) (\(first) is the first)")
        } else {
            transitionPaths[join] = path
        }
        guard indices.count == 2 else { return }
        let forward = transition.direction == .forward
        if indices[1] != indices[0] + (forward ? 1 : -1) {
            let expected = forward ? "stories[i] to stories[i+1]" : "stories[i+1] to stories[i]"
            report(
                path,
                "a \(transition.direction.rawValue) transition joins \(expected), not stories[\(indices[0])] "
                    + "\(Self.quoted(transition.from)) to stories[\(indices[1])] \(Self.quoted(transition.to))")
        }
    }

    /// Reports the image `relative` names unless it is a regular file inside the bundle and a
    /// whole JPEG.
    private mutating func checkImage(
        _ relative: String, at path: String, size: Manifest.Size? = nil, tolerance: Int = 0
    ) {
        guard let file = checkFile(relative, at: path),
            checkedImages.insert(
                ImageCheck(
                    relative: relative, identity: file.identity, width: size?.width, height: size?.height,
                    tolerance: tolerance)
            ).inserted
        else { return }
        if let problem = OutputIntegrity.imageProblem(at: file.path, size: size, tolerance: tolerance) {
            report(path, "\(Self.shown(relative)) \(problem)")
        } else if OutputProvenance.jpegVerdict(file.path, output: relative, timeout: timeout ?? 30) == .contradicts,
            let named = OutputProvenance.jpegNamedOutput(file.path, timeout: timeout ?? 30)
        {
            // Read once more only when it does not vouch for itself as `relative`, to say why.
            // Another image's picture under this one's name (a QA pass: another item's still
            // passed): storyreel's comment names the output it was made as.
            report(
                path,
                "\(Self.shown(relative)) "
                    + (named != relative
                        ? "names itself \(Self.shown(named)): another output's picture"
                        : OutputIntegrity.changedSinceWritten))
        }
    }

    /// The file `relative` names when it is a regular file inside the bundle; reports why not.
    private mutating func checkFile(_ relative: String, at path: String) -> (path: String, identity: FileIdentity)? {
        let outcome = resolved[relative] ?? resolver.resolve(relative)
        resolved[relative] = outcome
        switch outcome {
        case .file(let file, let identity): return (file, identity)
        case .problem(let reason), .missing(let reason):
            report(path, "\(Self.shown(relative)) \(reason)")
            return nil
        }
    }

    /// SHA-256 of a clip, read as a regular file (never a FIFO or a device) within the deadline.
    private func hash(_ clip: (path: String, identity: FileIdentity)) -> Result<String, MediaError> {
        Result {
            let file = try RegularFile(path: clip.path, timeout: timeout)
            guard file.stamp.identity == clip.identity else {
                throw MediaError(.unreadableInput, path: clip.path, "changed while it was being checked")
            }
            return try ContentHasher.sha256(of: file)
        }.mapError { ($0 as? MediaError) ?? MediaError(.ioFailure, path: clip.path, "\($0)") }
    }
}
