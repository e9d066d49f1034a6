import StoryMedia
import Testing

@testable import StoryreelCLI

/// The hand-written tokenizer follows swift-argument-parser's rules, and reads options through
/// typed keys declared once with their type, default and range.
@Suite struct ArgumentParserTests {
    static let json = Flag("json", "JSON")
    static let timeout = Option.number("timeout", "SECONDS", "deadline", default: 30, range: .seconds)
    static let output = Option.output("OUT", "output")
    static let size = Option<(width: Int, height: Int)?>.ranged("size", "WxH", "size", range: .canvas) {
        $0.size($1)
    }
    let parser = ArgumentParser(
        options: [json.spec, timeout.spec, output.spec, size.spec],
        otherCommands: [("cube", ["--duration", "--fps", "-j"]), ("inspect", ["--json"])])

    @Test func separatesPositionalsAndOptions() throws {
        let parsed = try parser.parse(["a.mov", "--json", "b.mov", "--timeout", "5", "-o", "x.jpg"])
        #expect(parsed.positionals == ["a.mov", "b.mov"])
        #expect(parsed[Self.json])
        #expect(parsed[Self.timeout] == 5)
        #expect(parsed[Self.output] == "x.jpg")
    }

    @Test func anOptionNotGivenHasItsDeclaredDefault() throws {
        let parsed = try parser.parse([])
        #expect(parsed[Self.timeout] == 30)
        #expect(parsed.given(Self.timeout) == nil)
        #expect(parsed[Self.output] == nil)
        #expect(!parsed[Self.json])
    }

    @Test func helpShowsTheDeclaredDefaultAndRange() {
        #expect(Self.timeout.spec.helpLine == "deadline Default: 30. Must be a number more than 0 and at most 86400.")
        #expect(InspectCommand.helpText.contains("Give up on a clip after this long. Default: 30."))
        #expect(ThumbnailCommand.helpText.contains("Quality, 100 best. Default: 85."))
        #expect(CubeCommand.helpText.contains("Transition length in seconds. Default: 0.5."))
    }

    @Test func equalsFormAttachedShortValueAndTheHiddenAlias() throws {
        let parsed = try parser.parse(["--timeout=2.5", "-ox.png"])
        #expect(parsed[Self.timeout] == 2.5)
        #expect(parsed[Self.output] == "x.png")
        #expect(try parser.parse(["--out=y.png"])[Self.output] == "y.png", "--out is --output")
        #expect(!CubeCommand.helpText.contains("--out "), "the alias is hidden from help")
    }

    /// An option with nothing after it is named with both its spellings, as every other message
    /// names it (a CLI QA pass: `-o` alone said "--output needs a value").
    @Test func anOptionAtTheEndWithoutItsValueIsNamedAsEveryMessageNamesIt() {
        #expect(throws: UsageError("-o/--output needs a value (OUT)")) { try parser.parse(["a.mov", "-o"]) }
        #expect(throws: UsageError("--timeout needs a value (SECONDS)")) { try parser.parse(["a.mov", "--timeout"]) }
    }

    /// `render --version` names where the version is (a CLI QA pass: a bare "unknown option").
    @Test func theVersionAfterACommandSaysWhereItIs() {
        #expect(throws: UsageError("unknown option '--version'; the version is 'storyreel --version'")) {
            try parser.parse(["a.mov", "--version"])
        }
        // `-v`, the version's short name before a command, too (a QA pass: `cube -v`, no hint).
        #expect(throws: UsageError("unknown option '-v'; the version is 'storyreel --version'")) {
            try parser.parse(["a.mov", "-v"])
        }
    }

    /// From a QA pass: ffmpeg's and ffmpegthumbnailer's names for an option were pointed to an
    /// unrelated one (`thumbnail --time 1` to cube's `--size`) or to none (`-s`). The command's
    /// own option that does their work is named; one it does not take is not offered.
    @Test func ffmpegsNamesForAnOptionPointToStoryreels() {
        #expect(throws: UsageError("unknown option '-s'; did you mean '--size'?")) { try parser.parse(["-s", "9x16"]) }
        #expect(throws: UsageError("unknown option '-y'")) { try parser.parse(["-y"]) }
    }

    /// A value given twice is refused (64): the last one used to win silently, so a wrapper
    /// adding `-o` to a user's arguments redirected the output. A flag given twice is harmless.
    /// From a QA pass: `thumbnail --format JPG` was read, `cube --codec HEVC`, `--easing LINEAR`
    /// and `--max-bitrate AUTO` refused (64). A choice and `auto` are read in any case.
    @Test func choicesAndAutoAreReadInAnyCase() throws {
        let cube = ArgumentParser(
            options: [CubeCommand.codec.spec, CubeCommand.easing.spec, CubeCommand.maxBitrate.spec], otherCommands: [])
        let parsed = try cube.parse(["--codec", "HEVC", "--easing", "Linear", "--max-bitrate", "AUTO"])
        #expect(parsed[CubeCommand.codec] == .hevc && parsed[CubeCommand.easing] == .linear)
        if case .automatic = parsed[CubeCommand.maxBitrate] {} else { Issue.record("AUTO is auto") }
        #expect(throws: UsageError.self) { try cube.parse(["--codec", "h265"]) }
        // render's own `auto` options too (a re-check: `render --max-bitrate AUTO` was still 64).
        let render = ArgumentParser(
            options: [RenderCommand.codec.spec, RenderCommand.maxBitrate.spec, RenderCommand.size.spec],
            otherCommands: [])
        let rendered = try render.parse(["--codec", "HEVC", "--max-bitrate", "Auto", "--size", "AUTO"])
        #expect(rendered[RenderCommand.codec] == .hevc)
        #expect(rendered[RenderCommand.maxBitrate] == .rule && rendered[RenderCommand.size] == .automatic)
    }

    @Test func aValueGivenTwiceIsRefused() throws {
        #expect(throws: UsageError("-o/--output is given twice; give it once")) {
            try parser.parse(["-ox.png", "--out=y.png"])
        }
        #expect(throws: UsageError("--timeout is given twice; give it once")) {
            try parser.parse(["--timeout", "2", "a.mov", "--timeout", "2"])
        }
        #expect(try parser.parse(["--json", "--json"])[Self.json])
    }

    /// `-o=a.jpg` wrote a file named `=a.jpg` (as getopt reads it); it is refused, saying how.
    @Test func anEqualsAfterAShortOptionIsRefused() {
        #expect(throws: UsageError("'-o=a.jpg' would be the value '=a.jpg'; write -o a.jpg or --output=a.jpg")) {
            try parser.parse(["-o=a.jpg"])
        }
    }

    /// From a QA pass: `inspect ''` (an unset variable) said `storyreel: error: : no such file`.
    @Test func anEmptyPositionalIsAUsageError() {
        for arguments in [["a.mov", ""], ["--", ""]] {
            #expect(throws: UsageError("an empty argument where a path goes")) { try parser.parse(arguments) }
        }
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
        #expect(throws: UsageError("unknown option '--fps' ('--fps' is an option of cube)")) {
            try parser.parse(["--fps", "3"])
        }
    }

    /// From a QA pass: `-json` was `-j son` and `-output` wrote a file named `utput` (exit 0), an
    /// ffmpeg user's slip; `---json` was said to be another command's option; `--fsp` and
    /// `--timoeut` got no hint (a swap of two letters cost 2 edits).
    @Test func slipsOfTheDashesAndOfTheLettersAreNamed() throws {
        #expect(throws: UsageError("unknown option '-json'; did you mean '--json'?")) { try parser.parse(["-json"]) }
        #expect(throws: UsageError("unknown option '-output'; did you mean '--output'?")) {
            try parser.parse(["-output"])
        }
        #expect(throws: UsageError("unknown option '-out'; did you mean '--output'?")) {
            try parser.parse(["-out", "a.jpg"])
        }
        #expect(try parser.parse(["-oa.jpg"])[Self.output] == "a.jpg", "a value glued to -o still works")
        #expect(throws: UsageError("unknown option '---json'; did you mean '--json'?")) {
            try parser.parse(["---json"])
        }
        #expect(throws: UsageError("unknown option '--timoeut'; did you mean '--timeout'?")) {
            try parser.parse(["--timoeut", "3"])
        }
        #expect(throws: UsageError("unknown option '--fsp' ('--fps' is an option of cube)")) {
            try parser.parse(["--fsp", "3"])
        }
        #expect(throws: UsageError("'--=5' names no option (a lone -- ends the options)")) {
            try parser.parse(["--=5"])
        }
    }

    /// From a QA pass: other commands' short names were offered as long ones, `render --zz` was
    /// told that "'--j' is an option of inspect, thumbnail, plan" (no command has `--j`), and
    /// `render --q` that `--q` was cube's and ingest's, where render takes `-q` itself.
    @Test func aOneLetterNameIsOnlyEverAShortOne() {
        #expect(throws: UsageError("unknown option '--zz'")) { try parser.parse(["--zz"]) }
        #expect(throws: UsageError("unknown option '--o'; did you mean '-o'?")) { try parser.parse(["--o", "a.jpg"]) }
        #expect(throws: UsageError("unknown option '--j' ('-j' is an option of cube)")) {
            try parser.parse(["--j", "2"])
        }
        #expect(throws: UsageError("unknown option '-j' ('-j' is an option of cube)")) {
            try parser.parse(["-j", "2"])
        }
        // Nor are two letters a slip of two others: `--zz` is not `--at`, where `--widht` is `--width`.
        #expect(ArgumentParser.closest(to: "--zz", among: ["--at", "--json"]) == nil)
        #expect(ArgumentParser.closest(to: "--widht", among: ["--at", "--width"]) == "--width")
        #expect(ArgumentParser.closest(to: "--fsp", among: ["--at", "--fps"]) == "--fps")
    }

    @Test func aNameThatIsAWordOfAKnownNameSuggestsIt() {
        #expect(
            ArgumentParser.closest(to: "--duration", among: ["--transition-duration", "--fps", "--crf"])
                == "--transition-duration")
        #expect(ArgumentParser.closest(to: "--dir", among: ["--out-dir", "--frames-dir"]) == "--out-dir")
        #expect(ArgumentParser.closest(to: "--zebra", among: ["--out-dir", "--fps"]) == nil)
    }

    @Test func missingValueAndValueOnFlagAreErrors() {
        #expect(throws: UsageError.self) { try parser.parse(["--timeout"]) }
        #expect(throws: UsageError.self) { try parser.parse(["--json=yes"]) }
    }

    @Test func valuesAreCheckedAgainstTheirDeclaration() throws {
        #expect(throws: UsageError.self) { try parser.parse(["--timeout", "x"]) }
        #expect(throws: UsageError.self) { try parser.parse(["--timeout", "0"]) }
        #expect(throws: UsageError.self) { try parser.parse(["--timeout", "nan"]) }
        #expect(try parser.parse(["--size", "1080x1920"])[Self.size]! == (1080, 1920))
        #expect(throws: UsageError.self) { try parser.parse(["--size", "1081x1920"]) }
        #expect(throws: UsageError.self) { try parser.parse(["--size", "0x0"]) }
        #expect(throws: UsageError.self) { try parser.parse(["--size", "9000x2"]) }
    }

    @Test func standardOutputIsRefusedForAFileOutput() {
        #expect(throws: UsageError("-o - (standard output) is not supported here; give a path")) {
            try parser.parse(["-o", "-"])
        }
    }

    /// From a QA pass: `render stories -o $OUT --json` with OUT unset rendered into a folder
    /// named `--json` and exited 0. A separate value that reads as an option is refused; the
    /// `=` form and a path that does not start with '-' name such a file, and a sign before a
    /// digit is a value (refused by the value's own check, not as an option).
    @Test func aSeparateValueThatReadsAsAnOptionIsRefused() throws {
        #expect(
            throws: UsageError(
                "-o/--output needs a value (OUT) before '--json'; for a value that starts with '-', write --output=--json"
            )
        ) { try parser.parse(["a.mov", "-o", "--json"]) }
        #expect(throws: UsageError.self) { try parser.parse(["--output", "-x.jpg"]) }
        #expect(throws: UsageError.self) { try parser.parse(["--size", "--json"]) }
        #expect(try parser.parse(["--output=--json"])[Self.output] == "--json")
        #expect(try parser.parse(["-o", "./--json"])[Self.output] == "./--json")
        #expect(throws: UsageError("--timeout must be a number more than 0 and at most 86400, got '-1'")) {
            try parser.parse(["--timeout", "-1"])
        }
    }

    /// From a scripting QA pass: `inspect - < clip.mp4` (ffprobe's and cat's standard input)
    /// said "-: no such file", 66. No command reads standard input: a usage error, as `-o -` is
    /// where a file goes. After `--`, `-` is a name like any other.
    @Test func aLonelyDashIsRefusedUnlessAfterTheDoubleDash() throws {
        #expect(
            throws: UsageError("- (standard input) is not supported; give a path (./- for a file or folder named -)")
        ) {
            try parser.parse(["a.mov", "-"])
        }
        #expect(try parser.parse(["--", "-"]).positionals == ["-"])
    }

    /// From a CLI QA pass: `render -o rsl//` reported `rsl//manifest.json`, `validate rsl//`
    /// `rsl//manifest.json: valid`. A path's repeated slashes are made one (the same file on
    /// Linux); other values are as given.
    @Test func pathsHaveTheirRepeatedSlashesMadeOne() throws {
        let parsed = try parser.parse(["a//b.mov", "-o", "x//y/", "--", "//c"])
        #expect(parsed.positionals == ["a/b.mov", "/c"])
        #expect(parsed[Self.output] == "x/y/")
        #expect("a/b".collapsingRepeatedSlashes == "a/b")
    }

    /// From a CLI QA pass: `render -qj 2` was told that `-q` is an option of cube and ingest,
    /// where render takes it too. Short flags are not bundled, and the error says so.
    @Test func bundledShortFlagsAreToldApart() throws {
        let parser = ArgumentParser(
            options: [Flag("quiet", short: "q", "quiet").spec, Option.jobs("jobs").spec],
            otherCommands: [("cube", ["-q", "-j"])])
        #expect(throws: UsageError("unknown option '-qj'; short options are not combined: write '-q -j'")) {
            try parser.parse(["-qj", "2"])
        }
        #expect(try parser.parse(["-j2", "-q"]).values["jobs"] == ["2"])
    }

    /// From a scripting QA pass: these got no hint. ffprobe's `-of json` and ffmpeg's `-threads`
    /// name storyreel's option; another command's short option with its value attached is that
    /// command's (`ingest -j1`, as `-j 1` was); a file's name that starts with '-' is told how.
    @Test func moreSlipsAreNamed() {
        let inspect = ArgumentParser(
            options: [Self.json.spec, Self.timeout.spec], otherCommands: [("render", ["--jobs", "-j"])])
        #expect(throws: UsageError("unknown option '-of'; did you mean '--json'?")) {
            try inspect.parse(["-of", "json"])
        }
        #expect(throws: UsageError("unknown option '-print_format'; did you mean '--json'?")) {
            try inspect.parse(["-print_format", "json"])
        }
        #expect(throws: UsageError("unknown option '-j1' ('-j' is an option of render)")) { try inspect.parse(["-j1"]) }
        #expect(
            throws: UsageError(
                "unknown option '-dash.mp4'; a path that starts with '-' goes after '--', or as ./-dash.mp4")
        ) {
            try inspect.parse(["-dash.mp4"])
        }
        #expect(throws: UsageError("unknown option '-t1.5'")) { try inspect.parse(["-t1.5"]) }
        let render = ArgumentParser(options: [Self.timeout.spec, Option.jobs("jobs").spec], otherCommands: [])
        #expect(throws: UsageError("unknown option '-threads'; did you mean '--jobs'?")) {
            try render.parse(["-threads", "2"])
        }
    }

    /// A command's own familiar names come before ffmpeg's and before the other commands' options
    /// (a QA pass: `ingest -o reel` was told that `-o` is thumbnail's, cube's and render's).
    @Test func aCommandsOwnFamiliarNamesComeFirst() {
        let render = Option.outputPath("render", "OUT", "render")
        let ingest = ArgumentParser(
            options: [render.spec, Self.timeout.spec, Self.size.spec], otherCommands: [("render", ["--output", "-o"])],
            familiarNames: ["-o": ["render"], "-s": ["render"], "--to": ["into", "render"]])
        #expect(throws: UsageError("unknown option '-o'; did you mean '--render'?")) { try ingest.parse(["-o", "x"]) }
        #expect(throws: UsageError("unknown option '-ox'; did you mean '--render'?")) { try ingest.parse(["-ox"]) }
        // Before ffmpeg's `-s` (`--width`, `--size`); the first name it takes.
        #expect(throws: UsageError("unknown option '-s'; did you mean '--render'?")) { try ingest.parse(["-s", "x"]) }
        #expect(throws: UsageError("unknown option '--to'; did you mean '--render'?")) {
            try ingest.parse(["--to", "x"])
        }
        // `-ss` is ffmpeg's, not `-s` with `s` attached; `-t5` is no name of the command's own.
        #expect(throws: UsageError("unknown option '-ss'")) { try ingest.parse(["-ss", "1"]) }
        #expect(throws: UsageError("unknown option '-t5'")) { try ingest.parse(["-t5"]) }
    }
}
