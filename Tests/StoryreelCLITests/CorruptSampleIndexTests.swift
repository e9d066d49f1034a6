import Foundation
import StoryreelTestSupport
import Testing

/// Issue 9, item 6: a sample size of 2^29 to 2^30 − 1 in `stsz` (one 4-byte change) comes back
/// from FFmpeg as a negative index-entry size. It used to trap a conversion and kill `inspect`,
/// `render` and `ingest` with SIGILL. A corrupt sample index is now invalid media: every command
/// exits 65 with one error line naming the clip, and a batch goes on with the other clips.
@Suite struct CorruptSampleIndexTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// A copy of the good sample with the size of sample `entry` (0-based; the third by
    /// default) set to `size`.
    func corruptClip(size: UInt32, entry: Int = 2, name: String = "corrupt.mp4") throws -> String {
        let path = folder.path(name)
        try HostileFiles.corruptSampleSize(of: HostileFiles.goodClip, to: path, entry: entry, value: size)
        return path
    }

    /// The first sample too (a QA pass: inspect read it as a packet before it looked at the
    /// index, and said "cannot read packet: Cannot allocate memory").
    @Test(arguments: [(UInt32(1) << 29, 2), ((UInt32(1) << 30) - 1, 2), (UInt32(1) << 29, 0)])
    func inspectJSONReportsEveryClipAndExits65(size: UInt32, entry: Int) throws {
        let bad = try corruptClip(size: size, entry: entry)
        let good = HostileFiles.goodClip
        let result = try TestEnvironment.storyreel(["inspect", "--json", good, bad, good])
        #expect(result.status == 65, "\(result.stderr)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == 3)
        #expect(objects.map { $0["path"] as? String } == [good, bad, good])
        #expect(objects[0]["error"] is NSNull && objects[2]["error"] is NSNull)
        #expect((objects[0]["video"] as? [String: Any])?["width"] as? Int == 720, "the good clips are fully reported")
        let error = try #require(objects[1]["error"] as? String)
        #expect(error.hasPrefix("the sample index is corrupt"), "\(error)")
        // Not the negative number FFmpeg's 30-bit size field wraps it to (a QA pass).
        #expect(error.contains("has a size of 2^29 bytes or more (more than FFmpeg's index holds)"), "\(error)")
        #expect(LimitedRun.errorLines(result.stderr) == ["storyreel: error: \(bad): \(error)"])
    }

    @Test func thumbnailAndCubeExit65AndWriteNothing() throws {
        let bad = try corruptClip(size: 1 << 29)
        let outputs = try TemporaryFolder()
        let runs: [[String]] = [
            ["thumbnail", bad, "-o", outputs.path("poster.jpg")],
            ["thumbnail", bad, "--out-dir", outputs.path("posters"), "--at", "1"],
            ["cube", bad, HostileFiles.otherClip, "-o", outputs.path("from.mp4")],
            ["cube", HostileFiles.otherClip, bad, "--direction", "backward", "-o", outputs.path("to.mp4")],
            ["cube", HostileFiles.otherClip, bad, "--frames-dir", outputs.path("frames"), "--size", "64x64"],
        ]
        for arguments in runs {
            let result = try TestEnvironment.storyreel(arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            let lines = LimitedRun.errorLines(result.stderr)
            #expect(lines.count == 1 && lines[0].hasPrefix("storyreel: error: \(bad): the sample index is corrupt"))
        }
        // The poster folder was made before the clip was read (thumbnail's --out-dir); nothing else.
        let left = try FileManager.default.contentsOfDirectory(atPath: outputs.url.path)
        #expect(left == ["posters"] || left.isEmpty, "\(left)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: outputs.path("posters"))) ?? [] == [])
    }

    @Test func ingestRejectsItAndRenderSkipsIt() throws {
        let bad = try corruptClip(size: 1 << 29)
        let fixture = try BundleFixture()
        let ingest = try TestEnvironment.storyreel(["ingest", bad, "--story", "chloe", "--into", fixture.stories])
        #expect(ingest.status == 65, "\(ingest.stderr)")
        #expect(ingest.stderr.contains("\(bad): "), "\(ingest.stderr)")
        #expect(ingest.stderr.contains("the sample index is corrupt"))

        try FileManager.default.copyItem(atPath: bad, toPath: fixture.stories + "/chloe/zz-corrupt.mp4")
        let (render, summary) = try fixture.render(into: "out")
        #expect(render.status == 65, "\(render.stderr)")
        #expect(render.stderr.contains("zz-corrupt.mp4: "), "\(render.stderr)")
        #expect(render.stderr.contains("the sample index is corrupt"))
        #expect(!summary.isEmpty, "the render finished and printed its summary")
        #expect(FileManager.default.fileExists(atPath: fixture.folder.path("out/manifest.json")))
    }

    /// An index forged to list millions of samples in a few bytes is refused before FFmpeg
    /// builds it. From an audit: a 7.5 KB clip whose size table listed 10,000,000 one-byte
    /// samples took 1.7 GB and 20 s to inspect (50,000,000 took 8 GB, and under a memory limit
    /// ended in a failed allocation, SIGABRT), past its --timeout; a fragment's run did the same.
    @Test func anIndexForgedToListMillionsOfSamplesIsRefused() throws {
        let forged = folder.path("forged.mp4")
        try HostileFiles.forgedSampleCount(of: HostileFiles.goodClip, to: forged, count: 10_000_000)
        let fragments = folder.path("fragments.mp4")
        try HostileFiles.forgedFragmentSampleCount(of: HostileFiles.goodClip, to: fragments, count: 20_000_000)
        // Over the cap in a file with a byte for each: 3,000,001 samples in 3.1 MB.
        let long = folder.path("long.mp4")
        try HostileFiles.forgedSampleCount(of: HostileFiles.goodClip, to: long, count: 3_000_001, padding: 3_100_000)
        // A second audit's ways past the first check: a forged size table after the real one
        // (FFmpeg keeps the last), and one behind 4096 atoms, more than the sniffer read.
        let forgedTable = HostileFiles.atom("stsz", [0, 1, 10_000_000])
        let second = folder.path("second.mp4")
        try HostileFiles.insert(forgedTable, after: "stsz", of: HostileFiles.goodClip, to: second)
        let hidden = folder.path("hidden.mp4")
        let crowd = Array(repeating: HostileFiles.atom("free", []), count: 4097).flatMap { $0 }
        try HostileFiles.insert(crowd + forgedTable, after: "stsz", of: HostileFiles.goodClip, to: hidden)
        // A review's: the forged table in the track's udta, where FFmpeg reads it all the same.
        let stray = folder.path("stray.mp4")
        try HostileFiles.insert(
            HostileFiles.atom("udta", containing: forgedTable), after: "mdia", of: HostileFiles.goodClip, to: stray)
        // A re-audit's: encryption records read one a claimed sample (16 KB took 2 GB), and a
        // compressed index, inflated in one call no deadline reaches (2 MB took 2 GB).
        let encrypted = folder.path("encrypted.mp4")
        try HostileFiles.insert(
            HostileFiles.atom("senc", [0, 4_000_000]), after: "mdia", of: HostileFiles.goodClip, to: encrypted)
        // A last review's: a track FFmpeg would read from the top level, or from a moov nested
        // in a track.
        let rootTrack = folder.path("root-track.mp4")
        try (Data(contentsOf: URL(fileURLWithPath: HostileFiles.goodClip)) + Data(HostileFiles.atom("trak", [])))
            .write(to: URL(fileURLWithPath: rootTrack))
        let nested = folder.path("nested.mp4")
        try HostileFiles.insert(HostileFiles.atom("moov", []), after: "mdia", of: HostileFiles.goodClip, to: nested)
        let compressed = folder.path("compressed.mp4")
        try HostileFiles.insert(
            HostileFiles.atom("cmov", [0]), after: "mvhd", of: HostileFiles.goodClip, to: compressed)
        let cases = [
            // The counts are every track's: the clip's audio adds its own.
            (forged, "its index lists 1000"), (fragments, "its index lists 2000"),
            (long, "its index lists 3000"), (second, "its index lists 1000"),
            (hidden, "an atom of its index holds more than 4096 atoms"),
            (stray, "its index holds a stsz atom in udta, which FFmpeg would read as a track's"),
            (encrypted, "encryption records (senc): storyreel does not decrypt clips"),
            (compressed, "a compressed index (cmov), which storyreel does not read"),
            (rootTrack, "a trak atom at the top level, which FFmpeg would read as a track's"),
            (nested, "its index holds a moov atom in trak"),
        ]
        for (clip, reason) in cases {
            let run = try LimitedRun.storyreel(
                ["inspect", "--json", HostileFiles.goodClip, clip], virtualMemoryKiB: 3_000_000, measuresMemory: true)
            #expect(run.result.status == 65, "\(clip): \(run.result.stderr)")
            let objects = try JSONSerialization.jsonObject(with: Data(run.result.stdout.utf8)) as? [[String: Any]]
            #expect(objects?.first?["error"] is NSNull, "the good clip is reported: \(run.result.stdout)")
            let error = objects?.last?["error"] as? String ?? ""
            #expect(error.hasPrefix(reason), "\(error)")
            #expect(
                [hidden, stray, encrypted, compressed, rootTrack, nested].contains(clip)
                    || error.hasSuffix(clip == long ? ".mov)" : "the index is corrupt or forged"), "\(error)"
            )
            #expect((run.peakKiB ?? .max) < 300_000, "\(clip): \(run.peakKiB ?? -1) KiB")
        }
        let thumbnail = try TestEnvironment.storyreel(["thumbnail", fragments, "-o", folder.path("poster.jpg")])
        #expect(thumbnail.status == 65, "\(thumbnail.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("poster.jpg")))
    }

    /// An audit's: FFmpeg unrolls an HEVC track's composition offset runs (`ctts`) and sync
    /// sample group runs (`sbgp`) into lists of 4 bytes a sample, and zeroes a byte for each
    /// entry a sync sample group description (`sgpd`) claims, before reading any: 2.1 GB from
    /// a 237 KB clip, exit 0, in every command (3 such tracks: 6.3 GB). The runs add up to the
    /// samples in a real clip, and a description's entries fit in its bytes.
    @Test func sampleGroupsForgedToUnrollMillionsOfSamplesAreRefused() throws {
        let sync: UInt32 = 0x7379_6E63
        let cases: [(atoms: [UInt8], after: String, reason: String)] = [
            (
                HostileFiles.atom("ctts", [0, 1, 0x1FFF_FFF0, 0]), "stsz",
                "its composition offset (ctts) runs add up to more than 3000000 samples"
            ),
            (
                HostileFiles.atom("sbgp", [0, sync, 1, 0x1FFF_FFF0, 1]), "stsz",
                "its sample group (sbgp) runs add up to more than 3000000 samples"
            ),
            (
                HostileFiles.atom("sgpd", [0x0100_0000, sync, 1, 0x7FFF_FFF0, 0x1400_0000]), "stsz",
                "its sync sample group description (sgpd) lists 2147483632 entries in 20 bytes"
            ),
            (
                HostileFiles.atom("udta", containing: HostileFiles.atom("sgpd", [0x0100_0000, sync, 1, 0x7FFF_FFF0])),
                "mdia", "its index holds a sgpd atom in udta, which FFmpeg would read as a track's"
            ),
        ]
        for (index, (atoms, type, reason)) in cases.enumerated() {
            let clip = folder.path("groups-\(index).mp4")
            try HostileFiles.insert(atoms, after: type, of: HostileFiles.goodClip, to: clip)
            let run = try LimitedRun.storyreel(["inspect", "--json", clip], measuresMemory: true)
            #expect(run.result.status == 65, "\(clip): \(run.result.stderr)")
            let error =
                (try JSONSerialization.jsonObject(with: Data(run.result.stdout.utf8)) as? [[String: Any]])?
                .first?["error"] as? String
            #expect(error?.hasPrefix(reason) == true, "\(error ?? run.result.stderr)")
            #expect((run.peakKiB ?? .max) < 300_000, "\(clip): \(run.peakKiB ?? -1) KiB")
        }
        // A real clip's sample groups (AAC's roll group, written by FFmpeg's muxer) are read.
        let rolled = folder.path("rolled.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "sine=d=1", "-f", "lavfi", "-i", "testsrc2=s=64x64:d=1", "-c:a", "aac", "-c:v",
            "libx264", rolled,
        ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: rolled)).range(of: Data("sgpd".utf8)) != nil)
        let read = try TestEnvironment.storyreel(["inspect", rolled])
        #expect(read.status == 0, "\(read.stderr)")
    }
}
