import Foundation
import Testing

@testable import StoryreelKit

/// The ordered encoder writes any `Encodable` with its keys in coding-key order, every integer
/// and float type included, and optionals left out unless encoded explicitly.
@Suite struct OrderedJSONEncoderTests {
    struct Sample: Encodable {
        var small: UInt8 = 7
        var large: UInt64 = .max
        var negative: Int16 = -3
        var single: Float = 0.5
        var absent: Int32? = nil
        var nested: [[UInt]] = [[1, 2]]
        var fraction = 0.25
    }

    @Test func everyNumberTypeIsWrittenInOrder() throws {
        let text = try OrderedJSONEncoder.value(of: Sample()).serialized(pretty: false)
        #expect(
            text
                == "{\"small\":7,\"large\":1.8446744073709552e+19,\"negative\":-3,\"single\":0.5,"
                + "\"nested\":[[1,2]],\"fraction\":0.25}")
    }

    /// JSON has no number for NaN or an infinity: encoding one throws, naming its path (it was
    /// written as `null`, which the manifest's own reader refuses), as `JSONEncoder` does.
    @Test func aNumberJSONCannotHoldThrows() {
        struct Holder: Encodable {
            var inner: [String: [Float]]
        }
        #expect(
            throws: ManifestError(path: "inner.a[1]", "nan is not a JSON number (JSON has none for NaN or an infinity)")
        ) { try OrderedJSONEncoder.value(of: Holder(inner: ["a": [1, .nan]])) }
        #expect(
            throws: ManifestError(path: "x", "-inf is not a JSON number (JSON has none for NaN or an infinity)")
        ) { try OrderedJSONEncoder.value(of: ["x": -Double.infinity]) }
    }

    @Test func aManifestKeepsItsKeyOrder() throws {
        let text = try ManifestSamples.manifest(items: [1]).jsonValue().serialized(pretty: false)
        #expect(
            text.hasPrefix("{\"version\":1,\"generator\":\"storyreel test\",\"canvas\":{\"width\":360,\"height\":640}"))
        #expect(text.contains("\"codec\":\"h264\",\"codecs\":\"avc1.64001f\",\"hdr\":\"none\""))
        #expect(text.hasSuffix("\"transitions\":[],\"skipped\":[]}"))
    }
}
