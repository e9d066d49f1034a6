import Foundation
import StoryreelTestSupport
import Testing

/// `inspect`, `thumbnail` and `plan` share one batch runner: every input is handled, results
/// come in argument order, and the first failure in that order sets the exit code.
@Suite struct BatchRunnerTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    static let clip = TestEnvironment.sample("portrait-h264.mp4")
    static let other = TestEnvironment.sample("sixty-fps.mp4")
    static let stories = TestEnvironment.sample("stories")

    @Test func theFirstFailureInArgumentOrderSetsTheExitCode() throws {
        let garbage = try folder.write("garbage.mp4", Data(repeating: 7, count: 4096))
        let missing = folder.path("missing.mp4")
        for command in [
            ["inspect", "--jobs", "4"], ["thumbnail", "--out-dir", folder.path("posters"), "--jobs", "4"],
        ] {
            let missingFirst = try TestEnvironment.storyreel(command + [Self.clip, missing, garbage, Self.other])
            #expect(missingFirst.status == 66, "\(command): \(missingFirst.stderr)")
            let garbageFirst = try TestEnvironment.storyreel(command + [Self.clip, garbage, missing, Self.other])
            #expect(garbageFirst.status == 65, "\(command): \(garbageFirst.stderr)")
            let errors = garbageFirst.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: error: ") }
            #expect(errors.count == 2)
            #expect(errors.first?.contains(garbage) == true, "errors in argument order: \(errors)")
        }
        let plan = try TestEnvironment.storyreel(["plan", folder.path("none"), Self.stories, "--json"])
        #expect(plan.status == 66, "\(plan.stderr)")
        // One object per INPUT in argument order (a QA pass: the failing one was left out, so
        // the array's indexes no longer matched the arguments).
        let array = try #require(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["input"] as? String } == [folder.path("none"), Self.stories], "\(plan.stdout)")
        #expect(array.first?["exitCode"] as? Int == 66)
        #expect(array.first?["error"] as? String == "\(folder.path("none")): no such file or folder")
        #expect(array.first?["units"] == nil && array.last?["units"] != nil)
        let alone = try TestEnvironment.storyreel(["plan", folder.path("none"), "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(alone.stdout.utf8)) as? [String: Any]
        #expect(alone.status == 66 && object?["exitCode"] as? Int == 66 && object?["input"] == nil, "\(alone.stdout)")
        // On one line, as every command's failure object (a CLI QA pass: pretty-printed here only).
        #expect(alone.stdout.split(separator: "\n").count == 1, "\(alone.stdout)")
        // The missing INPUT is named before a bundle that is a file, as render names it (it was 73).
        let file = try folder.write("a.mp4", Data())
        for command in [["plan", folder.path("none"), "--bundle", file], ["render", folder.path("none"), "-o", file]] {
            let result = try TestEnvironment.storyreel(command)
            #expect(result.status == 66, "\(command): \(result.stderr)")
            #expect(result.stderr == "storyreel: error: \(folder.path("none")): no such file or folder\n", "\(command)")
        }
    }

    /// From a scripting QA pass: `thumbnail --out-dir` printed its posters' paths only when the
    /// whole batch ended, so a batch killed part-way had said nothing of the posters it wrote.
    /// Each line comes once its poster, and every one before it, is written: in argument order.
    @Test func thumbnailPrintsEachPosterOnceItIsWritten() throws {
        let clips = try (0..<16).map { index in
            let path = folder.path("clip-\(index).mov")
            try FileManager.default.copyItem(atPath: TestEnvironment.sample("iphone-hevc-hdr.mov"), toPath: path)
            return path
        }
        let posters = folder.path("posters")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestEnvironment.storyreelBinary)
        process.arguments = ["thumbnail", "--out-dir", posters, "--jobs", "1"] + clips
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // What is on the pipe as soon as anything is: the first line.
        let first = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: posters))?.filter { $0.hasSuffix(".jpg") }
        #expect(first.hasPrefix("\(posters)/clip-0.jpg\n"), "\(first)")
        #expect((written?.count ?? 0) < clips.count, "the first line came as the batch went on: \(written ?? [])")
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(
            (first + rest).split(separator: "\n").map(String.init) == clips.indices.map { "\(posters)/clip-\($0).jpg" })
    }

    /// `render --json` prints an object on stdout whatever happens: the summary, or on a failure
    /// the stderr line's message and the exit code. The old one printed nothing when the run
    /// failed (a QA pass: `render … --json | jq .skipped` read no input on exactly those runs).
    @Test func renderJSONIsAnObjectWhenTheRunFails() throws {
        let empty = folder.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let cases: [([String], Int32)] = [
            (["render", empty, "-o", folder.path("out1"), "--json"], 66),
            (["render", folder.path("nosuch"), "-o", folder.path("out2"), "--json"], 66),
            (["render", Self.stories, "-o", "/proc/storyreel-out", "--json"], 73),
        ]
        for (arguments, code) in cases {
            let result = try TestEnvironment.storyreel(arguments)
            #expect(result.status == code, "\(arguments): \(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(object?["exitCode"] as? Int == Int(code), "\(arguments): \(result.stdout)")
            let line = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
            #expect("storyreel: error: " + (object?["error"] as? String ?? "-") == line, "\(result.stderr)")
        }
        // A usage error is still only the usage line, on stderr.
        let usage = try TestEnvironment.storyreel(["render", Self.stories, "--json"])
        #expect(usage.status == 64 && usage.stdout.isEmpty)
        let inside = try TestEnvironment.storyreel(["render", Self.stories, "-o", Self.stories + "/out", "--json"])
        #expect(inside.status == 64 && inside.stdout.isEmpty, "OUT inside INPUT is a usage error: \(inside.stdout)")
    }

    /// An INPUT that plans with a skipped clip exits 65 alone; before a missing INPUT it still
    /// decides the exit code and its lines come first. The old `plan` let any INPUT that failed
    /// to load win (`plan s1 nosuch` exited 66) and printed every load error before every
    /// skipped line.
    @Test func planReportsEachInputInArgumentOrderAndTheFirstFailingOneSetsTheExitCode() throws {
        let withSkip = folder.path("s1")
        try FileManager.default.createDirectory(atPath: "\(withSkip)/ana", withIntermediateDirectories: true)
        try folder.write("s1/ana/broken.mp4", Data(repeating: 7, count: 4096))
        // A story that plays beside it: a plan in which nothing plays is 66 (NothingPlaysTests).
        try FileManager.default.createDirectory(atPath: "\(withSkip)/ben", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(Self.stories)/ben_k/1.mp4", toPath: "\(withSkip)/ben/1.mp4")
        let missing = folder.path("nosuch")
        let alone = try TestEnvironment.storyreel(["plan", withSkip])
        #expect(alone.status == 65, "\(alone.stderr)")
        for json in [[], ["--json"]] {
            let skipFirst = try TestEnvironment.storyreel(["plan", withSkip, missing, "--jobs", "2"] + json)
            #expect(skipFirst.status == 65, "\(json): \(skipFirst.stderr)")
            let lines = skipFirst.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(lines)")
            // Each line names its INPUT first when there are several (a scripting QA pass).
            #expect(
                lines.first?.hasPrefix("storyreel: error: \(withSkip): ana/broken.mp4: skipped: ") == true, "\(lines)")
            #expect(
                lines.dropFirst().first == "storyreel: error: \(withSkip): ana: skipped: no playable clip", "\(lines)")
            #expect(lines.last == "storyreel: error: \(missing): no such file or folder", "\(lines)")
            if json.isEmpty {
                // And each INPUT's units come under a `==> INPUT <==` line, as head and tail name
                // their files: nothing told two INPUTs' units apart.
                let out = skipFirst.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                #expect(out.first == "==> \(withSkip) <==", "\(out)")
                #expect(out.contains("") && out.contains("==> \(missing) <=="), "\(out)")
                #expect(out.filter { $0.hasPrefix("clip\t") }.count == 1, "\(out)")
            }

            let missingFirst = try TestEnvironment.storyreel(["plan", missing, withSkip, "--jobs", "2"] + json)
            #expect(missingFirst.status == 66, "\(json): \(missingFirst.stderr)")
            #expect(missingFirst.stderr.hasPrefix("storyreel: error: \(missing): "), "\(missingFirst.stderr)")
        }
    }

    /// From a QA pass of plan as a CI gate: with several INPUTs, the warning of one in which
    /// nothing plays was the only line that did not name its INPUT.
    @Test func planNamesTheInputInWhichNothingPlays() throws {
        try FileManager.default.createDirectory(atPath: folder.path("none/alice"), withIntermediateDirectories: true)
        try folder.write("none/alice/x.mp4", Data(repeating: 7, count: 4096))
        let none = folder.path("none")
        let result = try TestEnvironment.storyreel(["plan", Self.stories, none])
        #expect(result.status == 66, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("storyreel: error: \(none): nothing plays: every story was skipped"), "\(lines)")
    }

    @Test func resultsComeInArgumentOrder() throws {
        let clips = Array(repeating: [Self.clip, Self.other], count: 6).flatMap { $0 }
        let inspect = try TestEnvironment.storyreel(["inspect", "--json", "--jobs", "8"] + clips)
        #expect(inspect.status == 0)
        let array = try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [[String: Any]]
        #expect(array?.compactMap { $0["path"] as? String } == clips)
        let posters = try TestEnvironment.storyreel(
            ["thumbnail", "--out-dir", folder.path("p"), "--width", "32", "--jobs", "8"] + clips)
        #expect(posters.status == 0, "\(posters.stderr)")
        let names = posters.stdout.split(separator: "\n").map { ($0 as NSString).lastPathComponent }
        #expect(names.prefix(4) == ["portrait-h264.jpg", "sixty-fps.jpg", "portrait-h264-2.jpg", "sixty-fps-2.jpg"])
    }

    @Test func noHandRolledLockIsLeftInTheSources() throws {
        let sources = TestEnvironment.packageRoot.appendingPathComponent("Sources").path
        let files = FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String } ?? []
        var locked: [String] = []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: "\(sources)/\(file)", encoding: .utf8)
            if text.contains("NSLock") { locked.append(file) }
        }
        #expect(locked.isEmpty, "use Synchronization.Mutex: \(locked)")
    }
}
