import Foundation
import StoryreelTestSupport
import Testing

/// From a cube QA pass: a clip whose last keyframe was zeroed (its index and last sample intact)
/// gave `cube` a face 12.9 dB from its true last frame, the first group's picture smeared, and
/// exit 0 in silence, as did `thumbnail --at 100%`; ffmpeg prints "Invalid NAL unit size". The
/// damaged packet is skipped as ffmpeg skips it, and each picture decoded past it comes with a
/// warning saying it may show damage: `cube`'s face, `thumbnail`'s poster, `render`'s stills.
@Suite struct DamagedKeyframeTests {
    let folder: TemporaryFolder
    let intact: String
    let damaged: String

    /// A 2 s H.264 clip with a keyframe a second, and a copy whose last keyframe's bytes are zeros.
    init() throws {
        folder = try TemporaryFolder()
        (intact, damaged) = try Self.makeClips(in: folder, named: "clip", source: "testsrc2")
    }

    /// `NAME.mp4` made from the lavfi `source` and `NAME-damaged.mp4`, its last keyframe zeroed.
    static func makeClips(in folder: TemporaryFolder, named name: String, source: String) throws -> (String, String) {
        let intact = folder.path("\(name).mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "\(source)=s=180x320:r=30:d=2", "-c:v", "libx264", "-preset", "veryfast",
            "-pix_fmt", "yuv420p", "-g", "30", "-sc_threshold", "0", "-movflags", "+faststart", intact,
        ])
        let packets = try TestEnvironment.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pos,size,flags", "-of", "csv=p=0", intact])
        let keyframe = try #require(packets.stdout.split(separator: "\n").last { $0.contains(",K") })
        let fields = keyframe.split(separator: ",").compactMap { Int($0) }
        try #require(fields.count == 2)
        let (size, position) = (fields[0], fields[1])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: intact))
        bytes.replaceSubrange(position..<(position + size), with: Data(count: size))
        let damaged = try folder.write("\(name)-damaged.mp4", bytes)
        let check = try TestEnvironment.run("ffmpeg", ["-v", "error", "-i", damaged, "-f", "null", "-"])
        #expect(check.stderr.contains("Invalid NAL unit size"), "the damage this test is about")
        return (intact, damaged)
    }

    @Test func cubeWarnsThatAFaceDecodedPastADamagedPacketMayShowIt() throws {
        let to = TestEnvironment.sample("stories/ben_k/1.mp4")
        let result = try TestEnvironment.storyreel([
            "cube", damaged, to, "-o", folder.path("d.mp4"), "--size", "180x320",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "storyreel: warning: \(damaged): its last frame may show damage: a packet before it could not be "
                    + "decoded, and was skipped as ffmpeg skips it\n"), "\(result.stderr)")
        let clean = try TestEnvironment.storyreel(["cube", intact, to, "-o", folder.path("i.mp4"), "--size", "180x320"])
        #expect(clean.status == 0 && !clean.stderr.contains("damage"), "\(clean.stderr)")
    }

    @Test func thumbnailWarnsOfItsPosterPastTheDamage() throws {
        let result = try TestEnvironment.storyreel(["thumbnail", damaged, "--at", "100%", "-o", folder.path("d.jpg")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(damaged): the poster (1.967 s) may show damage"), "\(result.stderr)")
        let early = try TestEnvironment.storyreel(["thumbnail", damaged, "--at", "0.5", "-o", folder.path("e.jpg")])
        #expect(early.status == 0 && !early.stderr.contains("damage"), "before the damage: \(early.stderr)")
    }

    @Test func renderWarnsOfTheFacesAndStillsPastTheDamageAndKeepsTheClips() throws {
        // ana's last frame is the face of the turn to ben (and its still is that face); cy's,
        // the last story's, is a still alone.
        let stories = folder.path("stories")
        let (_, other) = try Self.makeClips(in: folder, named: "other", source: "testsrc")
        for (story, clip) in [("ana", damaged), ("ben", intact), ("cy", other)] {
            try FileManager.default.createDirectory(atPath: "\(stories)/\(story)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: clip, toPath: "\(stories)/\(story)/1.mp4")
        }
        let result = try TestEnvironment.storyreel(["render", stories, "-o", folder.path("reel"), "--size", "180x320"])
        #expect(result.status == 0, "\(result.stderr)")
        // Each names its output in the bundle and its clip in the stories folder, as the render's
        // other lines do (a QA pass: the face's line named the clip by its absolute path).
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("may show damage") }
        let face =
            #/^storyreel: warning: transitions/[0-9a-f]+\.mp4: its face from ana/1\.mp4's last frame may show damage/#
        #expect(warnings.contains { $0.contains(face) }, "\(result.stderr)")
        let still =
            #/^storyreel: warning: stills/[0-9a-f]+-last\.jpg: this still of cy/1\.mp4's last frame may show damage/#
        #expect(warnings.contains { $0.contains(still) }, "\(result.stderr)")
        #expect(!warnings.contains { $0.contains("ben") || $0.contains("first frame") }, "\(result.stderr)")
        #expect(!warnings.contains { $0.contains(folder.url.path) }, "\(result.stderr)")
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: folder.path("reel/manifest.json")))) as? [String: Any]
        #expect((manifest?["skipped"] as? [Any])?.isEmpty == true, "every clip plays")
        #expect((manifest?["stories"] as? [Any])?.count == 3)

        // A re-run that makes nothing says them again, from the ledger (a CI job's cached re-run
        // said nothing of them); a line a hand-edited ledger adds, not naming its output, is not
        // said.
        let ledgerPath = folder.path("reel/.storyreel/ledger.json")
        var ledger = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ledgerPath)))
                as? [String: [String: Any]])
        let posters = ledger.keys.filter { $0.hasPrefix("posters/") }.sorted()
        try #require(posters.count >= 2)
        ledger[posters[0]]?["warnings"] = ["planted: not this output's"]
        // Not an array of strings: read as none, the rest of the ledger kept (a re-check: it
        // made the whole ledger "not a ledger").
        ledger[posters[1]]?["warnings"] = [1]
        try JSONSerialization.data(withJSONObject: ledger).write(to: URL(fileURLWithPath: ledgerPath))
        // The outputs as a restore from a tarball or a cache leaves them: new times, the same
        // bytes (a re-check: their warnings were dropped as their entries were refreshed).
        for kind in ["transitions", "stills"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path("reel/\(kind)")) {
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSinceNow: -3600)],
                    ofItemAtPath: folder.path("reel/\(kind)/\(name)"))
            }
        }
        let again = try TestEnvironment.storyreel(["render", stories, "-o", folder.path("reel"), "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(summary?["rendered"] as? Int == 0, "\(again.stdout)")
        let repeated = again.stderr.split(separator: "\n").filter { $0.contains("may show damage") }
        #expect(Set(repeated) == Set(warnings), "\(again.stderr)")
        #expect(!again.stderr.contains("planted") && !again.stderr.contains("not a ledger"), "\(again.stderr)")
        // And once more: the refreshed entries kept them.
        let third = try TestEnvironment.storyreel(["render", stories, "-o", folder.path("reel")])
        #expect(Set(third.stderr.split(separator: "\n").filter { $0.contains("may show damage") }) == Set(warnings))
        let jsonWarnings = summary?["warnings"] as? [String] ?? []
        #expect(jsonWarnings.filter { $0.contains("may show damage") }.count == warnings.count, "\(again.stdout)")
    }
}
