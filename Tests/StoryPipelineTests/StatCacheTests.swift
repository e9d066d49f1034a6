import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// The stat cache gives a clip's record back only while its size, mtime, inode and change time are the ones
/// it was stored with, and keeps what it saves.
@Suite struct StatCacheTests {
    static func record(of path: String) throws -> ClipRecord {
        try ClipRecord(
            sha256: ContentHasher.sha256(of: try RegularFile(path: path, timeout: 10)),
            info: ClipProbe.inspect(path: path), path: path)
    }

    @Test func aRecordHoldsUntilSizeMtimeInodeOrChangeTimeChange() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("clip.mp4")
        try FileManager.default.copyItem(atPath: HostileFiles.goodClip, toPath: clip)
        let record = try Self.record(of: clip)
        let cache = StatCache.madeLater(file: folder.path("cache.json"))
        #expect(cache.record(for: clip) == nil)
        cache.store(record, for: clip)
        #expect(cache.record(for: clip) == record)

        // The mtime: the same bytes touched later.
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: clip)[.modificationDate] as? Date)
        try FileManager.default.setAttributes([.modificationDate: modified.addingTimeInterval(60)], ofItemAtPath: clip)
        #expect(cache.record(for: clip) == nil, "a new mtime")
        cache.store(record, for: clip)
        #expect(cache.record(for: clip) == record)

        // The size: a byte more, with the mtime put back.
        let now = try #require(try FileManager.default.attributesOfItem(atPath: clip)[.modificationDate] as? Date)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: clip))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: clip)
        #expect(cache.record(for: clip) == nil, "a new size")
        cache.store(record, for: clip)

        // The inode: an identical copy renamed over it, with the same size and mtime.
        let copy = folder.path("copy.mp4")
        try FileManager.default.copyItem(atPath: clip, toPath: copy)
        try FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: copy)
        #expect(rename(copy, clip) == 0)
        #expect(cache.record(for: clip) == nil, "a new inode")
        #expect(cache.record(for: folder.path("missing.mp4")) == nil)
        cache.store(record, for: clip)
        #expect(cache.record(for: clip) == record)

        // The change time: a byte rewritten in place, with the size and mtime put back.
        var before = stat()
        #expect(stat(clip, &before) == 0)
        let rewrite = try FileHandle(forUpdating: URL(fileURLWithPath: clip))
        try rewrite.seek(toOffset: 1000)
        try rewrite.write(contentsOf: Data([0x55]))
        try rewrite.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, clip, &times, 0) == 0)
        #expect(cache.record(for: clip) == nil, "a new change time")
    }

    @Test func savedRecordsReadBackAndUnlistedPathsAreDropped() throws {
        let folder = try TemporaryFolder()
        let clips = ["a.mp4", "b.mp4"].map { folder.path($0) }
        for clip in clips { try FileManager.default.copyItem(atPath: HostileFiles.goodClip, toPath: clip) }
        let record = try Self.record(of: clips[0])
        let cache = StatCache.madeLater(file: folder.path("cache.json"))
        for clip in clips { cache.store(record, for: clip) }
        try cache.save(keeping: [clips[0]])
        let reloaded = StatCache.madeLater(file: folder.path("cache.json"))
        #expect(reloaded.record(for: clips[0]) == record)
        #expect(reloaded.record(for: clips[1]) == nil)
        #expect(record.codecs == "avc1.64001f")
    }

    /// A record made by an earlier probe (no version, or another one) no longer answers, so a
    /// bundle made before the probe learned something (a pixel aspect given only by the
    /// bitstream) gets the new reading on its next render, and `validate`, which probes afresh,
    /// does not fault a manifest that a render would never mend.
    @Test func aRecordFromAnEarlierProbeIsMadeAgain() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("a.mp4")
        try FileManager.default.copyItem(atPath: HostileFiles.goodClip, toPath: clip)
        let record = try Self.record(of: clip)
        let file = folder.path("cache.json")
        let cache = StatCache.madeLater(file: file)
        cache.store(record, for: clip)
        try cache.save(keeping: [clip])
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        let version = "\"probe\":\"\(StatCache.probeVersion)\""
        #expect(saved.contains(version), "\(saved)")
        #expect(StatCache.madeLater(file: file).record(for: clip) == record)
        for earlier in ["", "\"probe\":\"storyreel-probe-1\","] {
            try saved.replacingOccurrences(of: version + ",", with: earlier).write(
                toFile: file, atomically: true, encoding: .utf8)
            #expect(StatCache.madeLater(file: file).record(for: clip) == nil, "\(earlier)")
        }
    }

    /// From a QA pass: avatars were not in the cache, so every no-op re-run read each one whole
    /// again (four 14.7 MB avatars cost 200 ms of CPU). An avatar's hash is kept as a clip's
    /// record is, across renders, until the file changes.
    @Test func anAvatarsHashIsKeptAcrossRendersUntilItChanges() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let avatar = URL(fileURLWithPath: "\(fixture.stories)/ben_k/avatar.jpg").standardizedFileURL.path
        let file = fixture.folder.path("reel/.storyreel/stat-cache.json")
        let stamp = try #require(FileStamp(path: avatar))
        #expect(
            StatCache.madeLater(file: file).hash(for: avatar, stamp: stamp)
                == (try ContentHasher.sha256(ofFileAt: avatar)))
        #expect(StatCache.madeLater(file: file).record(for: avatar, stamp: stamp) == nil, "a hash, not a clip's record")

        // Another picture in its place: hashed anew, and the bundle's avatar made from it.
        let before = try #require(try fixture.manifest("reel").stories.first { $0.id == "ben_k" }?.user.avatar)
        try FileManager.default.removeItem(atPath: avatar)
        try FileManager.default.copyItem(atPath: "\(fixture.stories)/ana.lima/avatar.jpg", toPath: avatar)
        #expect(try fixture.render(into: "reel").0.status == 0)
        let after = try #require(try fixture.manifest("reel").stories.first { $0.id == "ben_k" }?.user.avatar)
        #expect(after != before)
        let changed = try #require(FileStamp(path: avatar))
        #expect(
            StatCache.madeLater(file: file).hash(for: avatar, stamp: changed)
                == (try ContentHasher.sha256(ofFileAt: avatar)))
    }

    /// From a QA pass: the cache was keyed by the stories folder's path as typed, so renders of
    /// `stories` and of a link to it, in turn, each probed and hashed every clip again and
    /// replaced the other's entries. Keyed by the resolved path, the second is a no-op for it.
    @Test func theStoriesReachedThroughALinkAreTheSameEntries() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let file = fixture.folder.path("reel/.storyreel/stat-cache.json")
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let link = fixture.folder.path("link-to-stories")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fixture.stories)
        let result = try TestEnvironment.storyreel(
            ["render", link, "-o", fixture.folder.path("reel"), "--size", BundleFixture.canvasArgument, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "the cache was rewritten")
        let real = try #require(BundlePaths.realPath(fixture.stories))
        let clip = "\(real)/ben_k/1.mp4"
        let stamp = try #require(FileStamp(path: clip))
        #expect(StatCache.madeLater(file: file).record(for: clip, stamp: stamp) != nil)
        #expect(StatCache.madeLater(file: file).record(for: "\(link)/ben_k/1.mp4", stamp: stamp) == nil)
    }

    /// A clip skipped for its contents keeps its reason while it is unchanged, across a save, for
    /// this build of storyreel only; it is never taken for a record.
    @Test func aFailureHoldsWhileTheFileIsUnchangedAndForThisBuildOnly() throws {
        let folder = try TemporaryFolder()
        let clip = try folder.write("bad.mp4", Data("not a clip".utf8))
        let stamp = try #require(FileStamp(path: clip))
        let file = folder.path("cache.json")
        let cache = StatCache.madeLater(file: file)
        #expect(cache.failure(for: clip, stamp: stamp) == nil)
        cache.storeFailure("not a QuickTime/MP4 file", for: clip, stamp: stamp)
        #expect(cache.failure(for: clip, stamp: stamp) == "not a QuickTime/MP4 file")
        #expect(cache.record(for: clip, stamp: stamp) == nil)
        try cache.save(keeping: [clip])
        #expect(StatCache.madeLater(file: file).failure(for: clip, stamp: stamp) == "not a QuickTime/MP4 file")

        // Another build: the entry's probe differs, so the clip is read again.
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        let probe = "\"probe\":\"\(StatCache.failureProbe)\""
        #expect(saved.contains(probe), "\(saved)")
        try saved.replacingOccurrences(of: probe, with: "\"probe\":\"storyreel-probe-3 0.2.0\"")
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(StatCache.madeLater(file: file).failure(for: clip, stamp: stamp) == nil)

        // A new stamp: the file was rewritten.
        try Data("still not a clip".utf8).write(to: URL(fileURLWithPath: clip))
        let rewritten = try #require(FileStamp(path: clip))
        #expect(cache.failure(for: clip, stamp: rewritten) == nil)
    }

    /// Only a reason that lies in the file's bytes is kept: not a deadline, a read failure, an
    /// errno from FFmpeg (out of memory), or what this FFmpeg build cannot do.
    @Test func onlyReasonsInTheFileAreKept() {
        #expect(BundlePlan.liesInTheFile(MediaError(.invalidMedia, "garbage")))
        #expect(BundlePlan.liesInTheFile(MediaError(.noVideoStream, "no video")))
        #expect(BundlePlan.liesInTheFile(MediaError(.invalidMedia, "bad data", ffmpegCode: -0x4144_4E49)))
        // What this FFmpeg build lacks is not the file's (a review): `.unsupported`, and FFmpeg's
        // other codes, such as AVERROR_DECODER_NOT_FOUND.
        #expect(!BundlePlan.liesInTheFile(MediaError(.unsupported, "no decoder for hevc in this FFmpeg build")))
        #expect(!BundlePlan.liesInTheFile(MediaError(.invalidMedia, "no decoder", ffmpegCode: -0x4345_44F8)))
        #expect(!BundlePlan.liesInTheFile(MediaError(.invalidMedia, "out of memory", ffmpegCode: -12)))
        #expect(!BundlePlan.liesInTheFile(MediaError(.timedOut, "timed out")))
        #expect(!BundlePlan.liesInTheFile(MediaError(.ioFailure, "read failed")))
        #expect(!BundlePlan.liesInTheFile(MediaError(.unreadableInput, "permission denied")))
        let changed = "it changed while it was being copied; run again once it is complete"
        #expect(!BundlePlan.liesInTheFile(MediaError(.invalidMedia, changed)))
    }

    /// A failure of a clip's images (found by a full render's units) answers a full render's
    /// plan, never a shard's: every shard must plan the units every other shard plans, and takes
    /// the clip's record kept with the failure rather than probing it again; the record also
    /// sizes a full render's canvas.
    @Test func aFailureOfTheImagesIsNotTakenByAShard() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("garbled.mp4")
        try FileManager.default.copyItem(atPath: HostileFiles.goodClip, toPath: clip)
        let record = try Self.record(of: clip)
        let stamp = try #require(FileStamp(path: clip))
        let cache = StatCache.madeLater(file: folder.path("cache.json"))
        cache.storeFailure("poster: no decodable video frame", for: clip, stamp: stamp, record: record)
        #expect(cache.failure(for: clip, stamp: stamp) == "poster: no decodable video frame")
        #expect(cache.failure(for: clip, stamp: stamp, unitFailuresToo: false) == nil)
        #expect(cache.record(for: clip, stamp: stamp) == record, "a shard's plan takes the record")
        #expect(cache.failedClipRecord(for: clip, stamp: stamp) == record, "the canvas counts it")
        cache.storeFailure("not a QuickTime/MP4 file", for: clip, stamp: stamp)
        #expect(cache.failure(for: clip, stamp: stamp, unitFailuresToo: false) == "not a QuickTime/MP4 file")
        #expect(cache.record(for: clip, stamp: stamp) == nil && cache.failedClipRecord(for: clip, stamp: stamp) == nil)
    }

    /// From the clocks QA pass: on ext4 with whole-second times, a half-written upload hashed in
    /// the second it was completed kept its stamp, and its old hash was trusted for good. An
    /// entry made within a tick of its file's change is not trusted (git's racy entries): the
    /// file is read again, and the entry made then is.
    @Test func anEntryMadeWithinATickOfItsFilesChangeIsNotTrusted() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("clip.mp4")
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: clip)
        let stamp = try #require(FileStamp(path: clip))
        let changed = stamp.statusChanged
        let record = try Self.record(of: clip)
        for (madeAfter, trusted) in [(Int64(5_000_000), false), (Int64(50_000_000), true)] {
            let cache = StatCache(
                file: folder.path("cache-\(madeAfter).json"), madeOffset: changed + madeAfter - stamp.takenAt)
            cache.store(record, for: clip, stamp: stamp)
            #expect((cache.record(for: clip, stamp: stamp) != nil) == trusted, "made \(madeAfter) ns after")
            try cache.save(keeping: [clip])
            #expect((StatCache(file: folder.path("cache-\(madeAfter).json")).record(for: clip) != nil) == trusted)
        }
        // Made well before the change: the change is a clock's error (a camera a year ahead sets
        // the mtime; the change time the kernel sets), not a write after the read.
        let before = StatCache(
            file: folder.path("cache-before.json"), madeOffset: changed - 60_000_000_000 - stamp.takenAt)
        before.store(record, for: clip, stamp: stamp)
        #expect(before.record(for: clip, stamp: stamp) != nil)
        let future = folder.path("future.mp4")
        try FileManager.default.copyItem(atPath: clip, toPath: future)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(365 * 86400)], ofItemAtPath: future)
        let futureStamp = try #require(FileStamp(path: future))
        let later = StatCache(file: folder.path("cache-future.json"), madeOffset: 50_000_000)
        later.store(record, for: future, stamp: futureStamp)
        #expect(later.record(for: future, stamp: futureStamp) != nil, "an mtime a year ahead is trusted")
        #expect(StatCache.timestampTick(modified: 5_000_000_000, statusChanged: 7_000_000_000) == 2_000_000_000)
        #expect(StatCache.timestampTick(modified: 5_000_000_000, statusChanged: 7_000_000_123) == 10_000_000)
    }

    /// A Dolby Vision clip's record cached before the profile was kept is probed again, so an
    /// existing bundle learns of a profile 5 clip's warning (a review); other records stand.
    @Test func aDolbyVisionRecordWithoutItsProfileIsProbedAgain() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("clip.mp4")
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: clip)
        let stamp = try #require(FileStamp(path: clip))
        var record = try Self.record(of: clip)
        let cache = StatCache.madeLater(file: folder.path("cache.json"))
        cache.store(record, for: clip, stamp: stamp)
        #expect(cache.record(for: clip, stamp: stamp) == record)
        record.hdr = "dolbyVision"
        cache.store(record, for: clip, stamp: stamp)
        #expect(cache.record(for: clip, stamp: stamp) == nil, "cached without its profile")
        record.dolbyVisionProfile = 5
        cache.store(record, for: clip, stamp: stamp)
        #expect(cache.record(for: clip, stamp: stamp) == record)
    }
}

extension StatCache {
    /// A cache whose entries say their stamps were taken an hour later: files these tests have just written (or
    /// dated a minute ahead) are then not racy (``StatCache`` distrusts an entry made within a tick of its file's
    /// change).
    static func madeLater(file: String) -> StatCache {
        StatCache(file: file, madeOffset: 3_600_000_000_000)
    }
}
