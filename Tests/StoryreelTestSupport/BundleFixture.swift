import Foundation
import StoryreelKit

/// A temp copy of `samples/stories` plus helpers to render it and read the manifest, for the
/// pipeline's end-to-end tests.
public final class BundleFixture: @unchecked Sendable {
    /// The temp folder holding everything.
    public let folder: TemporaryFolder
    /// The copied stories folder.
    public let stories: String

    /// The canvas ``render(into:_:)`` renders at unless a test gives `--size`. Small, since most
    /// tests check what a bundle holds rather than its pixels: the suite renders the fixture about
    /// 280 times, and at 360x640 that was half of all the CPU its runs of storyreel took; a first
    /// render takes 0.55 s of CPU at 90x160 against 0.72 s at 180x320.
    public static let canvas = (width: 90, height: 160)

    /// ``canvas`` as `--size` takes it.
    public static var canvasArgument: String { "\(canvas.width)x\(canvas.height)" }

    /// Copies `samples/stories` into a fresh temp folder.
    public init() throws {
        folder = try TemporaryFolder()
        stories = folder.path("stories")
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("stories"), toPath: stories)
    }

    /// Runs `storyreel render STORIES -o OUT --json` with extra arguments; returns the result
    /// and the parsed summary.
    public func render(into name: String, _ extra: [String] = []) throws -> (ProcessResult, [String: Any]) {
        // The fixture's canvas unless `extra` gives one: an option may be given only once.
        let size = extra.contains("--size") ? [] : ["--size", Self.canvasArgument]
        let result = try TestEnvironment.storyreel(
            ["render", stories, "-o", folder.path(name), "--json"] + size + extra)
        let summary = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        return (result, summary)
    }

    /// The manifest of bundle `name`, read through StoryreelKit as an app reads it.
    ///
    /// - Throws: the Kit's ``ManifestError`` naming the JSON path of the first fault.
    public func manifest(_ name: String) throws -> Manifest {
        try Manifest(jsonData: manifestBytes(name))
    }

    /// The manifest's bytes, for tests of the raw JSON (byte identity, `null` versus absent).
    public func manifestBytes(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: folder.path("\(name)/manifest.json")))
    }

    /// Copies bundle `name` to `copyName` without its `.storyreel/` (a deploy of its visible
    /// files, shards merged without hidden files) and returns the copy's path.
    public func copyWithoutHiddenFolder(_ name: String, to copyName: String) throws -> String {
        let copy = folder.path(copyName)
        try FileManager.default.copyItem(atPath: folder.path(name), toPath: copy)
        try FileManager.default.removeItem(atPath: "\(copy)/.storyreel")
        return copy
    }

    /// Files under bundle `name`'s output folders, relative, sorted.
    public func outputs(_ name: String) -> [String] {
        ["clips", "posters", "thumbs", "stills", "avatars", "transitions"].flatMap { sub in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path("\(name)/\(sub)"))) ?? []).map {
                "\(sub)/\($0)"
            }
        }.sorted()
    }
}
