import Foundation
import Testing

@testable import StoryreelKit

/// JSON output keeps key order, escapes strings and round-trips numbers.
@Suite struct JSONValueTests {
    @Test func keepsKeyOrderAndIndents() {
        let value = JSONValue.object([("z", .int(1)), ("a", .array([.null, .bool(true)])), ("m", .object([]))])
        #expect(value.serialized() == "{\n  \"z\": 1,\n  \"a\": [\n    null,\n    true\n  ],\n  \"m\": {}\n}")
        #expect(value.serialized(pretty: false) == "{\"z\":1,\"a\":[null,true],\"m\":{}}")
    }

    @Test func escapesStrings() throws {
        let text = "quote \" backslash \\ newline \n tab \t bell \u{7} é"
        let serialized = JSONValue.string(text).serialized()
        let decoded = try JSONSerialization.jsonObject(with: Data(serialized.utf8), options: .fragmentsAllowed)
        #expect(decoded as? String == text)
    }

    @Test func numbersRoundTrip() {
        #expect(JSONValue.number(2.0).serialized() == "2")
        #expect(JSONValue.number(29.97002997002997).serialized() == "29.97002997002997")
        #expect(JSONValue.number(Double?.none).serialized() == "null")
        #expect(JSONValue.number(.infinity).serialized() == "null")
        #expect(JSONValue.number(0.1).serialized() == "0.1")
    }

    @Test func decodingKeepsIntegersNumbersAndBooleansApart() throws {
        let text = "{\"b\": [1, 2.0, 2.5, 1e300, true, null, \"x\"], \"a\": {}}"
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(
            value
                == .object([
                    ("a", .object([])),
                    ("b", .array([.int(1), .int(2), .number(2.5), .number(1e300), .bool(true), .null, .string("x")])),
                ]))
        #expect(throws: (any Error).self) { try JSONDecoder().decode(JSONValue.self, from: Data("{\"a\": ".utf8)) }
    }
}
