import Foundation
import StoryreelTestSupport
import Testing

/// Issue 9, item 10 (the media layer's half): a FIFO, `/dev/zero`, `/dev/urandom`, or a symlink
/// to one, given where a clip or a still is read, is refused at once with exit 66 and one line
/// naming it, never waited on or read forever. Every run is killed after 20 s, so a hang fails
/// the test instead of stalling the suite; each must in fact take a few seconds at most.
@Suite struct NonRegularInputTests {
    let folder: TemporaryFolder
    let outputs: TemporaryFolder
    init() throws {
        folder = try TemporaryFolder()
        outputs = try TemporaryFolder()
    }

    /// A FIFO and links to devices, with clip and still names.
    func hostileInputs(named stem: String, extension fileExtension: String) throws -> [String] {
        let fifo = folder.path("\(stem)-fifo.\(fileExtension)")
        try HostileFiles.fifo(at: fifo)
        var paths = [fifo]
        for device in ["/dev/zero", "/dev/urandom"] {
            let link = folder.path("\(stem)-\((device as NSString).lastPathComponent).\(fileExtension)")
            try HostileFiles.link(at: link, to: device)
            paths.append(link)
        }
        return paths
    }

    func expectRefusedAtOnce(_ outcome: LimitedRun.Outcome, naming path: String, _ what: String) {
        #expect(outcome.result.status == 66, "\(outcome.result.status): \(outcome.result.stderr)")
        #expect(outcome.seconds < 5, "took \(outcome.seconds) s")
        let lines = LimitedRun.errorLines(outcome.result.stderr)
        #expect(lines == ["storyreel: error: \(path): \(what), not a regular file"], "\(outcome.result.stderr)")
    }

    static func kind(of path: String) -> String { path.contains("fifo") ? "a FIFO" : "a device" }

    @Test func inspectRefusesEachAndReportsTheRest() throws {
        let hostile = try hostileInputs(named: "clip", extension: "mov")
        let outcome = try LimitedRun.storyreel(
            ["inspect", "--json", HostileFiles.goodClip] + hostile + ["/dev/zero"], seconds: 20)
        #expect(outcome.result.status == 66, "\(outcome.result.stderr)")
        #expect(outcome.seconds < 5, "took \(outcome.seconds) s")
        let objects = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.result.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == 5)
        #expect(objects.first?["error"] is NSNull)
        #expect(
            LimitedRun.errorLines(outcome.result.stderr)
                == (hostile + ["/dev/zero"]).map { "storyreel: error: \($0): \(Self.kind(of: $0)), not a regular file" }
        )
    }

    /// A QA pass: a socket was "cannot open: No such device or address" where a FIFO is named
    /// as one, and `clip.mp4/` (a slash after a file's name) "no such file" beside the file.
    @Test func aSocketAndAPathThroughAFileAreNamedForWhatTheyAre() throws {
        let socket = folder.path("clip-socket.mp4")
        try HostileFiles.socket(at: socket)
        let throughFile = HostileFiles.goodClip + "/"
        let outcome = try LimitedRun.storyreel(["inspect", socket, throughFile], seconds: 20)
        #expect(outcome.result.status == 66, "\(outcome.result.stderr)")
        #expect(
            LimitedRun.errorLines(outcome.result.stderr) == [
                "storyreel: error: \(socket): a socket, not a regular file",
                "storyreel: error: \(throughFile): no such file: a part of the path is a file, not a folder",
            ], "\(outcome.result.stderr)")
    }

    /// A QA pass: a loop of symbolic links was "no such file or folder" to render and plan, and
    /// "cannot open: Too many levels of symbolic links" to the others. Every command says it alike.
    @Test func aLoopOfSymbolicLinksIsSaidAlikeByEveryCommand() throws {
        let loop = folder.path("loop")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop")
        for arguments in [
            ["render", loop, "-o", outputs.path("reel")], ["plan", loop], ["inspect", loop],
            ["thumbnail", loop, "-o", outputs.path("p.jpg")],
        ] {
            let outcome = try LimitedRun.storyreel(arguments, seconds: 20)
            #expect(outcome.result.status == 66, "\(arguments): \(outcome.result.stderr)")
            #expect(
                LimitedRun.errorLines(outcome.result.stderr)
                    == ["storyreel: error: \(loop): cannot open: a loop of symbolic links (or one too many)"],
                "\(arguments): \(outcome.result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.url.path).isEmpty)
    }

    @Test func thumbnailRefusesEachAndWritesNothing() throws {
        for clip in try hostileInputs(named: "clip", extension: "mp4") {
            let outcome = try LimitedRun.storyreel(["thumbnail", clip, "-o", outputs.path("poster.jpg")], seconds: 20)
            expectRefusedAtOnce(outcome, naming: clip, Self.kind(of: clip))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.url.path).isEmpty)
    }

    @Test func cubeRefusesThemAsClipsAndAsStills() throws {
        let clips = try hostileInputs(named: "face", extension: "mov")
        let stills = try hostileInputs(named: "face", extension: "png")
        let good = HostileFiles.goodClip
        var runs: [(arguments: [String], culprits: [String])] = []
        for (clip, still) in zip(clips, stills) {
            runs.append((["cube", clip, good], [clip]))  // FROM a FIFO or device clip
            runs.append((["cube", good, still], [still]))  // TO a FIFO or device still
            runs.append((["cube", still, good, "--size", "64x64"], [still]))
            runs.append((["cube", clip, still], [clip, still]))  // both: each named, FROM first
        }
        for (arguments, culprits) in runs {
            let outcome = try LimitedRun.storyreel(
                arguments + ["-o", outputs.path("cube.mp4"), "--frames-dir", outputs.path("frames")], seconds: 20)
            #expect(outcome.result.status == 66, "\(outcome.result.status): \(outcome.result.stderr)")
            #expect(outcome.seconds < 5, "took \(outcome.seconds) s")
            #expect(
                LimitedRun.errorLines(outcome.result.stderr)
                    == culprits.map { "storyreel: error: \($0): \(Self.kind(of: $0)), not a regular file" },
                "\(outcome.result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.url.path).isEmpty)
    }
}
