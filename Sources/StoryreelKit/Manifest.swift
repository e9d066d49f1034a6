import Foundation

/// A bundle's `manifest.json`: the stories in play order with their items, the cube
/// transitions between them, and what was left out. `storyreel render` writes this value and
/// `storyreel validate` reads it; an app decodes it to play the bundle.
///
/// Read a manifest with ``init(jsonData:)``: it ignores keys it does not know, so a manifest
/// from a newer minor release still reads, and fails on a ``version`` newer than
/// ``Manifest/knownVersion`` or on a wrong type with a ``ManifestError`` that names the JSON
/// path. Only it refuses what Foundation's decoder lets through but other readers take
/// otherwise: a key given twice, a trailing comma or text that is not UTF-8. Decoding with a `JSONDecoder` (or as part of an app's own
/// `Codable` type) reads the same values but throws a plain `DecodingError` and makes none of
/// those checks, so it takes the first of a key given twice where a browser takes the last
/// (a QA pass). Encoding (``jsonData()``) is deterministic: keys in a fixed order, numbers in
/// their shortest exact form.
public struct Manifest: Codable, Sendable, Hashable {
    /// The manifest version this library reads and writes.
    public static let knownVersion = 1

    /// The manifest format's version (``knownVersion`` for what this library writes).
    public var version: Int
    /// `storyreel ` then the version of the tool that wrote it.
    public var generator: String
    /// The size transitions are rendered at; items keep their own size.
    public var canvas: Size
    /// The sum of every item's duration in seconds; transitions are not included.
    public var duration: Double
    /// The stories, in the order they play.
    public var stories: [Story]
    /// The cube transitions between adjacent stories.
    public var transitions: [Transition]
    /// What the render left out, with the reasons.
    public var skipped: [SkippedEntry]

    /// A manifest of the given parts.
    public init(
        version: Int = Manifest.knownVersion, generator: String, canvas: Size, duration: Double, stories: [Story],
        transitions: [Transition], skipped: [SkippedEntry]
    ) {
        self.version = version
        self.generator = generator
        self.canvas = canvas
        self.duration = duration
        self.stories = stories
        self.transitions = transitions
        self.skipped = skipped
    }

    private enum CodingKeys: String, CodingKey {
        case version, generator, canvas, duration, stories, transitions, skipped
    }

    /// Decodes a manifest; the version is read first, so a newer format fails on it alone.
    ///
    /// Called by a `JSONDecoder` (or any decoder) directly, it throws a `DecodingError` (a
    /// ``ManifestError`` only for a version it does not read) and does not check the text for a
    /// key given twice, a trailing comma or an encoding other than UTF-8: ``init(jsonData:)``
    /// does, and gives every fault as a one-line ``ManifestError`` with its JSON path (a QA pass).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Its path in the whole JSON: a manifest inside an app's own type (`reels[1].version`)
        // was named `version` alone (a QA pass of the library).
        let versionPath = ManifestError.path(container.codingPath + [CodingKeys.version])
        // A version too large for an integer is newer still, not a damaged bundle (a QA pass:
        // `1e30` was "out of range for an integer", with no `newerVersion`).
        if (try? container.decodeInteger(forKey: .version)) == nil,
            let huge = try? container.decode(Double.self, forKey: .version), huge.isFinite, huge >= 0x1p63
        {
            throw ManifestError(
                path: versionPath,
                "version \(huge) is newer than this StoryreelKit reads (\(Manifest.knownVersion)); update StoryreelKit",
                newerVersion: Int.max)
        }
        version = try container.decodeInteger(forKey: .version)
        guard version >= 1 else {
            throw ManifestError(path: versionPath, "version \(version) is not a manifest version (they start at 1)")
        }
        guard version <= Manifest.knownVersion else {
            throw ManifestError(
                path: versionPath,
                "version \(version) is newer than this StoryreelKit reads (\(Manifest.knownVersion)); update StoryreelKit",
                newerVersion: version)
        }
        generator = try container.decode(String.self, forKey: .generator)
        canvas = try container.decode(Size.self, forKey: .canvas)
        duration = try container.decode(Double.self, forKey: .duration)
        stories = try container.decode([Story].self, forKey: .stories)
        transitions = try container.decode([Transition].self, forKey: .transitions)
        skipped = try container.decode([SkippedEntry].self, forKey: .skipped)
    }

    /// Reads a manifest from its JSON bytes.
    ///
    /// - Throws: ``ManifestError`` naming the JSON path of the first fault
    ///   (`stories[2].items[0].duration: expected a number`), or `manifest: not valid JSON: invalid
    ///   value at line 3, column 1`. JSON
    ///   that Foundation reads but browsers refuse (a trailing comma, UTF-16 or UTF-32 text) and a
    ///   key given twice are refused too, and so, before it is parsed, is text over
    ///   ``maximumByteCount`` bytes, nested deeper than ``maximumDepth``, of more than
    ///   ``maximumValues`` values, or with a number longer than 100 characters.
    public init(jsonData data: Data) throws {
        if let fault = Manifest.shapeFault(in: data) { throw fault }
        do {
            self = try JSONDecoder().decode(Manifest.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            // Text Foundation cannot read at all: say why (its encoding, or where it breaks).
            throw ManifestError.unreadable(data)
        } catch {
            // A key given twice comes first, here too: it is the fault, and the value the
            // decoder kept of the two may be the one a browser drops (a QA pass: `"version": 2,
            // "version": 1` was "newer than this StoryreelKit reads").
            if let fault = ManifestError.structuralFaults(in: data).first { throw fault }
            throw (error as? DecodingError).map { ManifestError($0) } ?? error
        }
        if let fault = ManifestError.structuralFaults(in: data).first { throw fault }
        // A number so small it reads as 0 (`1e-400`) where an integer is read: Foundation's
        // decoder refuses it in a number, and took it as 0 in an integer (a QA pass: a `rotation`
        // of 1e-400 passed `validate`).
        if JSONParseFailure.underflow(in: data) != nil { throw ManifestError.unreadable(data) }
    }

    /// The manifest as `storyreel render` writes it: two-space indents, keys in a fixed order,
    /// numbers in their shortest exact form, and a final newline. The same value always gives
    /// the same bytes.
    ///
    /// - Throws: ``ManifestError`` naming the path of a number JSON cannot hold (NaN or an
    ///   infinity, in a manifest built in code: `duration: nan is not a JSON number …`).
    public func jsonData() throws -> Data {
        Data((try jsonValue().serialized() + "\n").utf8)
    }

    /// The manifest as an ordered JSON value (keys in the order ``jsonData()`` writes them).
    ///
    /// - Throws: ``ManifestError``, as ``jsonData()`` does.
    package func jsonValue() throws -> JSONValue {
        try OrderedJSONEncoder.value(of: self)
    }

    /// The story with id `id`, if any.
    public func story(id: String) -> Story? {
        stories.first { $0.id == id }
    }

    /// The transition from story `from` to story `to` turning `direction`, when the bundle has it:
    /// the first listed, where a manifest lists the same join twice (which `validate` refuses),
    /// as ``StoryNavigator`` plays it. It reads the list from the start; a navigator keeps its own
    /// index.
    public func transition(from: String, to: String, direction: Transition.Direction) -> Transition? {
        transitions.first { $0.from == from && $0.to == to && $0.direction == direction }
    }
}
