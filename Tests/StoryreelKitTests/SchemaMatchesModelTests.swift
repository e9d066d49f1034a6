import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// `schema/manifest.schema.json` and `Manifest` cannot drift apart: manifests the model
/// encodes, with every optional value present and absent, are valid under the schema
/// (python3-jsonschema), and each object's keys are exactly the schema's properties.
@Suite struct SchemaMatchesModelTests {
    static let schemaURL = TestEnvironment.packageRoot.appendingPathComponent("schema/manifest.schema.json")

    /// A manifest using every optional value: avatars, codecs (video and audio), stills, skipped entries with and
    /// without a story; and the same values absent.
    static func everyOptional() -> [Manifest] {
        var full = ManifestSamples.manifest(items: [1, 2, 1], transitions: .both, read: [1])
        full.stories[0].user.avatar = "avatars/s0.jpg"
        full.stories[0].items[0].hasAudio = true
        full.stories[0].items[0].audioCodecs = "mp4a.40.2"
        full.skipped = [
            Manifest.SkippedEntry(path: "s0/broken.mov", story: "s0", reason: "moov atom not found"),
            Manifest.SkippedEntry(path: "x y", story: nil, reason: "not a valid handle"),
        ]
        var sparse = full
        for story in sparse.stories.indices {
            sparse.stories[story].user.avatar = nil
            for item in sparse.stories[story].items.indices {
                sparse.stories[story].items[item].codecs = nil
                sparse.stories[story].items[item].audioCodecs = nil
                sparse.stories[story].items[item].firstFrame = nil
                sparse.stories[story].items[item].lastFrame = nil
            }
        }
        for transition in sparse.transitions.indices { sparse.transitions[transition].codecs = nil }
        return [full, sparse]
    }

    @Test func encodedManifestsAreValidUnderTheSchema() throws {
        let folder = try TemporaryFolder()
        var paths = try Self.everyOptional().enumerated().map { index, manifest in
            try folder.write("manifest-\(index).json", try manifest.jsonData())
        }
        paths.append(try folder.write("demo.json", try RenderedSamples.manifestData(.demo)))
        let script = """
            import json, sys, jsonschema
            validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
            for path in sys.argv[2:]:
                errors = [e.message for e in validator.iter_errors(json.load(open(path)))]
                print("valid" if not errors else "invalid: " + "; ".join(errors))
            """
        let result = try TestEnvironment.run("/usr/bin/python3", ["-c", script, Self.schemaURL.path] + paths)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n") == Array(repeating: "valid", count: paths.count), "\(result.stdout)")
    }

    @Test func everySchemaPropertyIsAModelKeyAndTheReverse() throws {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL)) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        func properties(_ object: Any?) -> Set<String> {
            Set(((object as? [String: Any])?["properties"] as? [String: Any] ?? [:]).keys)
        }
        let story = definitions["story"] as? [String: Any]
        let schemaKeys: [String: Set<String>] = [
            "manifest": properties(schema), "size": properties(definitions["size"]), "story": properties(story),
            "user": properties((story?["properties"] as? [String: Any])?["user"]),
            "item": properties(definitions["item"]), "transition": properties(definitions["transition"]),
            "skipped": properties(definitions["skipped"]),
        ]
        let encoded = try Self.everyOptional()[0].jsonValue()
        let modelKeys: [String: Set<String>] = [
            "manifest": Self.keys(encoded), "size": Self.keys(Self.member(encoded, "canvas")),
            "story": Self.keys(Self.first(encoded, "stories")),
            "user": Self.keys(Self.member(Self.first(encoded, "stories"), "user")),
            "item": Self.keys(Self.first(Self.first(encoded, "stories"), "items")),
            "transition": Self.keys(Self.first(encoded, "transitions")),
            "skipped": Self.keys(Self.first(encoded, "skipped")),
        ]
        for (name, keys) in schemaKeys {
            #expect(!keys.isEmpty, "the schema's \(name)")
            #expect(
                modelKeys[name] == keys, "\(name): the model writes \(modelKeys[name] ?? []), the schema names \(keys)")
        }
    }

    static func keys(_ value: JSONValue?) -> Set<String> {
        guard case .object(let members) = value else { return [] }
        return Set(members.map(\.0))
    }

    static func member(_ value: JSONValue?, _ key: String) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.0 == key }?.1
    }

    static func first(_ value: JSONValue?, _ key: String) -> JSONValue? {
        guard case .array(let elements) = member(value, key) else { return nil }
        return elements.first
    }
}
