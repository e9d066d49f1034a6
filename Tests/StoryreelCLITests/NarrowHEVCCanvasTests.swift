import Foundation
import StoryreelTestSupport
import Testing

/// From a cube QA pass: `cube --size 36x64 --codec hevc` aborted in 1–2% of runs (SIGABRT,
/// `free(): invalid next size`), a finished clip in place or a temporary file left. x265's cuTree
/// writes past the end of a buffer when a picture is at most 48 pixels wide (valgrind shows it in
/// every run); storyreel turns cuTree off there. glibc's malloc checking (`libc_malloc_debug`)
/// catches the write in every run, where it aborted 5 runs of 5 before the fix.
@Suite struct NarrowHEVCCanvasTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// storyreel with `arguments`, its heap checked by glibc at every free.
    func checkedStoryreel(_ arguments: [String]) throws -> ProcessResult {
        try TestEnvironment.run(
            "/usr/bin/env",
            [
                "LD_PRELOAD=libc_malloc_debug.so.0", "GLIBC_TUNABLES=glibc.malloc.check=3",
                TestEnvironment.storyreelBinary,
            ]
                + arguments)
    }

    @Test(arguments: ["16x64", "36x64", "48x96", "50x64"])
    func aNarrowHEVCTransitionEncodesWithoutCorruptingTheHeap(size: String) throws {
        let output = folder.path("cube-\(size).mp4")
        let result = try checkedStoryreel([
            "cube", TestEnvironment.sample("stories/ana.lima/IMG_0001.MOV"),
            TestEnvironment.sample("stories/ben_k/1.mp4"),
            "-o", output, "--size", size, "--codec", "hevc", "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try TestEnvironment.ffprobeVideoStream(output)
        #expect("\(stream["width"] ?? "")x\(stream["height"] ?? "")" == size)
        #expect(stream["codec_name"] as? String == "hevc")
    }

    @Test func aNarrowHEVCBundleRendersWithoutCorruptingTheHeap() throws {
        let bundle = folder.path("reel")
        let result = try checkedStoryreel([
            "render", TestEnvironment.sample("stories"), "-o", bundle, "--size", "36x64", "--codec", "hevc", "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let transitions = try FileManager.default.contentsOfDirectory(atPath: folder.path("reel/transitions"))
        #expect(transitions.count >= 3)
    }
}
