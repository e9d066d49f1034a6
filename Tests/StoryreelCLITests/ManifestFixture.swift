import Foundation
import StoryMedia
import StoryreelTestSupport

/// A small hand-made bundle for `storyreel validate`: every file its manifest references exists
/// (clips with their real SHA-256, posters, thumbnails, avatars, transitions), so a manifest's
/// verdict is decided by its JSON alone until a test changes the files.
///
/// Three stories in play order: `ana` (one clip), `ben` (two clips), `chloe` (one clip, no
/// avatar); forward transitions ana→ben and ben→chloe and the backward one ben→ana.
final class ManifestFixture: @unchecked Sendable {
    /// The temp folder; the bundle is its `reel/` folder, and tests may put files beside it.
    let folder: TemporaryFolder
    /// The bundle folder.
    let bundle: String
    /// The clips' SHA-256, by clip name (`a`, `b1`, `b2`, `c`).
    private(set) var sha: [String: String] = [:]

    /// Writes the bundle's files.
    init() throws {
        folder = try TemporaryFolder()
        bundle = folder.path("reel")
        for sub in ["clips", "posters", "thumbs", "avatars", "transitions", "stills"] {
            try FileManager.default.createDirectory(
                atPath: "\(bundle)/\(sub)", withIntermediateDirectories: true)
        }
        for clip in ["a", "b1", "b2", "c"] {
            let content = "the bytes of clip \(clip)\n"
            let hash = try ContentHasher.sha256(of: content)
            sha[clip] = hash
            try write(clipPath(clip), Data(content.utf8))
            // The sizes render makes them at for a 360x640 clip on a 360x640 canvas.
            try write("posters/\(clip).jpg", ManifestFixture.jpeg("poster \(clip)", width: 360, height: 640))
            try write("thumbs/\(clip).jpg", ManifestFixture.jpeg("thumbnail \(clip)", width: 180, height: 320))
        }
        for user in ["ana", "ben"] { try write("avatars/\(user).jpg", ManifestFixture.jpeg("avatar \(user)")) }
        let transition = try ManifestFixture.transitionClip.get()
        for name in ["ana-ben", "ben-chloe", "ben-ana"] {
            try write("transitions/\(name).mp4", transition)
        }
    }

    /// What `validate` takes for a whole JPEG of `width` × `height` (its start marker, `text` as
    /// a comment, a frame header and its end marker): avatars are 180 × 180.
    static func jpeg(_ text: String, width: Int = 180, height: Int = 180) -> Data {
        let comment = Data(text.utf8)
        let length = comment.count + 2
        let frameHeader: [UInt8] = [
            0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8),
            UInt8(width & 0xFF), 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
        ]
        return Data([0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)]) + comment
            + Data(frameHeader) + Data([0xFF, 0xD9])
    }

    /// A transition as the manifest describes it: 15 frames of 360x640 (made once per run).
    static let transitionClip: Result<Data, Error> = Result {
        let folder = try TemporaryFolder()
        let path = folder.path("transition.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "color=c=gray:s=360x640:r=30", "-frames:v", "15", "-c:v", "libx264", "-preset",
            "ultrafast", "-pix_fmt", "yuv420p", path,
        ])
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Where clip `name` is in the bundle, relative: `clips/<sha256>.mp4`.
    func clipPath(_ name: String) -> String { "clips/\(sha[name]!).mp4" }

    /// Writes `data` at `relative` inside the bundle.
    func write(_ relative: String, _ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: "\(bundle)/\(relative)"))
    }

    /// A manifest that is valid by the schema and by every other rule.
    func goodManifest() -> [String: Any] {
        func item(_ clip: String, id: String? = nil) -> [String: Any] {
            [
                "id": id ?? String(sha[clip]!.prefix(16)), "src": clipPath(clip), "sha256": sha[clip]!,
                "duration": 2.5, "width": 360, "height": 640, "rotation": 0, "frameRate": 30, "codec": "h264",
                "hdr": "none", "hasAudio": true, "poster": "posters/\(clip).jpg", "thumbnail": "thumbs/\(clip).jpg",
            ]
        }
        func story(_ handle: String, avatar: Any, items: [[String: Any]]) -> [String: Any] {
            [
                "id": handle, "user": ["handle": handle, "displayName": handle.capitalized, "avatar": avatar],
                "isRead": false, "duration": 2.5 * Double(items.count), "items": items,
            ]
        }
        func transition(_ from: String, _ to: String, _ direction: String) -> [String: Any] {
            [
                "from": from, "to": to, "direction": direction, "src": "transitions/\(from)-\(to).mp4", "frames": 15,
                "fps": 30, "duration": 0.5, "width": 360, "height": 640,
            ]
        }
        return [
            "version": 1, "generator": "storyreel 0.1.0", "canvas": ["width": 360, "height": 640], "duration": 10,
            "stories": [
                story("ana", avatar: "avatars/ana.jpg", items: [item("a")]),
                story("ben", avatar: "avatars/ben.jpg", items: [item("b1"), item("b2")]),
                story("chloe", avatar: NSNull(), items: [item("c")]),
            ],
            "transitions": [
                transition("ana", "ben", "forward"), transition("ben", "chloe", "forward"),
                transition("ben", "ana", "backward"),
            ],
            "skipped": [["path": "chloe/broken.mov", "story": "chloe", "reason": "moov atom not found"]],
        ]
    }

    /// Writes `manifest` as `name` in the bundle and returns its path. A string value
    /// `"@raw:TEXT"` is written as the bare JSON text TEXT (e.g. `"@raw:360.0"` gives `360.0`).
    @discardableResult
    func save(_ manifest: Any, as name: String = "manifest.json") throws -> String {
        let data = try JSONSerialization.data(
            withJSONObject: manifest, options: [.sortedKeys, .prettyPrinted, .fragmentsAllowed])
        let text = String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: #""@raw:([^"]*)""#, with: "$1", options: .regularExpression)
        let path = "\(bundle)/\(name)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs `storyreel validate` with `arguments`, killing it after `limit` seconds; returns its
    /// exit status, what it printed and how long it took.
    func validate(_ arguments: [String], limit: Double = 20) throws -> (
        status: Int32, stdout: String, stderr: String, seconds: Double
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestEnvironment.storyreelBinary)
        process.arguments = ["validate"] + arguments
        let captures = try TemporaryFolder()
        let outputs = [captures.path("stdout"), captures.path("stderr")]
        for path in outputs { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let handles = try outputs.map { try FileHandle(forWritingTo: URL(fileURLWithPath: $0)) }
        process.standardOutput = handles[0]
        process.standardError = handles[1]
        process.standardInput = FileHandle.nullDevice
        let started = Date()
        try process.run()
        while process.isRunning && Date().timeIntervalSince(started) < limit { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        for handle in handles { try handle.close() }
        let texts = try outputs.map { String(decoding: try Data(contentsOf: URL(fileURLWithPath: $0)), as: UTF8.self) }
        return (process.terminationStatus, texts[0], texts[1], Date().timeIntervalSince(started))
    }

    /// python3-jsonschema's verdict (Draft 2020-12, the repository's schema) on each file: true
    /// when valid, in order.
    static func schemaVerdicts(_ paths: [String]) throws -> [Bool] {
        let schema = TestEnvironment.packageRoot.appendingPathComponent("schema/manifest.schema.json").path
        let script = """
            import json, sys, jsonschema
            validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
            for path in sys.argv[2:]:
                print("valid" if validator.is_valid(json.load(open(path))) else "invalid")
            """
        let result = try TestEnvironment.run("/usr/bin/python3", ["-c", script, schema] + paths)
        guard result.status == 0 else { throw TestFailure("python3-jsonschema failed: \(result.stderr)") }
        let verdicts = result.stdout.split(separator: "\n").map { $0 == "valid" }
        guard verdicts.count == paths.count else { throw TestFailure("jsonschema answered \(result.stdout)") }
        return verdicts
    }
}
