import Foundation
import StoryreelTestSupport
import Testing

/// From a scale QA pass: run from a folder whose absolute path is longer than `PATH_MAX` (4096
/// bytes), `render` skipped every story as "it leads outside the stories input (a link or '..')"
/// though none was a link, and `validate` called an existing bundle "no such folder": the path
/// could not be resolved, and the failure read as something else. Now each says what failed.
@Suite struct DeepFolderTests {
    @Test func aFolderPastThePathLimitIsSaidToBeSoNotOutsideOrMissing() throws {
        let folder = try TemporaryFolder()
        let clip = TestEnvironment.sample("stories/ben_k/1.mp4")
        let name = String(repeating: "d", count: 200)
        // 21 folders of 201 bytes: past 4096 whatever the temporary folder's own path. `cd` goes
        // one step at a time (each relative path is short), and `rm -rf` removes the tree the same way.
        let script = """
            mkdir -p "$1/short/a" && cp "$2" "$1/short/a/1.mp4" || exit 89
            cd "$1" && for i in $(seq 21); do mkdir \(name) && cd \(name) || exit 90; done
            mkdir -p st/a && cp "$2" st/a/1.mp4 || exit 91
            "$3" render st -o out --size 180x320 -q; echo "render=$?"
            "$3" plan st; echo "plan=$?"
            "$3" render "$1/short" -o out --size 180x320 -q; echo "render short=$?"
            "$3" validate out; echo "validate=$?"
            cd "$1" && rm -rf \(name)
            """
        let result = try TestEnvironment.run(
            "/bin/bash", ["-c", script, "deep", folder.url.path, clip, TestEnvironment.storyreelBinary])
        #expect(result.stdout.contains("render=66"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("plan=66"), "\(result.stdout)\(result.stderr)")
        // A bundle rendered there from a short path is written (its outputs are opened relative to
        // its folder), and `validate` says why it cannot check it.
        #expect(result.stdout.contains("render short=0"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("validate=66"), "\(result.stdout)\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.filter { $0 == "storyreel: error: st: cannot resolve the folder's path: File name too long" }.count
                == 2, "\(result.stderr)")
        #expect(
            lines.contains("storyreel: error: out: cannot resolve the folder's path: File name too long"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("outside") && !result.stderr.contains("no such folder"), "\(result.stderr)")
    }
}
