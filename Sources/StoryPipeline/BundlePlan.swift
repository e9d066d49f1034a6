import CubeRender
import Foundation
import StoryMedia

/// Everything a render will produce, as content-keyed work units, from a resolved input.
/// The same input and options always give the same units in the same order, so the plan can be
/// split into shards that different machines render.
public struct BundlePlan: Sendable {
    /// The version of the rendering code, part of every key: bump it when outputs change (2: JPEG
    /// stills turned upright by their EXIF orientation, the poster pick's sequential fallback; 3:
    /// transitions drawn straight in yuv420p; 4: HDR tone mapping clips out-of-gamut colours to
    /// BT.709; 5: the poster pick counts a fine texture as detail, not as a flat frame, and the planar
    /// cube kernel rounds every pixel alike; 6: frames take the container's colour tags where the
    /// bitstream has none, so an HEVC clip tagged HLG only in its `colr` box is tone-mapped; 7: an
    /// untagged high-definition clip is read with the BT.709 matrix, as players read it; 8: frames
    /// take the container's HDR light levels, `clli` and `mdcv`, where the bitstream has none; 9: a
    /// left crop in the H.264/HEVC header is applied exactly, not rounded down to aligned planes;
    /// 10: pictures converted to RGB with full chroma interpolation, no longer up to 2 levels dark,
    /// and the planar cube kernel's shading rounded once, no longer tinting greys magenta, and SDR
    /// BT.2020 pictures converted to BT.709 primaries; 11: 8-bit grey at limited range stretched to
    /// full range, as every other format is).
    public static let rendererVersion = "storyreel-render-11"
    /// The poster pick's own version, part of the poster's and the thumbnail's keys only, so that
    /// a change to the pick makes only those again (2: of equally typical candidates the one with
    /// the most contrast, a last try up to 10 s in, and the most contrasty of all-dropped ones;
    /// 3: the second half's keyframes when the whole first half is dropped; 4: then the second
    /// half decoded in order, for a clip with no keyframe there; 5: past a fade still going on at
    /// the end of the frames looked at).
    static let posterPick = "pick=5"
    /// How pictures are resized in RGB, part of the keys of the outputs resized that way only:
    /// avatars, and before ``pictureScaling`` posters and thumbnails (2: one colour matrix in and
    /// out of libswscale, where BT.601 in and BT.709 out shifted their colours, a red of 253 to
    /// 230; and a PNG avatar's transparent pixels drawn over black).
    static let rgbScaling = "rgb-scale=2"
    /// How posters and thumbnails are scaled, part of their keys only (2: each scaled by
    /// libswscale from the decoded frame picked, as `thumbnail` scales it, no longer converted at
    /// the clip's size and then resized in RGB).
    static let pictureScaling = "picture-scale=2"
    /// How a still's EXIF orientation is read, part of the avatar's key only, the one still a
    /// bundle makes (2: IFD0 of a JPEG's first `Exif` segment, as browsers read it, where
    /// libavcodec's took the last segment's and the Exif sub-IFD's; a PNG `eXIf` chunk only when
    /// its CRC holds). A re-check: an avatar made before kept its turned picture under its key.
    static let stillOrientation = "exif=2"
    /// storyreel's version, printed by `--version` and written into manifests as the generator.
    public static let toolVersion = "0.3.0"

    /// Stories with at least one playable clip, in play order.
    public var stories: [ResolvedStory]
    /// True when no story has an item left to play (every clip skipped as the plan read it):
    /// `plan` and `render` exit 66 for it, not 65 (a render can still find nothing playing
    /// once its units ran).
    public var nothingPlays: Bool { stories.allSatisfy(\.items.isEmpty) }
    /// All work units, sorted by output path; an output shared by several items (the same clip
    /// twice) is made by one unit.
    public var units: [WorkUnit]
    /// What was left out, with reasons.
    public var skipped: [SkippedEntry]
    /// The options the plan was made with.
    public var options: RenderOptions
    /// The settings the plan was made with.
    public var settings: BundleSettings
    /// The canvas width: the fixed one, or the automatic choice for the items that play.
    public var canvasWidth: Int
    /// The canvas height.
    public var canvasHeight: Int
    /// Each clip's and avatar's `stat` stamp when it was hashed, by absolute path: the workers
    /// check a source still has it once they have decoded it, so that nothing decoded from a
    /// file replaced during the render is filed under the old file's key.
    public var sourceStamps: [String: FileStamp] = [:]
    /// Each clip's and avatar's SHA-256 (hex), by absolute path, for the workers' check
    /// (``unchanged(_:since:sha256:timeout:)``).
    public var sourceHashes: [String: String] = [:]
    /// The input root with its symbolic links resolved: the stat cache knows a clip by its path
    /// from there, so the same stories reached through a link or not are one set of entries.
    public var cacheRoot = ""
    /// The input's folders of stories given as a story (``StoryInput/foldersOfStories``).
    public var foldersOfStories: [String] = []

    /// Why nothing plays, for the line that says so: `every story was skipped` when stories
    /// were, for their clips; `no story holds a clip` when none was (a QA pass: `render samples`,
    /// the folder above the stories folder, said "every story was skipped" beside "skipped 0").
    /// `skippedAny` is whether anything was skipped.
    public func nothingPlaysReason(skippedAny: Bool) -> String {
        "nothing plays: " + (skippedAny ? "every story was skipped" : "no story holds a clip")
    }

    /// Where the stories may be when nothing plays: `; 'samples/stories' holds story folders:
    /// give it as INPUT`, for `input` (INPUT as given) holding a folder of stories, else empty.
    public func storiesFolderHint(input: String) -> String {
        foldersOfStories.first.map { "; '\(BundlePaths.join(input, $0))' holds story folders: give it as INPUT" } ?? ""
    }

    /// The stat cache's key of a clip or avatar at `relative` (its path from the input root).
    public func statCacheKey(_ relative: String) -> String { BundlePaths.join(cacheRoot, relative) }

    /// Resolves `input` (hashing and probing clips, or taking them from `cache`) and lists the
    /// work for `settings` (the bundle's, with this run's overrides applied). `bundle`, the
    /// bundle folder when known, is where `--reference` paths are written from.
    public static func make(
        input: StoryInput, settings: BundleSettings, options: RenderOptions, cache: StatCache?, bundle: String? = nil
    ) throws -> BundlePlan {
        let root = URL(fileURLWithPath: input.root).standardizedFileURL.path
        // A QA pass: `render stories` and `render link-to-stories` in turn probed and hashed every
        // clip again, each run replacing the other's entries. The entries also hold each file's
        // inode and change time, so a key by the resolved path cannot take one file for another.
        let cacheRoot = BundlePaths.realPath(root) ?? root
        let inputRoot = try InputRoot(root)
        let clipPaths = input.stories.flatMap(\.clips)
        // Each clip is read once, however many items play it (a QA pass: `plan` of 10,000
        // stories of one clip probed and hashed it 10,000 times, 6 s, where `render`'s stat cache
        // read it about once).
        var readSlots: [String: Int] = [:]
        var clipsRead: [String] = []
        let slots = clipPaths.map { clip in
            if let slot = readSlots[clip] { return slot }
            clipsRead.append(clip)
            readSlots[clip] = clipsRead.count - 1
            return clipsRead.count - 1
        }
        let timeout = options.timeout
        let read: [Result<(record: ClipRecord, stamp: FileStamp), MediaError>] = Parallel.map(
            clipsRead.count, jobs: options.jobs
        ) { [clipPaths = clipsRead] index in
            let absolute = BundlePaths.join(root, clipPaths[index])
            let cacheKey = BundlePaths.join(cacheRoot, clipPaths[index])
            var stamp: FileStamp?
            do {
                stamp = try BundlePlan.stampInside(clipPaths[index], root: inputRoot)
            } catch {
                return .failure((error as? MediaError) ?? MediaError(.invalidMedia, path: absolute, "\(error)"))
            }
            // A failure first: a clip whose images could not be made has its record kept with the
            // reason, which a shard takes as the clip's record (every shard plans its units).
            if let stamp,
                let reason = cache?.failure(
                    for: cacheKey, stamp: stamp, unitFailuresToo: options.shard == nil, timeout: timeout)
            {
                return .failure(MediaError(.invalidMedia, path: absolute, reason))
            }
            if let stamp, let cached = cache?.record(for: cacheKey, stamp: stamp) { return .success((cached, stamp)) }
            // The clip is pinned while it is stamped again, probed and hashed, so all three read
            // one file: a QA pass swapped its folder to other content and back, and the stamps
            // before and after were the clip's while the hash was the other file's, under whose
            // key the clip's own pictures were then filed (``SourcePin``). Only a clip read is
            // pinned: a no-op re-run opens no clip.
            let pin: SourcePin?
            do {
                (pin, stamp) = try BundlePlan.pinnedForReading(clipPaths[index], root: inputRoot, stamp: stamp)
            } catch {
                return .failure((error as? MediaError) ?? MediaError(.invalidMedia, path: absolute, "\(error)"))
            }
            defer { withExtendedLifetime(pin) {} }
            /// The clip's record: probed, then hashed.
            func readClip() throws -> ClipRecord {
                let info = try ClipProbe.inspect(path: absolute, timeout: timeout)
                return try ClipRecord(
                    sha256: try ContentHasher.sha256(ofFileAt: absolute, timeout: timeout), info: info, path: absolute)
            }
            do {
                let record = try readClip()
                let read: FileStamp
                do {
                    read = try BundlePlan.unchanged(absolute, since: stamp)
                } catch let error as MediaError
                    where error.reason.hasPrefix(changedWhile) && stamp != nil && FileStamp(path: absolute) == stamp
                {
                    // Only its change time moved: `touch -a`, `chmod`, a hard link, or a rewrite
                    // with the mtime put back, whose halves the probe and the hash may have read.
                    // Read again: the same record twice is the clip as it is.
                    guard try readClip() == record, let now = FileStamp(path: absolute), now == stamp else {
                        throw error
                    }
                    read = now
                }
                cache?.store(record, for: cacheKey, stamp: read)
                return .success((record, read))
            } catch {
                let failure = (error as? MediaError) ?? MediaError(.ioFailure, path: absolute, "\(error)")
                if let stamp, BundlePlan.liesInTheFile(failure),
                    (try? BundlePlan.unchanged(absolute, since: stamp)) != nil
                {
                    cache?.storeFailure(failure.reason, for: cacheKey, stamp: stamp)
                }
                return .failure(failure)
            }
        }
        let stamped = slots.map { read[$0] }
        // Out of open files is the system's limit, not the clip's fault: the run stops rather
        // than list a good clip as skipped.
        for case .failure(let error) in stamped where error.kind == .systemLimit { throw error }
        let records = stamped.map { $0.map(\.record) }
        var sourceStamps: [String: FileStamp] = [:]
        var sourceHashes: [String: String] = [:]
        for (clip, result) in zip(clipPaths, stamped) {
            if case .success(let read) = result {
                sourceStamps[BundlePaths.join(root, clip)] = read.stamp
                sourceHashes[BundlePaths.join(root, clip)] = read.record.sha256
            }
        }
        var skipped = input.skipped
        var stories: [ResolvedStory] = []
        var position = 0
        // With --reference an item's `src` is the clip's path from the bundle (its whole path
        // when the bundle is not known), which no manifest may hold with a control character,
        // `#`, `?`, `%` or `\` in it (a copy is named by its hash).
        let bundleFolder = bundle.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let unreferenceable = { (clip: String) -> String? in
            guard options.clipMode == .reference else { return nil }
            let absolute = BundlePaths.join(root, clip)
            let src = bundleFolder.map { BundlePaths.relative(absolute, from: $0) } ?? absolute
            if let character = ManifestPath.forbiddenCharacter(in: src) {
                return BundlePlan.unreferenceableReason(character)
            }
            // A colon in the first component is a URL's scheme, a space at an end is dropped (a
            // QA pass: a folder named `https:example.invalid` beside OUT made the page fetch the
            // clips from that site).
            guard bundleFolder != nil, !ManifestPath.isPlainAfterParentSteps(src) else { return nil }
            return "its path from the bundle ('\(src)') is one a URL reads otherwise (a colon in its first "
                + "part is a scheme, a space at an end is dropped); render with --copy or --link"
        }
        // The canvas is sized from the clips that can play: not one skipped for its path. One
        // whose images could not be made counts, as it did in the render that found it, in
        // `plan` (which reads no cache) and in every shard (a review: the canvas changed on the
        // next render, which redid every still and transition).
        let playable = zip(clipPaths, records).compactMap { clip, result -> ClipRecord? in
            guard unreferenceable(clip) == nil else { return nil }
            if let record = try? result.get() { return record }
            let key = BundlePaths.join(cacheRoot, clip)
            return FileStamp(path: BundlePaths.join(root, clip)).flatMap {
                cache?.failedClipRecord(for: key, stamp: $0)
            }
        }.map { (width: $0.width, height: $0.height) }
        let canvas = settings.canvasSize(forDisplaySizes: playable)
        // One copy per content: the same bytes under another extension (`a/1.mov`, `b/1.mp4`)
        // play from the first one's copy, as any repost does (an incremental-render QA pass: two
        // copies of one clip, and two `src`).
        var copyExtensions: [String: String] = [:]
        for source in input.stories {
            var items: [ResolvedStory.Item] = []
            for clip in source.clips {
                switch (records[position], unreferenceable(clip)) {
                case (.success, let reason?):
                    skipped.append(SkippedEntry(path: clip, story: source.handle, reason: reason))
                case (.success(let record), nil):
                    let copyExtension = copyExtensions[record.id] ?? (clip as NSString).pathExtension.lowercased()
                    copyExtensions[record.id] = copyExtension
                    items.append(
                        .init(
                            path: clip, absolutePath: BundlePaths.join(root, clip), record: record,
                            outputs: try itemOutputs(
                                record: record, copyExtension: copyExtension, canvas: canvas, options: options)))
                case (.failure(let error), _):
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
                let cacheKey = BundlePaths.join(cacheRoot, relative)
                do {
                    var stamp = try BundlePlan.stampInside(relative, root: inputRoot)
                    let cached = stamp.flatMap { cache?.hash(for: cacheKey, stamp: $0) }
                    // Stamped again and hashed as one file, pinned, as a clip is when it is read.
                    var pin: SourcePin?
                    if cached == nil {
                        (pin, stamp) = try BundlePlan.pinnedForReading(relative, root: inputRoot, stamp: stamp)
                    }
                    defer { withExtendedLifetime(pin) {} }
                    let sha256 =
                        try cached
                        ?? ContentHasher.sha256(
                            ofFileAt: absolute, timeout: options.timeout, maxSize: StillImage.maximumFileSize)
                    // Only the hash is read now: one moved change time is hashed again.
                    let read = try BundlePlan.unchanged(
                        absolute, since: stamp, sha256: sha256, timeout: options.timeout)
                    if cached == nil { cache?.storeHash(sha256, for: cacheKey, stamp: read) }
                    sourceStamps[absolute] = read
                    sourceHashes[absolute] = sha256
                    story.avatar = (absolute, sha256)
                    let avatarKey = try key([
                        "avatar", sha256, "\(RenderOptions.avatarSize)", rgbScaling, stillOrientation,
                    ])
                    story.avatarOutput = "avatars/\(avatarKey).jpg"
                } catch let error as MediaError where error.kind == .systemLimit {
                    throw error
                } catch {
                    // Named as the avatar unit's own failures are (a review: a file over the limit
                    // was the one avatar failure without the prefix).
                    let reason = "avatar: \(MediaError.reason(of: error))"
                    skipped.append(SkippedEntry(path: relative, story: source.handle, reason: reason))
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
                        sourceLabel: item.path,
                        imageSize: ImageSize.of(kind, picture: (item.record.width, item.record.height), canvas: canvas))
                }
                if let clip = outputs.clip { units.append(unit(.clip, item.record.sha256, clip)) }
                units.append(unit(.poster, outputKey(outputs.poster), outputs.poster))
                units.append(unit(.thumbnail, outputKey(outputs.thumbnail), outputs.thumbnail))
                units.append(unit(.firstFrame, outputKey(outputs.firstFrame), outputs.firstFrame))
                units.append(unit(.lastFrame, outputKey(outputs.lastFrame), outputs.lastFrame))
            }
            if let avatar = story.avatar, let output = story.avatarOutput {
                units.append(
                    WorkUnit(
                        kind: .avatar, key: outputKey(output), output: output, story: story.id, source: avatar.path,
                        sourceLabel: story.source.avatar ?? "", imageSize: ImageSize.avatar))
            }
        }
        var plan = BundlePlan(
            stories: stories, units: [], skipped: skipped, options: options, settings: settings,
            canvasWidth: canvas.width, canvasHeight: canvas.height, sourceStamps: sourceStamps, cacheRoot: cacheRoot)
        plan.sourceHashes = sourceHashes
        plan.foldersOfStories = input.foldersOfStories
        plan.units = unique(units + (try plan.transitionUnits(between: stories)))
        return plan
    }

    /// Whether `error`, met reading a clip, lies in the clip's bytes, so that it stands for as
    /// long as the file is unchanged: invalid media or no video, found by storyreel's own checks
    /// or by FFmpeg as invalid data. Not a deadline, a read or system failure, any other code of
    /// FFmpeg's (an errno such as `AVERROR(EIO)`, a decoder this FFmpeg build lacks: a review
    /// found those kept until the file changed), or the file changing while it was read
    /// (``changedWhile``).
    static func liesInTheFile(_ error: MediaError) -> Bool {
        guard [.invalidMedia, .noVideoStream].contains(error.kind), !error.reason.hasPrefix(changedWhile) else {
            return false
        }
        return error.ffmpegCode == nil || error.isDamagedData
    }

    /// How the reason starts when a source changed while storyreel read or copied it: no fault of
    /// its bytes, which the next run reads afresh.
    static let changedWhile = "it changed while"

    /// How such a reason ends: a run that skipped something for it exits 75, to be run again,
    /// not 65 (``RenderSummary/mustRunAgain``).
    public static let runAgain = "run again once it is complete"

    /// The stamp of the file the input path `relative` leads to, taken once it is known to lead
    /// inside `root` (nil when nothing is there). The listing checked where each path led, but
    /// a link swapped in since had a render copy a clip from outside the stories input into the
    /// bundle and play it (a QA pass: 5 of 5 renders with the swap 20 ms in). The file stamped is
    /// the one the path resolves to inside; one swapped in after that has another stamp, which
    /// the checks after reading refuse. Throws `.invalidMedia`, naming the path, otherwise.
    static func stampInside(_ relative: String, root: InputRoot) throws -> FileStamp? {
        let absolute = BundlePaths.join(root.path, relative)
        let stamp = FileStamp(path: absolute)
        switch root.resolve(relative) {
        case .missing: return stamp
        case .outside: throw MediaError(.invalidMedia, path: absolute, InputRoot.outsideReason)
        case .inside(let real): return try unchanged(real, since: stamp)
        }
    }

    /// `relative` (in `root`) pinned (``pin(_:)``) and stamped again through the pin, so what
    /// is read next is the file stamped; with `stamp` unchanged and no pin when it cannot be
    /// opened (reading it then says why).
    static func pinnedForReading(_ relative: String, root: InputRoot, stamp: FileStamp?) throws -> (
        pin: SourcePin?, stamp: FileStamp?
    ) {
        guard let pin = try pin(BundlePaths.join(root.path, relative)) else { return (nil, stamp) }
        return (pin, try stampInside(relative, root: root))
    }

    /// `path` pinned (``SourcePin``), or nil when it cannot be opened (reading it then says
    /// why). Throws `.invalidMedia` (``changedWhile``) when the file opened through another
    /// unit's pin was not the pinned one (``RegularFile``).
    static func pin(_ path: String) throws -> SourcePin? {
        do {
            return try SourcePin(path: path)
        } catch let error as MediaError where error.reason.hasPrefix(changedWhile) {
            throw error
        } catch {
            return nil
        }
    }

    /// `stamp`, the stamp `path` had before it was read, when the file still has it: it was
    /// read whole as it is. Throws `.invalidMedia` when it changed meanwhile (an upload still
    /// being written, a clip replaced), or had no stamp (it was not there).
    ///
    /// Its change time is looked at too: a clip rewritten in place during a render, its mtime
    /// put back, had its duration filed with the other content's hash, and the other content's
    /// stills under its key (a QA pass). The change time also moves with no change of contents
    /// (`touch -a`, `chmod`, a hard link: `--link`'s own), which skipped good clips (the QA pass
    /// of that check): so when only it moved, a file whose hash is known (`sha256`) is hashed
    /// again and taken when it still has that hash; one whose hash is not known yet is changed.
    static func unchanged(
        _ path: String, since stamp: FileStamp?, sha256: String? = nil, timeout: Double? = nil
    ) throws -> FileStamp {
        guard let stamp, let now = FileStamp(path: path), now == stamp,
            now.isSameWithChangeTime(stamp)
                || (sha256 != nil && (try? ContentHasher.sha256(ofFileAt: path, timeout: timeout)) == sha256)
        else {
            throw MediaError(
                .invalidMedia, path: path, "\(changedWhile) storyreel read it; \(runAgain)")
        }
        return stamp
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
    public func transitionUnits(between stories: [ResolvedStory]) throws -> [WorkUnit] {
        var units: [WorkUnit] = []
        for (from, to) in zip(stories, stories.dropFirst()) {
            units.append(try transitionUnit(from: from, to: to, direction: .forward))
            if settings.bothDirections {
                units.append(try transitionUnit(from: to, to: from, direction: .backward))
            }
        }
        return units
    }

    /// Why `--reference` skips a clip whose path holds `character`, which a plain path may not.
    static func unreferenceableReason(_ character: Character) -> String {
        let shown = character.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
        return "its path holds \(shown ? "'\(character)'" : "a control character"), which a manifest's src may not "
            + "(a URL would read it otherwise); render with --copy or --link"
    }

    static func key(_ parts: [String]) throws -> String {
        String(try ContentHasher.sha256(of: ([rendererVersion] + parts).joined(separator: "|")).prefix(20))
    }

    /// The outputs an item plays from: its clip's copy (named by the clip's id, with
    /// `copyExtension`, the first playing copy of its bytes' extension), and its poster,
    /// thumbnail and first and last frame stills (named by keys of the clip's hash and their
    /// parameters).
    private static func itemOutputs(
        record: ClipRecord, copyExtension: String, canvas: (width: Int, height: Int), options: RenderOptions
    ) throws -> ResolvedStory.ItemOutputs {
        let sha = record.sha256
        let size = "\(canvas.width)x\(canvas.height)"
        let copy = options.clipMode == .reference ? nil : "clips/\(record.id).\(copyExtension)"
        let stills = try key(["stills", sha, size, "fill", "jpeg=\(RenderOptions.stillQuality)"])
        // A poster is the pick shrunk to fit the canvas: keyed by the size it comes out at, so a
        // canvas the picture fits in either way (its own, or a larger one) keeps the poster.
        let poster =
            ImageSize.of(.poster, picture: (record.width, record.height), canvas: canvas)
            .map { "\($0.width)x\($0.height)" } ?? size
        return .init(
            clip: copy, poster: "posters/\(try key(["poster", sha, poster, posterPick, pictureScaling])).jpg",
            thumbnail:
                "thumbs/\(try key(["thumbnail", sha, "\(RenderOptions.thumbnailWidth)", posterPick, pictureScaling])).jpg",
            firstFrame: "stills/\(stills)-first.jpg", lastFrame: "stills/\(stills)-last.jpg")
    }

    /// The key an output's name carries: its file name without the extension (and, for a
    /// still, without `-first`/`-last`).
    private static func outputKey(_ output: String) -> String {
        let name = ((output as NSString).lastPathComponent as NSString).deletingPathExtension
        return String(name.prefix { $0 != "-" })
    }

    /// One unit per output (the first one planned), sorted by output path, carrying the other
    /// inputs planned for the same output as its ``WorkUnit/otherCopies``.
    private static func unique(_ units: [WorkUnit]) -> [WorkUnit] {
        var first: [String: WorkUnit] = [:]
        for unit in units {
            guard var kept = first[unit.output] else {
                first[unit.output] = unit
                continue
            }
            guard kept.kind != .transition, unit.source != kept.source,
                !kept.otherCopies.contains(where: { $0.source == unit.source })
            else { continue }
            kept.otherCopies.append(.init(source: unit.source, sourceLabel: unit.sourceLabel, story: unit.story))
            first[unit.output] = kept
        }
        return first.values.sorted { $0.output < $1.output }
    }

    /// Forward: last frame of `from`'s last item to the first frame of `to`'s first item.
    /// Backward (going back from `from` to the previous story `to`): both faces are first frames.
    /// The parameters are built once here and carried on the unit; the key is made from them.
    private func transitionUnit(from: ResolvedStory, to: ResolvedStory, direction: CubeDirection) throws
        -> WorkUnit
    {
        guard let fromItem = direction == .forward ? from.items.last : from.items.first, let toItem = to.items.first
        else { throw MediaError(.invalidMedia, path: from.id, "a story without items has no transition") }
        var parameters = CubeTransitionJob.Parameters()
        parameters.width = canvasWidth
        parameters.height = canvasHeight
        parameters.fps = settings.fps
        parameters.duration = settings.transitionDuration
        parameters.direction = direction
        parameters.codec = settings.codec
        parameters.crf = settings.crf
        switch settings.peak {
        case .fixed(let bitsPerSecond):
            parameters.maxBitrate = bitsPerSecond
        case .rule:
            parameters.maxBitrate = TransitionBitrate.peak(
                width: canvasWidth, height: canvasHeight, from: fromItem.record.bitRate, to: toItem.record.bitRate)
        }
        let fromFace = direction == .forward ? "last" : "first"
        let unitKey = try BundlePlan.key([
            "transition", fromItem.record.sha256 + ":" + fromFace, toItem.record.sha256 + ":first",
            parameters.canonicalKey,
        ])
        return WorkUnit(
            kind: .transition, key: unitKey, output: "transitions/\(unitKey).mp4", story: from.id,
            source: fromItem.absolutePath, sourceLabel: fromItem.path,
            transition: .init(
                fromStory: from.id, toStory: to.id, fromClip: fromItem.absolutePath, toClip: toItem.absolutePath,
                toLabel: toItem.path, parameters: parameters))
    }

    /// True when `unit`'s output is in `bundle` as a render would take it, so that a render
    /// would not make it again (`plan --bundle`'s `done`): as storyreel wrote it (its ledger),
    /// or a file the ledger does not know that a render adopts (a bundle merged without its
    /// hidden folder: every unit was "not done" where a render made none again). Adopting only
    /// records the file in `ledger` in memory; nothing is written.
    public func isDone(_ unit: WorkUnit, in bundle: String, ledger: BundleLedger) -> Bool {
        switch ledger.state(of: unit.output) {
        case .current:
            break
        case .unknown:
            // Adopted, a clip is then held to the clip mode as a known one is (a QA pass: shards'
            // copies merged without ledgers were "done" for a --link render, which kept them as
            // copies and linked them on the run after).
            guard
                UnitRun.adopt(
                    unit, ledger: ledger, bundle: bundle, canvas: (canvasWidth, canvasHeight),
                    timeout: options.timeout)
            else { return false }
        case .missing, .changed, .notRegular:
            return false
        }
        // A render with --copy puts a copy over a clip linked to its source (a re-check: plan
        // said done of the 9 copies the render then made), and one with --link a link over a
        // copy on the source's file system.
        guard unit.kind == .clip else { return true }
        switch options.clipMode {
        case .copy: return !UnitRun.isLinkToSource(unit, bundle: bundle)
        case .link: return !UnitRun.canLinkOverCopy(unit, bundle: bundle)
        case .reference: return true
        }
    }
}
