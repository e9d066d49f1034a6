import Foundation
import StoryreelTestSupport
import Testing

/// stdout or stderr that cannot be written (a full disk behind `>`, a closed descriptor): the
/// old binary died of a trap in FileHandle's `write(_:)` (SIGILL, exit 132, a Swift backtrace).
/// Output that is lost is an I/O error, 74, said in one line on stderr; a lost error line costs
/// nothing but itself.
@Suite struct BrokenStandardStreamsTests {
    static let clip = TestEnvironment.sample("portrait-h264.mp4")

    /// Runs storyreel with `arguments` through `sh -c`, with `redirection` applied to it.
    func storyreel(_ arguments: [String], _ redirection: String) throws -> ProcessResult {
        try TestEnvironment.run(
            "/bin/sh", ["-c", "exec \"$@\" \(redirection)", "sh", TestEnvironment.storyreelBinary] + arguments)
    }

    @Test(arguments: [
        (["inspect", "--json", clip], "> /dev/full", "No space left on device"),
        (["inspect", clip], ">&-", "Bad file descriptor"),
        (["--help"], "> /dev/full", "No space left on device"),
        (["thumbnail", clip, "-o", "-"], "> /dev/full", "No space left on device"),
    ])
    func lostOutputExits74WithOneLine(_ arguments: [String], _ redirection: String, _ reason: String) throws {
        let result = try storyreel(arguments, redirection)
        #expect(result.status == 74, "\(arguments) \(redirection): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        // The same line for every command (thumbnail's read `-: cannot write …`, a QA pass).
        #expect(lines.first == "storyreel: error: cannot write to standard output: \(reason)", "\(result.stderr)")
    }

    /// From a QA pass: a reader that stops early (`| head -1`) killed storyreel by SIGPIPE
    /// (141) part-way; `thumbnail --out-dir` could die between posters. The run now finishes
    /// its files, then exits 74 with one line.
    @Test func aPipeWhoseReaderStoppedIsAnIOErrorAfterTheWork() throws {
        let folder = try TemporaryFolder()
        let clips = Array(repeating: Self.clip, count: 3)
        let result = try TestEnvironment.run(
            "/bin/bash",
            [
                "-c", "(sleep 0.5; exec \"$@\") | (exec 0<&-; exit 0); exit ${PIPESTATUS[0]}", "bash",
                TestEnvironment.storyreelBinary,
                "thumbnail", "--out-dir", folder.path("posters"), "--width", "64", "--jobs", "1",
            ] + clips)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr == "storyreel: error: cannot write to standard output: Broken pipe\n")
        let posters = try FileManager.default.contentsOfDirectory(atPath: folder.path("posters")).sorted()
        #expect(posters == [".storyreel-posters", "portrait-h264-2.jpg", "portrait-h264-3.jpg", "portrait-h264.jpg"])
        // So does the help, which is printed before any command runs. storyreel starts once the
        // reader is gone: the help takes 6 ms, and a full run under load once wrote it into the
        // pipe before the reader had closed it (exit 0; `sleep 0.2 |` before it fed its stdin only).
        let help = try TestEnvironment.run(
            "/bin/bash",
            [
                "-c", "(sleep 0.5; exec \"$@\") | (exec 0<&-; exit 0); exit ${PIPESTATUS[0]}", "bash",
                TestEnvironment.storyreelBinary, "--help",
            ])
        #expect(help.status == 74, "\(help.stderr)")
    }

    /// From the QA pass: started with stderr closed, render opened its lock file as descriptor
    /// 2 and wrote its progress and notes into OUT/.lock.
    @Test func aClosedStderrIsNoFileTheRunOpens() throws {
        let folder = try TemporaryFolder()
        let out = folder.path("reel")
        let result = try storyreel(
            ["render", TestEnvironment.sample("stories"), "-o", out, "--size", "90x160", "--jobs", "1"], "2>&-")
        #expect(result.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(out)/.lock")).isEmpty)
        #expect(try TestEnvironment.storyreel(["validate", out]).status == 0)
    }

    @Test func aWrittenFileIsStillReportedAndALostErrorLineChangesNothing() throws {
        let folder = try TemporaryFolder()
        let written = try storyreel(["thumbnail", Self.clip, "-o", folder.path("poster.jpg")], "> /dev/full")
        #expect(written.status == 74, "its path on stdout was lost: \(written.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("poster.jpg")))
        let missing = try storyreel(
            ["thumbnail", folder.path("missing.mp4"), "-o", folder.path("x.jpg")], "2> /dev/full")
        #expect(missing.status == 66)
        let closed = try storyreel(["inspect", folder.path("missing.mp4")], "2>&-")
        #expect(closed.status == 66)
    }
}
