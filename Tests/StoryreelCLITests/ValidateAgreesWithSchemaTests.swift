import Foundation
import StoryreelTestSupport
import Testing

/// `storyreel validate` and python3-jsonschema (Draft 2020-12, `schema/manifest.schema.json`)
/// give the same verdict on good manifests and on manifests that each break one schema rule,
/// and `validate` names the JSON path of what is broken. Every file the manifests reference
/// exists, so only the schema decides.
@Suite struct ValidateAgreesWithSchemaTests {
    /// A manifest case: a name, an edit of the good manifest, and the JSON path `validate` must
    /// name (nil for a manifest the schema accepts).
    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let expectedPath: String?
        let edit: @Sendable (inout [String: Any]) -> Void
        var description: String { name }
    }

    static let good: [Case] = [
        Case(name: "the fixture as it is", expectedPath: nil) { _ in },
        Case(name: "integers written with .0, which JSON Schema counts as integers", expectedPath: nil) {
            set(&$0, ["version"], "@raw:1.0")
            set(&$0, ["canvas", "width"], "@raw:360.0")
            set(&$0, ["stories", 0, "items", 0, "rotation"], "@raw:90.0")
            set(&$0, ["transitions", 0, "frames"], "@raw:15.0")
        },
        Case(name: "a repeated clip gets -2, and the optional values", expectedPath: nil) {
            var repeated = item(of: $0, 0, 0)
            repeated["id"] = "\(repeated["id"]!)-2"
            set(&$0, ["stories", 2, "items", 1], repeated)
            // The durations stay the sums of the items' (validate checks that; a schema cannot).
            set(&$0, ["stories", 2, "duration"], 5)
            set(&$0, ["duration"], 12.5)
            set(&$0, ["stories", 1, "user", "avatar"], NSNull())
            set(&$0, ["stories", 1, "isRead"], true)
            set(&$0, ["stories", 1, "items", 0, "hdr"], "dolbyVision")
            set(&$0, ["stories", 1, "items", 0, "frameRate"], 0)
            set(&$0, ["skipped", 0, "story"], NSNull())
        },
        Case(name: "a display name of 100 characters, counted as JSON Schema counts them", expectedPath: nil) {
            // 20 family emoji of 5 scalars each: 100 scalars, 20 graphemes, 260 UTF-16 units.
            set(&$0, ["stories", 0, "user", "displayName"], String(repeating: "👩‍👩‍👧", count: 20))
        },
        Case(name: "no stories at all, lasting 0 s", expectedPath: nil) {
            set(&$0, ["stories"], [Any]())
            set(&$0, ["transitions"], [Any]())
            set(&$0, ["skipped"], [Any]())
            set(&$0, ["duration"], 0)
        },
    ]

    /// Paths a player cannot use as they are, which validate (and python3-jsonschema) accepted
    /// before manifest paths had to be plain: the old schema asked only for a non-empty string
    /// not starting with `/`, and the old validator resolved `posters/a.jpg/.`, `thumbs//b2.jpg`
    /// and a `src` cut short by a NUL (lstat stops there) to the real files.
    static let notPlain: [Case] = [
        Case(name: "a poster path with /. appended", expectedPath: "stories[0].items[0].poster") {
            set(&$0, ["stories", 0, "items", 0, "poster"], "posters/a.jpg/.")
        },
        Case(name: "a thumbnail path with a trailing /", expectedPath: "stories[1].items[0].thumbnail") {
            set(&$0, ["stories", 1, "items", 0, "thumbnail"], "thumbs/b1.jpg/")
        },
        Case(name: "a thumbnail path with // inside", expectedPath: "stories[1].items[1].thumbnail") {
            set(&$0, ["stories", 1, "items", 1, "thumbnail"], "thumbs//b2.jpg")
        },
        Case(name: "a clip path with a NUL appended", expectedPath: "stories[0].items[0].src") {
            let src = item(of: $0, 0, 0)["src"] as! String
            set(&$0, ["stories", 0, "items", 0, "src"], src + "\u{0}.txt")
        },
        Case(name: "a clip path with a .. inside", expectedPath: "stories[1].items[0].src") {
            let src = item(of: $0, 1, 0)["src"] as! String
            set(&$0, ["stories", 1, "items", 0, "src"], "clips/../" + src)
        },
        Case(name: "a clip path starting with ./", expectedPath: "stories[2].items[0].src") {
            let src = item(of: $0, 2, 0)["src"] as! String
            set(&$0, ["stories", 2, "items", 0, "src"], "./" + src)
        },
        Case(name: "an avatar path ending in a newline", expectedPath: "stories[0].user.avatar") {
            // Python's `$` matches before a final newline: the schema's `not` rule catches it.
            set(&$0, ["stories", 0, "user", "avatar"], "avatars/ana.jpg\n")
        },
        Case(name: "a transition path with a . component", expectedPath: "transitions[1].src") {
            set(&$0, ["transitions", 1, "src"], "transitions/./ben-chloe.mp4")
        },
        Case(name: "a poster path holding a # (a URL's fragment)", expectedPath: "stories[0].items[0].poster") {
            set(&$0, ["stories", 0, "items", 0, "poster"], "posters/a#b.jpg")
        },
        Case(name: "a clip path holding %2e%2e (a URL's escaped ..)", expectedPath: "stories[1].items[0].src") {
            set(&$0, ["stories", 1, "items", 0, "src"], "clips/%2e%2e/%2e%2e/outside.mp4")
        },
        Case(name: "a thumbnail path holding a ?", expectedPath: "stories[1].items[1].thumbnail") {
            set(&$0, ["stories", 1, "items", 1, "thumbnail"], "thumbs/b2.jpg?v=2")
        },
        Case(name: "a transition path holding a backslash", expectedPath: "transitions[0].src") {
            set(&$0, ["transitions", 0, "src"], "transitions\\ana-ben.mp4")
        },
        Case(name: "a first-frame still holding a DEL", expectedPath: "stories[2].items[0].firstFrame") {
            set(&$0, ["stories", 2, "items", 0, "firstFrame"], "posters/c\u{7F}.jpg")
        },
        Case(name: "a last-frame still that is only ..", expectedPath: "stories[2].items[0].lastFrame") {
            set(&$0, ["stories", 2, "items", 0, "lastFrame"], "..")
        },
        Case(
            name: "a poster path with leading ../ (only a clip may live beside the bundle)",
            expectedPath: "stories[0].items[0].poster"
        ) {
            set(&$0, ["stories", 0, "items", 0, "poster"], "../reel/posters/a.jpg")
        },
    ]

    static let broken: [Case] = [
        Case(name: "a missing top-level key", expectedPath: "generator") { remove(&$0, ["generator"]) },
        Case(name: "a display name of 101 characters", expectedPath: "stories[1].user.displayName") {
            set(&$0, ["stories", 1, "user", "displayName"], String(repeating: "é", count: 101))
        },
        Case(name: "a missing item key", expectedPath: "stories[1].items[0].poster") {
            remove(&$0, ["stories", 1, "items", 0, "poster"])
        },
        Case(name: "a missing user", expectedPath: "stories[2].user") { remove(&$0, ["stories", 2, "user"]) },
        Case(name: "a string for a number", expectedPath: "stories[1].items[0].duration") {
            set(&$0, ["stories", 1, "items", 0, "duration"], "2.5")
        },
        Case(name: "a fraction for an integer", expectedPath: "canvas.width") { set(&$0, ["canvas", "width"], 360.5) },
        Case(name: "a boolean for an integer", expectedPath: "stories[0].items[0].width") {
            set(&$0, ["stories", 0, "items", 0, "width"], true)
        },
        Case(name: "a number for a boolean", expectedPath: "stories[0].isRead") {
            set(&$0, ["stories", 0, "isRead"], 0)
        },
        Case(name: "null for a string", expectedPath: "stories[0].user.displayName") {
            set(&$0, ["stories", 0, "user", "displayName"], NSNull())
        },
        // Optional keys may be left out, not given as null; nullable ones must be there. The
        // Swift model read both kinds alike (an absent key and a null were both nil), so
        // validate accepted what the schema refused (a QA pass).
        Case(name: "null for the optional codecs", expectedPath: "stories[0].items[0].codecs") {
            set(&$0, ["stories", 0, "items", 0, "codecs"], NSNull())
        },
        Case(name: "null for the optional firstFrame", expectedPath: "stories[1].items[0].firstFrame") {
            set(&$0, ["stories", 1, "items", 0, "firstFrame"], NSNull())
        },
        Case(name: "null for a transition's optional codecs", expectedPath: "transitions[0].codecs") {
            set(&$0, ["transitions", 0, "codecs"], NSNull())
        },
        Case(name: "a missing avatar, which is null when there is none", expectedPath: "stories[1].user.avatar") {
            remove(&$0, ["stories", 1, "user", "avatar"])
        },
        Case(name: "a skipped entry without its story", expectedPath: "skipped[0].story") {
            remove(&$0, ["skipped", 0, "story"])
        },
        Case(name: "a number for the avatar", expectedPath: "stories[0].user.avatar") {
            set(&$0, ["stories", 0, "user", "avatar"], 5)
        },
        Case(name: "an object for the stories", expectedPath: "stories") { set(&$0, ["stories"], [String: Any]()) },
        Case(name: "an extra top-level key", expectedPath: "extra") { set(&$0, ["extra"], 1) },
        Case(name: "an extra item key", expectedPath: "stories[0].items[0].url") {
            set(&$0, ["stories", 0, "items", 0, "url"], "https://example.invalid/a.mp4")
        },
        Case(name: "an extra user key", expectedPath: "stories[0].user.email") {
            set(&$0, ["stories", 0, "user", "email"], "ana@example.invalid")
        },
        Case(name: "an extra canvas key", expectedPath: "canvas.depth") { set(&$0, ["canvas", "depth"], 8) },
        Case(name: "a handle starting with a dot", expectedPath: "stories[2].id") {
            set(&$0, ["stories", 2, "id"], ".chloe")
            set(&$0, ["transitions", 1, "to"], ".chloe")
        },
        Case(name: "a 65-character handle", expectedPath: "stories[0].user.handle") {
            set(&$0, ["stories", 0, "user", "handle"], String(repeating: "a", count: 65))
        },
        Case(name: "a handle with a slash", expectedPath: "transitions[0].from") {
            set(&$0, ["transitions", 0, "from"], "ana/..")
        },
        Case(name: "an item id in capitals", expectedPath: "stories[0].items[0].id") {
            let id = item(of: $0, 0, 0)["id"] as! String
            set(&$0, ["stories", 0, "items", 0, "id"], id.uppercased())
        },
        Case(name: "an item id with a -02 suffix", expectedPath: "stories[0].items[0].id") {
            let id = item(of: $0, 0, 0)["id"] as! String
            set(&$0, ["stories", 0, "items", 0, "id"], "\(id)-02")
        },
        Case(name: "a 63-digit sha256", expectedPath: "stories[1].items[1].sha256") {
            let sha = item(of: $0, 1, 1)["sha256"] as! String
            set(&$0, ["stories", 1, "items", 1, "sha256"], String(sha.dropLast()))
        },
        Case(name: "another generator", expectedPath: "generator") { set(&$0, ["generator"], "ffmpeg 5.1") },
        Case(name: "a rotation of 45", expectedPath: "stories[0].items[0].rotation") {
            set(&$0, ["stories", 0, "items", 0, "rotation"], 45)
        },
        Case(name: "an unknown hdr", expectedPath: "stories[0].items[0].hdr") {
            set(&$0, ["stories", 0, "items", 0, "hdr"], "HDR10")
        },
        Case(name: "an unknown direction", expectedPath: "transitions[2].direction") {
            set(&$0, ["transitions", 2, "direction"], "sideways")
        },
        Case(name: "a story without items", expectedPath: "stories[2].items") {
            set(&$0, ["stories", 2, "items"], [Any]())
        },
        Case(name: "a negative item duration", expectedPath: "stories[0].items[0].duration") {
            set(&$0, ["stories", 0, "items", 0, "duration"], -1)
        },
        Case(name: "a zero item duration (exclusive minimum)", expectedPath: "stories[0].items[0].duration") {
            set(&$0, ["stories", 0, "items", 0, "duration"], 0)
        },
        Case(name: "a negative story duration", expectedPath: "stories[1].duration") {
            set(&$0, ["stories", 1, "duration"], -0.5)
        },
        Case(name: "a negative frame rate", expectedPath: "stories[0].items[0].frameRate") {
            set(&$0, ["stories", 0, "items", 0, "frameRate"], -30)
        },
        // A number too big for a 64-bit float: validate refuses the text, placing the number
        // (not valid JSON, so the path is the manifest's); Python reads it as infinity, which the
        // schema's minimums let through before its numbers had to be finite (a QA pass).
        Case(name: "an item lasting 1e999 s", expectedPath: "manifest") {
            set(&$0, ["stories", 0, "items", 0, "duration"], "@raw:1e999")
        },
        Case(name: "a frame rate of 1e999", expectedPath: "manifest") {
            set(&$0, ["stories", 1, "items", 0, "frameRate"], "@raw:1e999")
        },
        Case(name: "a transition at 1e999 fps", expectedPath: "manifest") {
            set(&$0, ["transitions", 0, "fps"], "@raw:1e999")
        },
        Case(name: "a manifest lasting 1e999 s", expectedPath: "manifest") { set(&$0, ["duration"], "@raw:1e999") },
        Case(name: "version 2", expectedPath: "version") { set(&$0, ["version"], 2) },
        Case(name: "version as a string", expectedPath: "version") { set(&$0, ["version"], "1") },
        Case(name: "version true", expectedPath: "version") { set(&$0, ["version"], true) },
        Case(name: "an absolute clip path", expectedPath: "stories[0].items[0].src") {
            set(&$0, ["stories", 0, "items", 0, "src"], "/etc/hostname")
        },
        Case(name: "an absolute avatar path", expectedPath: "stories[1].user.avatar") {
            set(&$0, ["stories", 1, "user", "avatar"], "/etc/passwd")
        },
        Case(name: "an empty thumbnail path", expectedPath: "stories[0].items[0].thumbnail") {
            set(&$0, ["stories", 0, "items", 0, "thumbnail"], "")
        },
        Case(name: "a canvas of 1 pixel", expectedPath: "canvas.height") { set(&$0, ["canvas", "height"], 1) },
        Case(name: "a canvas over 8192", expectedPath: "canvas.width") { set(&$0, ["canvas", "width"], 8194) },
        Case(name: "an item 0 pixels wide", expectedPath: "stories[0].items[0].width") {
            set(&$0, ["stories", 0, "items", 0, "width"], 0)
        },
        Case(name: "a transition with no frames", expectedPath: "transitions[0].frames") {
            set(&$0, ["transitions", 0, "frames"], 0)
        },
        Case(name: "a transition at 0 fps", expectedPath: "transitions[1].fps") {
            set(&$0, ["transitions", 1, "fps"], 0)
        },
        Case(name: "a transition 1 pixel high", expectedPath: "transitions[1].height") {
            set(&$0, ["transitions", 1, "height"], 1)
        },
        Case(name: "a number for a skipped story", expectedPath: "skipped[0].story") {
            set(&$0, ["skipped", 0, "story"], 5)
        },
        Case(name: "a skipped entry without a reason", expectedPath: "skipped[0].reason") {
            remove(&$0, ["skipped", 0, "reason"])
        },
    ]

    @Test func validateAndJSONSchemaAgreeOnEveryCase() throws {
        let fixture = try ManifestFixture()
        let cases = Self.good + Self.broken + Self.notPlain
        var paths: [String] = []
        for (index, manifestCase) in cases.enumerated() {
            var manifest = fixture.goodManifest()
            manifestCase.edit(&manifest)
            paths.append(try fixture.save(manifest, as: "case-\(index).json"))
        }
        let schemaSays = try ManifestFixture.schemaVerdicts(paths)
        for (index, manifestCase) in cases.enumerated() {
            let expectedValid = manifestCase.expectedPath == nil
            #expect(schemaSays[index] == expectedValid, "jsonschema on '\(manifestCase)'")
            let result = try fixture.validate([paths[index]])
            #expect((result.status == 0) == schemaSays[index], "'\(manifestCase)': \(result.stderr)")
            if let expectedPath = manifestCase.expectedPath {
                #expect(result.status == 65, "'\(manifestCase)'")
                let lines = result.stderr.split(separator: "\n")
                #expect(
                    lines.contains { $0.contains("case-\(index).json: \(expectedPath): ") },
                    "'\(manifestCase)' names \(expectedPath): \(result.stderr)")
            } else {
                #expect(result.stderr.isEmpty, "'\(manifestCase)': \(result.stderr)")
                #expect(result.stdout == "\(paths[index]): valid\n")
            }
        }
    }

    /// A `--reference` bundle's `src` may start with `../` steps, then must be plain; both
    /// judges agree. The old schema and validator took `../outside/./a.mp4` and
    /// `../outside//a.mp4` (with --root) as valid.
    @Test func aClipBesideTheBundleIsNamedByParentStepsThenAPlainPath() throws {
        let fixture = try ManifestFixture()
        let outside = fixture.folder.path("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: "\(fixture.bundle)/\(fixture.clipPath("a"))", toPath: "\(outside)/a.mp4")
        try FileManager.default.copyItem(atPath: outside, toPath: fixture.folder.path("out:side"))
        try FileManager.default.copyItem(atPath: outside, toPath: fixture.folder.path(" outside"))
        let sources = [
            ("../outside/a.mp4", true), ("../reel/../outside/a.mp4", false), ("../outside/./a.mp4", false),
            ("../outside//a.mp4", false), ("../outside/a.mp4/", false), (".././outside/a.mp4", false),
            // A colon after a ../ step is a name's (the URL's first segment is ..); one in the first
            // component is a scheme, and a space at an end is dropped (a QA pass).
            ("../out:side/a.mp4", true), ("https:outside/a.mp4", false), ("../outside/a.mp4 ", false),
            ("../ outside/a.mp4", true),  // a space after a step is inside the path (a re-check)
        ]
        var paths: [String] = []
        for (index, (src, _)) in sources.enumerated() {
            var manifest = fixture.goodManifest()
            Self.set(&manifest, ["stories", 0, "items", 0, "src"], src)
            paths.append(try fixture.save(manifest, as: "beside-\(index).json"))
        }
        let schemaSays = try ManifestFixture.schemaVerdicts(paths)
        for (index, (src, plain)) in sources.enumerated() {
            #expect(schemaSays[index] == plain, "jsonschema on \(src)")
            let result = try fixture.validate([paths[index], "--root", fixture.folder.path("")])
            #expect(result.status == (plain ? 0 : 65), "\(src): \(result.stderr)")
            if !plain {
                #expect(
                    result.stderr
                        == "storyreel: error: \(paths[index]): stories[0].items[0].src: expected a plain relative "
                        + "path (non-empty components separated by single /, none of them . or .., no leading or "
                        + "trailing / or space, no control character, #, ?, % or \\, no : in the first component), "
                        + "after any leading ../, got '\(src)'\n")
            }
        }
    }

    @Test func eachProblemIsOneLineWithItsPathAndEveryProblemIsReported() throws {
        let fixture = try ManifestFixture()
        var manifest = fixture.goodManifest()
        Self.set(&manifest, ["stories", 1, "items", 0, "duration"], "2.5")
        Self.set(&manifest, ["stories", 2, "items"], [Any]())
        Self.set(&manifest, ["canvas", "width"], 360.5)
        Self.remove(&manifest, ["generator"])
        let path = try fixture.save(manifest)
        let result = try fixture.validate([path])
        #expect(result.status == 65)
        let expected: [String] = [
            "storyreel: error: \(path): generator: missing",
            "storyreel: error: \(path): canvas.width: expected an integer, got 360.5",
            "storyreel: error: \(path): stories[1].items[0].duration: expected a number, got '2.5'",
            "storyreel: error: \(path): stories[2].items: must have at least 1 item(s), got 0",
        ]
        let lines: [String] = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines == expected)
    }

    /// A value the manifest controls is quoted cut at 80 characters with `…`, in every line (a QA
    /// pass: the pattern's line was cut, the handle's next to it held the whole 5 MB id).
    @Test func aLongValueIsCutInEveryLine() throws {
        let fixture = try ManifestFixture()
        var manifest = fixture.goodManifest()
        let id = String(repeating: "Z", count: 100_000)
        Self.set(&manifest, ["stories", 1, "id"], id)
        Self.set(&manifest, ["transitions", 0, "to"], id)
        Self.set(&manifest, ["stories", 0, "items", 0, "poster"], "posters/" + String(repeating: "Q", count: 100_000))
        // And a key the schema does not allow (a QA pass: its whole name made the line).
        Self.set(&manifest, ["stories", 0, "items", 0, String(repeating: "k", count: 100_000)], 1)
        let result = try fixture.validate([try fixture.save(manifest)])
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count >= 4, "\(result.stderr.prefix(2000))")
        let key =
            "stories[0].items[0]['" + String(repeating: "k", count: 80) + "…']: unexpected key (the schema allows only "
        #expect(lines.contains { $0.contains(key) }, "\(result.stderr.prefix(2000))")
        #expect(lines.allSatisfy { $0.count < 400 }, "\(lines.map(\.count))")
        let cut = "'" + String(repeating: "Z", count: 80) + "…'"
        #expect(lines.contains { $0.contains("stories[1].user.handle: expected the story's id, \(cut), got ") })
    }

    @Test func aFolderMeansItsManifestAndGarbageIsOneProblem() throws {
        let fixture = try ManifestFixture()
        let path = try fixture.save(fixture.goodManifest())
        let folder = try fixture.validate([fixture.bundle])
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(folder.stdout == "\(path): valid\n")

        try fixture.write("manifest.json", Data("{\"version\": 1,".utf8))
        let garbage = try fixture.validate([fixture.bundle])
        #expect(garbage.status == 65)
        #expect(
            garbage.stderr
                == "storyreel: error: \(path): manifest: not valid JSON: unexpected end of file during JSON parse at line 1, "
                + "column 15\n")

        try fixture.write("manifest.json", Data("[1, 2]".utf8))
        let array = try fixture.validate([path])
        #expect(array.status == 65)
        #expect(array.stderr == "storyreel: error: \(path): manifest: expected an object, got an array\n")

        let missing = try fixture.validate([fixture.folder.path("nowhere")])
        #expect(missing.status == 66, "\(missing.stderr)")

        // Over 256 MB (here a hole), one problem too, in `--json`'s shape of problems (a hostile-
        // bundle QA pass: it gave a missing manifest's {error, exitCode}, and `jq -r
        // '.problems[]'` failed).
        let huge = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try huge.truncate(atOffset: 300_000_000)
        try huge.close()
        let over = try fixture.validate([path, "--json"])
        #expect(over.status == 65, "\(over.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(over.stdout.utf8)) as? [String: Any]
        #expect(report?["valid"] as? Bool == false)
        #expect(
            report?["problems"] as? [String] == ["manifest: 300000000 bytes is over the 256 MB limit; not read"],
            "\(over.stdout)")
    }

    /// Item `index` of story `story`.
    static func item(of manifest: [String: Any], _ story: Int, _ index: Int) -> [String: Any] {
        let stories = manifest["stories"] as! [[String: Any]]
        return (stories[story]["items"] as! [[String: Any]])[index]
    }

    /// Sets the value at a path of keys (String) and indices (Int); an index one past the end appends.
    static func set(_ manifest: inout [String: Any], _ path: [Any], _ value: Any) {
        manifest = replacing(manifest, path[...], with: value) as! [String: Any]
    }

    /// Removes the key at the end of a path.
    static func remove(_ manifest: inout [String: Any], _ path: [Any]) {
        manifest = replacing(manifest, path[...], with: nil) as! [String: Any]
    }

    private static func replacing(_ node: Any, _ path: ArraySlice<Any>, with value: Any?) -> Any {
        guard let step = path.first else { return value as Any }
        let rest = path.dropFirst()
        if let key = step as? String, var object = node as? [String: Any] {
            if rest.isEmpty && value == nil {
                object[key] = nil
            } else {
                object[key] = replacing(object[key] as Any, rest, with: value)
            }
            return object
        }
        if let index = step as? Int, var array = node as? [Any] {
            if index == array.count { array.append([String: Any]()) }
            array[index] = replacing(array[index], rest, with: value)
            return array
        }
        return node
    }
}
