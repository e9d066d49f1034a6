import Foundation
import StoryMedia
import StoryreelKit

/// `storyreel ingest`: adds uploaded clips to a story folder safely. Each clip must inspect
/// cleanly (no warning, such as a truncated upload), have video and a duration in (0, max]; it is
/// copied (never moved) through a temporary name that a concurrent render ignores, checked
/// to be what was inspected (unchanged since), and named with a sequence number one above the
/// highest in the folder, e.g. `0007-IMG_1539.MOV`, so that it plays after the numbered clips;
/// existing clips whose names do not start with a number still play after it, and the outcome
/// names them.
///
/// Two ingests into one stories folder take turns (a `flock` on `STORIES/.storyreel-ingest.lock`),
/// and a name is only ever taken when nothing has it, so no clip is lost or replaced.
public struct ClipIngester: Sendable {
    /// The stories folder.
    public var storiesFolder: String
    /// The story's handle.
    public var handle: String
    /// The longest clip accepted, in seconds.
    public var maxDuration: Double
    /// The deadline of each step of a clip, in seconds: hashing, probing, decoding its first frame.
    public var timeout: Double
    /// How long to wait for another ingest into the same stories folder.
    public var lockTimeout = 60.0
    /// Called once when another ingest holds the lock, with its pid when the kernel reports it.
    public var waiting: @Sendable (Int32?) -> Void = { _ in }

    /// The lock file's name in the stories folder (dot-prefixed, so renders ignore it).
    public static let lockFileName = ".storyreel-ingest.lock"
    /// Sequence numbers above this in existing names are ignored when numbering, unless they
    /// continue the sequence (``sequenceStart(of:)``).
    public static let largestSequenceNumber = 9999
    /// How many names ingest tries for one clip before it gives up.
    static let namingAttempts = 100

    /// An ingester into `storiesFolder/handle/`.
    public init(storiesFolder: String, handle: String, maxDuration: Double = 60, timeout: Double = 30) {
        self.storiesFolder = storiesFolder
        self.handle = handle
        self.maxDuration = maxDuration
        self.timeout = timeout
    }

    /// Ingests `clips` in order; a rejected clip does not stop the others.
    ///
    /// Throws, writing nothing, when the story folder is a link that leads outside the stories
    /// folder (a render would skip that story) or is not a folder. Under the lock, removes the
    /// temporary files an interrupted ingest left in the story folder (only regular files named
    /// by ``TemporaryFile``'s scheme), and the new story folders one left in the stories folder
    /// (``NewStoryFolder``). A new story's folder gets its name with its first clip in it, so it
    /// is never there empty. `reported` is called with each clip's index and outcome as soon as it
    /// has one, so that a caller can say what went in before the rest is done (an interrupted
    /// run used to print nothing, though clips had gone in). `placed` is called with a clip's
    /// index and name the moment it is in the story, with interrupts held off: an interrupt
    /// falling after that moment and before `reported` (the folder's flush between) left a clip
    /// in the story that nothing had said (a QA pass of interrupts: 5 of 300 SIGTERMs), so the
    /// caller's interrupt action can say it.
    public func ingest(
        _ clips: [String], reported: (Int, IngestOutcome) -> Void = { _, _ in },
        placed: (Int, String) -> Void = { _, _ in }
    ) throws -> [IngestOutcome] {
        let folder = BundlePaths.join(storiesFolder, handle)
        try checkStoryFolder(folder)
        let lock: BundleLock
        do {
            lock = try BundleLock(
                folder: storiesFolder, fileName: ClipIngester.lockFileName, timeout: lockTimeout, waiting: waiting)
        } catch  where FileStamp(path: storiesFolder)?.isFolder != true {
            // An `ingest --create` that made the folder, interrupted while this one waited, took
            // it away again (with nothing in it): `--create` makes it anew (a QA pass: 73, "cannot
            // open the lock file", and the upload was dropped).
            throw MediaError(.missingInput, path: storiesFolder, "was removed while this ingest waited for its lock")
        }
        defer { withExtendedLifetime(lock) {} }
        // Again under the lock: a link may have been put there meanwhile.
        try checkStoryFolder(folder)
        // A new story's folder is made only once its first clip has been inspected, and named
        // only once that clip is in it (``NewStoryFolder``): made first, it stood empty while the
        // upload was inspected, and a render listing the stories then skipped it as a story with
        // no clip (65; a QA pass).
        TemporaryFile.removeStale(in: folder)
        NewStoryFolder.removeStale(in: storiesFolder)
        let existing = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter(StoryInput.isClipFileName)
        // Only a clip of the same size can hold the same bytes, so the story's clips are hashed
        // only when an upload has their size, and each at most once: hashing every clip of the
        // story on every ingest made an upload's cost grow with the story (2.4 s for a 250 KB
        // upload into a story of four 117 MB clips).
        // The clips by size, each list in play order and kept so as uploads are placed: sorting
        // the story's names for every upload made one call with many clips quadratic (a scale
        // QA pass: 1000 uploads of one size took 21 s of CPU, 3000 took 191 s).
        // Of those, the ones render plays: a regular file, or a link to one inside STORIES, under
        // its own name (a QA pass: an upload matching a link leading outside, which render
        // skips, or the second spelling of a name that differs only in Unicode normalization,
        // was "already ingested" and never played; a name that is not UTF-8, read here with
        // U+FFFD, was named in "plays before").
        let storiesRoot = BundlePaths.realPath(storiesFolder).map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        // Each playable clip's size, from the one look at it, keyed by the name's bytes: a String
        // key takes two names that differ only in Unicode normalization for one, and the twin
        // render plays got the other's size (a re-check: an upload equal to it went in again).
        var sizes: [[UInt8]: UInt64] = [:]
        let playable = StoryInput.withoutNormalizationTwins(
            existing.filter { name in
                let path = BundlePaths.join(folder, name)
                guard let entry = FileStamp(path: path, followingLinks: false) else { return false }
                if entry.isRegularFile {
                    sizes[Array(name.utf8)] = entry.size
                    return true
                }
                guard entry.isSymbolicLink, let target = FileStamp(path: path), target.isRegularFile, let storiesRoot,
                    let resolved = BundlePaths.realPath(path), resolved.hasPrefix(storiesRoot)
                else { return false }
                sizes[Array(name.utf8)] = target.size
                return true
            }
        ).kept
        let existingInOrder = playable.sorted(by: NaturalOrder.areInIncreasingOrder)
        var namesBySize: [UInt64: [String]] = [:]
        for name in existingInOrder {
            guard let size = sizes[Array(name.utf8)] else { continue }
            namesBySize[size, default: []].append(name)
        }
        var hashes: [[UInt8]: String] = [:]  // by the name's bytes, as the sizes
        func alreadyPresent(sha: String, size: UInt64) -> String? {
            for name in namesBySize[size] ?? [] {
                let known =
                    hashes[Array(name.utf8)]
                    ?? (try? ContentHasher.sha256(ofFileAt: BundlePaths.join(folder, name), timeout: timeout))
                hashes[Array(name.utf8)] = known
                if known == sha { return name }
            }
            return nil
        }
        var sequence = ClipIngester.sequenceStart(of: existing)
        // The story folder, held open once it is there: the copies go into it by descriptor.
        var storyPin: FolderPin?
        defer { withExtendedLifetime(storyPin) {} }
        let nameLimit = FileNameLength.limit(in: FileStamp(path: folder) != nil ? folder : storiesFolder)
        func ingestOne(_ index: Int, _ clip: String) -> IngestOutcome {
            // Its stamp before anything reads it: refused, and changed since, it is an upload
            // still being written, not a damaged one (``stillChanging(_:since:)``).
            let beforeReading = FileStamp(path: clip)
            var inspected: FileStamp?
            do {
                let (stamp, container, concern, firstFrame) = try inspectUpload(clip)
                inspected = stamp
                // Its first frame decodes on another core while it is copied: the copy takes its
                // name only once the frame has decoded (a fifth of a large upload's ingest was
                // that decode, before the copy, `make bench`). A failure reports the frame's
                // fault first, as before.
                defer { _ = firstFrame.wait() }
                let decoded = { try firstFrame.wait().get() }
                // An upload is hashed only when a clip of the story has its size (it may be that
                // clip); otherwise it is read once, as it is copied. Either way it is checked by
                // its stamp: what goes in is what was inspected.
                var check = ClipPlacement.Check.unchanged(since: stamp)
                if namesBySize[stamp.size] != nil {
                    let hash = try ContentHasher.sha256(ofFileAt: clip, timeout: timeout)
                    if let name = alreadyPresent(sha: hash, size: stamp.size) {
                        // A run killed between placing the clip and taking storyreel's mark off
                        // it left the mark, with which an `-o` output would replace the user's
                        // clip (a QA pass): taken off now.
                        OutputMark.unmark(BundlePaths.join(folder, name))
                        return .alreadyPresent(name: name)
                    }
                    check.sha256 = hash
                }
                var newFolder: NewStoryFolder?
                if storyPin == nil {
                    if FileStamp(path: folder, followingLinks: false) == nil {
                        newFolder = try NewStoryFolder(path: folder)
                    } else {
                        storyPin = try pinStoryFolder(folder)
                    }
                }
                let name: String
                do {
                    // In a story folder that has its name, the clip is in the story as it takes
                    // its own; in a new one, as the folder takes its name.
                    let inStory = newFolder == nil
                    name = try place(
                        clip, container: container, check: check, in: folder, nameLimit: nameLimit,
                        after: &sequence, beforePlacing: decoded, placed: { if inStory { placed(index, $0) } })
                } catch {
                    try decoded()
                    throw error
                }
                if let newFolder {
                    do {
                        try InterruptCleanup.deferringInterrupts {
                            try newFolder.giveItsName()
                            placed(index, name)
                        }
                    } catch {
                        sequence -= 1  // the clip was taken away with the folder
                        throw error
                    }
                    storyPin = newFolder.pin
                }
                let position = NaturalOrder.insertionIndex(of: name, in: namesBySize[stamp.size] ?? [])
                namesBySize[stamp.size, default: []].insert(name, at: position)
                hashes[Array(name.utf8)] = check.sha256
                let later = existingInOrder[NaturalOrder.insertionIndex(of: name, in: existingInOrder)...]
                return .ingested(name: name, playsBefore: Array(later), playbackConcern: concern)
            } catch let failure as MediaError
                where failure.isWriteFailure(inside: folder) || failure.kind == .systemLimit
                || ClipIngester.isUnreadableUpload(clip, failure)
            {
                return .notWritten(failure)
            } catch {
                if let failure = error as? MediaError, failure.path == clip,
                    failure.reason.hasPrefix(BundlePlan.changedWhile)
                {
                    // Gone or replaced (66), or still changing (75): neither says anything of
                    // its bytes (a QA pass: a growing upload was rejected, 65, which a job
                    // setting rejected uploads aside takes for damaged, though the line asked for
                    // a run once it is complete).
                    return .notWritten(
                        ClipIngester.goneOrReplaced(clip, inspected: inspected)
                            ?? MediaError(.changedWhileRead, path: clip, failure.reason))
                }
                return ClipIngester.refused(clip, error, since: beforeReading)
            }
        }
        return clips.enumerated().map { index, clip in
            let outcome = ingestOne(index, clip)
            reported(index, outcome)
            return outcome
        }
    }

    /// True when `failure` is that there is no file at `clip` to read: nothing there, no regular
    /// file (a folder, a FIFO, a device, a socket), or one this process may not read (its
    /// permissions, an ACL). No fault of an upload's bytes, so it is not ingested (66, as every
    /// other command exits on such a path) rather than rejected (65), and a script does not set a
    /// good upload aside (a QA pass), nor take an upload that never arrived for a damaged one
    /// (a scripting QA pass: a missing upload was "rejected: no such file", 65).
    static func isUnreadableUpload(_ clip: String, _ failure: MediaError) -> Bool {
        (failure.kind == .missingInput || failure.kind == .unreadableInput) && failure.path == clip
    }

    /// Why the upload at `clip`, which changed while it was copied, is not ingested rather than
    /// rejected: it is gone, or another file has its name (renamed over it), and neither says
    /// anything of its bytes (a QA pass: both were rejected, 65, and a job setting rejected
    /// uploads aside would set the good new file aside as damaged). Nil when the file inspected
    /// is still there (it grew, or was rewritten in place): that upload is not ingested either,
    /// as one to try again (``MediaError/Kind/changedWhileRead``, 75).
    static func goneOrReplaced(_ clip: String, inspected: FileStamp?) -> MediaError? {
        inspected.flatMap { goneOrReplaced(clip, since: $0, while: "copied").error }
    }

    /// The upload at `clip` against its stamp `before`: gone, or another file under its name
    /// (66, said as happening while it was being `doing`), with the stamp it has now otherwise.
    private static func goneOrReplaced(_ clip: String, since before: FileStamp, while doing: String) -> (
        error: MediaError?, now: FileStamp?
    ) {
        guard let now = FileStamp(path: clip) else {
            return (MediaError(.missingInput, path: clip, "it went away while it was being \(doing)"), nil)
        }
        guard now.identity == before.identity else {
            let reason = "another file took its name while it was being \(doing); ingest that one again"
            return (MediaError(.missingInput, path: clip, reason), nil)
        }
        return (nil, now)
    }

    /// The outcome of the upload at `clip`, refused with `error` as it was read: not ingested
    /// when it changed since `before` (``stillChanging(_:since:)``), else rejected.
    static func refused(_ clip: String, _ error: Error, since before: FileStamp?) -> IngestOutcome {
        stillChanging(clip, since: before).map { .notWritten($0) } ?? .rejected(reason: MediaError.reason(of: error))
    }

    /// Why the upload at `clip`, refused as it was read (truncated, no index yet, empty), is not
    /// ingested rather than rejected: it changed since `before` (its stamp before it was read),
    /// so it is still being written (75: run again once it is complete), or it went away, or
    /// another file took its name (66). An ingest QA pass: an upload a slow writer was still
    /// writing was rejected (65, "it looks truncated") in every try, which a job setting
    /// rejected uploads aside takes for damaged. Nil when it is as it was: that one is rejected.
    ///
    /// One written to less than ``settleTime`` before it was read is watched until that much time
    /// has passed since the write: a refusal comes in milliseconds, between two writes of a writer
    /// still at work (a second ingest QA pass: an upload written 2 KB every 20 ms, its index
    /// last, was rejected in 8 of 8 tries, its stamp the same before and after the read).
    static func stillChanging(_ clip: String, since before: FileStamp?) -> MediaError? {
        guard let before else { return nil }
        var (gone, now) = goneOrReplaced(clip, since: before, while: "read")
        if let gone { return gone }
        if let unchanged = now, unchanged == before {
            let (sinceWrite, overflow) = unchanged.takenAt.subtractingReportingOverflow(before.modified)
            guard !overflow, sinceWrite >= 0, sinceWrite < settleTime else { return nil }
            usleep(useconds_t((settleTime - sinceWrite) / 1000))
            (gone, now) = goneOrReplaced(clip, since: before, while: "read")
            if let gone { return gone }
        }
        guard let now, now != before else { return nil }
        return MediaError(
            .changedWhileRead, path: clip, "it changed while it was being read; run again once it is complete")
    }

    /// How long after its last write an upload refused as it was read is watched for another
    /// write before it is rejected, in nanoseconds: 1 s, longer than the pauses of a writer
    /// still at work on a local or network copy (the QA pass's writers paused 5–500 ms).
    static let settleTime: Int64 = 1_000_000_000

    /// The outcomes of `clips` when none of them could go in (each rejected with its reason, or
    /// not ingested because it may not be read), or nil when one could. Nothing is written:
    /// `ingest --create` asks this before it makes a new stories folder, so a call whose uploads
    /// are all refused leaves none behind.
    /// Throws a ``MediaError/Kind/systemLimit`` error (out of open files), which is no clip's fault.
    public func rejections(of clips: [String]) throws -> [IngestOutcome]? {
        var outcomes: [IngestOutcome] = []
        for clip in clips {
            let beforeReading = FileStamp(path: clip)
            do {
                try inspectUpload(clip).firstFrame.wait().get()
                return nil
            } catch let error as MediaError where error.kind == .systemLimit {
                throw error
            } catch let error as MediaError where ClipIngester.isUnreadableUpload(clip, error) {
                // Not a rejection, but it cannot go in either (a review: with only such uploads,
                // `--create --render` made the folder, took it away and then rendered it).
                outcomes.append(.notWritten(error))
            } catch {
                outcomes.append(ClipIngester.refused(clip, error, since: beforeReading))
            }
        }
        return outcomes
    }

    /// Seconds a container may last past its video and still be measured by its video for
    /// ``maxDuration``: the audio phones and apps mux past the last picture (an AAC frame is
    /// 0.021–0.023 s).
    static let audioOverhang = 0.1

    /// Inspects upload `clip`: it must inspect cleanly, have video that lasts more than 0 and at
    /// most ``maxDuration`` seconds, and a first frame that decodes. Returns the stamp it had
    /// before it was inspected (its copy must be of what was inspected), its container (`mov`,
    /// `mp4`), its ``ClipRecord/playbackConcern`` and the decoding of its first frame, still at
    /// work, whose failure rejects it too; throws why it is rejected.
    private func inspectUpload(_ clip: String) throws -> (
        stamp: FileStamp, container: String, concern: String?, firstFrame: BackgroundWork<Void>
    ) {
        let stamp = FileStamp(path: clip)
        // Its header can be whole over pictures that do not decode (an upload whose data was
        // damaged, a header claiming another codec or size): render would skip it, so it is
        // refused here. Its first frame is decoded, small, on another thread while the header is
        // read: each opens the file on its own, and together they were a quarter of an ingest
        // of a large upload (`make bench`). The probe's error still comes first.
        let firstFrame = BackgroundWork { [timeout] in
            _ = try ClipFrameSource(path: clip, timeout: timeout, threads: 1).firstFrame(size: .width(64))
        }
        // Rejected here, the upload's frame is waited for: nothing of it goes on running.
        var handedOver = false
        defer { if !handedOver { _ = firstFrame.wait() } }
        // Not its colour tags: nothing here uses them, and an upload without a `colr` box had its
        // first frame decoded twice, once for them (35 of a 277 MB upload's 100 ms of CPU).
        let info = try ClipProbe.inspect(path: clip, timeout: timeout, readingColour: false)
        let (video, containerDuration) = try ClipRecord.playable(info, path: clip)
        // Phones and apps mux the audio a frame or two past the last picture: a clip of 60.000 s
        // of video and 60.01 s of audio was refused by --max-duration 60 (a QA pass). Within
        // 0.1 s of its video, a clip is measured by its video.
        let duration =
            video.duration.flatMap {
                $0 <= containerDuration && containerDuration - $0 <= Self.audioOverhang ? $0 : nil
            }
            ?? containerDuration
        guard duration <= maxDuration else {
            // To as many decimals as show it longer: "5.0 s is longer than 5 s" read as a
            // contradiction for a clip of 5.033 s (a QA pass).
            let shown =
                (1...6).lazy.map { String(format: "%.\($0)f", duration) }.first { Double($0) ?? 0 > maxDuration }
                ?? "\(duration)"
            // Audio that runs on past a video within the limit says so: "10.0 s is longer than
            // --max-duration 5 s" of 3 s of video read as wrong (the audio QA pass).
            let audioRunsOn = info.audio == nil ? nil : video.duration.flatMap { $0 <= maxDuration ? $0 : nil }
            throw MediaError(
                .invalidMedia, path: clip,
                "\(shown) s is longer than --max-duration \(maxDuration.secondsText) s"
                    + (audioRunsOn.map { String(format: " (its video lasts %.1f s; its audio runs on)", $0) } ?? ""))
        }
        guard let stamp else { throw MediaError(.missingInput, path: clip, "no such file") }
        handedOver = true
        return (
            stamp, info.container,
            ClipRecord.playbackConcern(
                codec: video.codec, codecs: video.codecs, dolbyVisionProfile: video.dolbyVisionProfile,
                audioCodec: info.audio?.codec), firstFrame
        )
    }

    /// Refuses `folder` (STORIES/HANDLE) when something other than a folder inside the stories
    /// folder is there: a symlink that leads outside it, for the reason `render` skips such a
    /// story; a symlink that leads nowhere; a file. Nothing there is fine: it is created.
    private func checkStoryFolder(_ folder: String) throws {
        guard FileStamp(path: folder, followingLinks: false) != nil else { return }
        let root = try InputRoot(storiesFolder)
        switch root.resolve(handle) {
        case .outside:
            throw MediaError(.cannotCreateOutput, path: folder, root.outsideReason(for: handle))
        case .missing:
            throw MediaError(.cannotCreateOutput, path: folder, "a link that leads nowhere, not a story folder")
        case .inside:
            guard FileStamp(path: folder)?.isFolder == true else {
                throw MediaError(.cannotCreateOutput, path: folder, "exists and is not a folder")
            }
        }
    }

    /// Opens and pins `folder` (``FolderPin``), the story folder checked under the lock, so that
    /// every copy goes into it by descriptor: a symlink put in its place during the ingest leads
    /// nowhere (a QA pass: a racer swapping the folder had uploads copied into a victim folder).
    /// It is checked again once open, and must still be the folder the path names.
    private func pinStoryFolder(_ folder: String) throws -> FolderPin {
        let pin = try FolderPin(path: folder)
        try checkStoryFolder(folder)
        guard FileIdentity(path: folder) == pin.handle.identity else {
            throw MediaError(.cannotCreateOutput, path: folder, "the folder was replaced while storyreel worked")
        }
        return pin
    }

    /// Copies `clip` into `folder` under the first free name `NNNN-NAME` numbered after
    /// `sequence`, which is advanced past it, and returns the name. An existing name is never
    /// replaced: a name another writer took meanwhile is skipped.
    private func place(
        _ clip: String, container: String, check: ClipPlacement.Check, in folder: String, nameLimit: Int,
        after sequence: inout Int, beforePlacing: () throws -> Void, placed: (String) -> Void
    ) throws -> String {
        var base = (clip as NSString).lastPathComponent
        // Render plays only clip names (.mov, .mp4, .m4v): an upload named otherwise (`upload`,
        // `video.bin`) gets its container's extension.
        if !StoryInput.clipExtensions.contains((base as NSString).pathExtension.lowercased()) {
            base += "." + container
        }
        // Each name is new (numbered past every one in the folder, under the lock), so a name
        // is taken only by a writer outside storyreel; tries are bounded all the same (a QA pass
        // injecting EEXIST into every rename: the ingest ran on for good, holding the lock).
        for _ in 0..<ClipIngester.namingAttempts where sequence < Int.max - 1 {
            sequence += 1
            let name = ClipIngester.fileName(sequence: sequence, clipName: base, limit: nameLimit)
            do {
                try ClipPlacement.place(
                    clip, at: BundlePaths.join(folder, name), check: check, link: false, exclusive: true,
                    timeout: timeout, beforePlacing: beforePlacing, placed: { placed(name) })
                return name
            } catch is StagedFile.NameTaken {
                continue
            } catch {
                // Nothing went in under this number: the next clip takes it.
                sequence -= 1
                throw error
            }
        }
        throw MediaError(
            .cannotCreateOutput, path: folder,
            "no free sequence number: the next \(ClipIngester.namingAttempts) names were taken as it tried them")
    }

    /// The name a clip gets in its story: `NNNN-` (the sequence number, at least 4 digits) and
    /// the clip's file name, its control characters made `_`, its stem cut short (keeping the
    /// extension, at a character boundary) when the whole would be longer than `limit` bytes,
    /// the file system's limit.
    static func fileName(sequence: Int, clipName: String, limit: Int) -> String {
        let prefix = String(format: "%04ld-", sequence)
        return prefix + FileNameLength.fitting(withoutControlCharacters(clipName), in: limit - prefix.utf8.count)
    }

    /// `name` with each control character made `_` (C0 and C1, DEL: a newline, a tab, a terminal
    /// escape; the line separators and the bidirectional overrides, which made `ls` show a clip
    /// as a `.jpg`), so a stored clip's name lists, loops and pastes safely in a shell.
    static func withoutControlCharacters(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { $0.isLineOrDisplayControl ? "_" : $0 }))
    }

    /// The number the next clip's sequence counts on from, among the story's clip `names`: the
    /// highest number up to ``largestSequenceNumber`` a name starts with (`0007-IMG.MOV`,
    /// `10.mp4`), then on through each higher number within ``sequenceGap`` of the last one
    /// (`9999.mp4`, `10000-a.mp4`, `10002-b.mp4`: the sequence ingest ran on, a clip deleted
    /// from it), but not across a wider gap: a date such as `20240101.mp4` is no sequence number.
    /// (Past 9999 every clip was numbered 10000.)
    static func sequenceStart(of names: [String]) -> Int {
        let numbers = names.compactMap(leadingNumber)
        var sequence = numbers.filter { $0 <= largestSequenceNumber }.max() ?? 0
        for number in numbers.filter({ $0 > largestSequenceNumber }).sorted() where number > sequence {
            guard number - sequence <= sequenceGap else { break }
            sequence = number
        }
        return sequence
    }

    /// The widest gap between two numbers past ``largestSequenceNumber`` that the sequence still
    /// runs on across.
    static let sequenceGap = 100

    /// The number a name starts with, or nil when it starts with no digit, with more than 18
    /// significant ones (no overflow, whatever the name), or with a date (`2024-06-01 12.00.00.mp4`,
    /// `2024_06_01.mov`: a QA pass numbered the next clip `2025-up.mp4`, then `2026-…`).
    /// Read as the order reads it (``NaturalOrder/comparedForm(of:)``): a full-width `１０.mp4`
    /// is 10 (a QA pass: it was no number, so the next clip, `0001-…`, played before it).
    static func leadingNumber(of name: String) -> Int? {
        let name = NaturalOrder.comparedForm(of: name)
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, !startsWithDate(name) else { return nil }
        let significant = digits.drop { $0 == "0" }
        guard significant.count <= 18 else { return nil }
        return significant.isEmpty ? 0 : Int(significant)
    }

    /// True when `name` starts with a digit as the order reads it (``NaturalOrder/comparedForm(of:)``):
    /// names that do not sort after every numbered one.
    public static func startsWithDigit(_ name: String) -> Bool {
        NaturalOrder.comparedForm(of: name).first.map { $0.isASCII && $0.isNumber } ?? false
    }

    /// True when `name` starts with a date as cameras and phones write it: four digits, then
    /// two and two, each after a `-`, `_` or `.` (`2024-06-01`, `2024_06_01`), or eight digits
    /// that make a date of 1970 to 2099 before a `_`, `-` or `.` (`20240601_100000.mp4`, as
    /// Samsung's camera names them: a re-check), which is no sequence number.
    public static func startsWithDate(_ name: String) -> Bool {
        let scalars = Array(NaturalOrder.comparedForm(of: name).unicodeScalars.prefix(10))
        guard scalars.count >= 9 else { return false }
        let isDigit = { (index: Int) in ("0"..."9").contains(scalars[index]) }
        if (0..<8).allSatisfy(isDigit), ["_", "-", "."].contains(scalars[8]) {
            let value = { (from: Int, count: Int) in
                scalars[from..<(from + count)].reduce(0) { $0 * 10 + Int($1.value - 48) }
            }
            let (year, month, day) = (value(0, 4), value(4, 2), value(6, 2))
            return (1970...2099).contains(year) && CreationTime.dayExists(year: year, month: month, day: day)
        }
        guard scalars.count == 10 else { return false }
        let isSeparator = { (index: Int) in ["-", "_", "."].contains(scalars[index]) }
        return (0..<4).allSatisfy(isDigit) && isSeparator(4) && isDigit(5) && isDigit(6) && isSeparator(7)
            && isDigit(8) && isDigit(9) && scalars[4] == scalars[7]
    }
}
