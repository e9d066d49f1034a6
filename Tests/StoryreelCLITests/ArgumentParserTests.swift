import Testing

@testable import StoryreelCLI

/// The hand-written tokenizer follows swift-argument-parser's rules.
@Suite struct ArgumentParserTests {
    let parser = ArgumentParser(options: [
        .flag("json", "JSON"), .value("timeout", "SECONDS", "deadline", range: .seconds),
        .value("out", short: "o", "OUT", "output"), .value("size", "WxH", "size", range: .canvas),
    ])

    @Test func separatesPositionalsAndOptions() throws {
        let parsed = try parser.parse(["a.mov", "--json", "b.mov", "--timeout", "5", "-o", "x.jpg"])
        #expect(parsed.positionals == ["a.mov", "b.mov"])
        #expect(parsed.flag("json"))
        #expect(try parsed.double("timeout") == 5)
        #expect(parsed.string("out") == "x.jpg")
    }

    @Test func equalsFormAndAttachedShortValue() throws {
        let parsed = try parser.parse(["--timeout=2.5", "-ox.png", "--out=y.png"])
        #expect(try parsed.double("timeout") == 2.5)
        #expect(parsed.string("out") == "y.png", "the last value wins")
        #expect(parsed.values["out"] == ["x.png", "y.png"])
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try parser.parse(["--json", "--", "--timeout", "-o"])
        #expect(parsed.positionals == ["--timeout", "-o"])
    }

    @Test func unknownOptionSuggestsTheClosest() {
        #expect(throws: UsageError("unknown option '--timout'; did you mean '--timeout'?")) {
            try parser.parse(["--timout", "3"])
        }
        #expect(throws: UsageError("unknown option '--zebra'")) { try parser.parse(["--zebra"]) }
    }

    @Test func missingValueAndValueOnFlagAreErrors() {
        #expect(throws: UsageError.self) { try parser.parse(["--timeout"]) }
        #expect(throws: UsageError.self) { try parser.parse(["--json=yes"]) }
    }

    @Test func typedAccessorsRejectMalformedValues() throws {
        #expect(throws: UsageError.self) { try parser.parse(["--timeout", "x"]) }
        #expect(throws: UsageError.self) { try parser.parse(["--timeout", "0"]) }
        #expect(throws: UsageError.self) { try parser.parse(["--timeout", "nan"]) }
        #expect(try parser.parse(["--size", "1080x1920"]).size("size")! == (1080, 1920))
        #expect(throws: UsageError.self) { try parser.parse(["--size", "1081x1920"]) }
        #expect(throws: UsageError.self) { try parser.parse(["--size", "0x0"]) }
        #expect(throws: UsageError.self) { try parser.parse(["--size", "9000x2"]) }
    }

    @Test func lonelyDashIsPositional() throws {
        #expect(try parser.parse(["-"]).positionals == ["-"])
    }
}
