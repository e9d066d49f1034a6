import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryreelCLI

/// Every numeric option of every command has a documented range, declared with the option and
/// shown in `--help`. A value outside it (huge, negative, NaN, infinite, malformed) exits 64 with
/// one error line naming the option, before any work: nothing is written, no folder is created.
@Suite struct OptionRangeTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    static let clip = TestEnvironment.sample("portrait-h264.mp4")
    static let toClip = TestEnvironment.sample("stories/ben_k/1.mp4")
    static let stories = TestEnvironment.sample("stories")

    /// Values no numeric option accepts: too big for any range, negative, not finite,
    /// hexadecimal (which `Double("0x10")` reads as 16; the old code accepted `--timeout 0x10`),
    /// and signed (`+1`: `--at`, `--timeout`, `--shade` took it where `--jobs` did not, and the
    /// docs say no option takes a sign; a docs audit).
    static let hostileValues = ["1e300", "1e10", "-1", "nan", "inf", "0x10", "+1"]

    /// One command line with its numeric options and the outputs it would create, relative to
    /// the test's temp folder (`OUT` stands for it).
    struct Case: CustomTestStringConvertible, Sendable {
        let command: String
        let arguments: [String]
        let options: [String]
        /// What the run would write; none of it may exist after a rejected value.
        let outputs: [String]
        /// Extra bad values for some options, on top of ``hostileValues``.
        var extraBadValues: [String: [String]] = [:]
        var testDescription: String {
            ([command] + arguments.filter { $0.hasPrefix("-") }).joined(separator: " ")
        }
    }

    static let cases: [Case] = [
        Case(command: "inspect", arguments: [clip], options: ["timeout", "jobs"], outputs: []),
        Case(
            command: "thumbnail", arguments: [clip, "-o", "OUT/poster.jpg"],
            options: ["at", "width", "height", "quality", "timeout", "jobs"], outputs: ["OUT/poster.jpg"],
            extraBadValues: [
                "at": ["101%", "-1%", "nan%", "1000001"], "width": ["1", "8193", "+360"],
                "quality": ["0", "101", "+85"],
            ]
        ),
        Case(
            command: "thumbnail", arguments: [clip, "--out-dir", "OUT/posters"], options: ["at", "quality", "jobs"],
            outputs: ["OUT/posters"]),
        Case(
            command: "cube",
            arguments: [clip, toClip, "-o", "OUT/cube.mp4", "--frames-dir", "OUT/frames", "--filmstrip", "OUT/s.png"],
            options: ["duration", "fps", "size", "perspective", "shade", "crf", "max-bitrate", "timeout"],
            outputs: ["OUT/cube.mp4", "OUT/frames", "OUT/s.png"],
            extraBadValues: [
                "duration": ["0", "10.5"], "fps": ["0", "241"], "size": ["9000x2", "-2x4", "3x4", "0x0"],
                "perspective": ["0", "0.05", "101"], "shade": ["1.01", "-0.01"], "crf": ["0", "52", "20.5", "+23"],
                "max-bitrate": ["99999", "201M", "4.5G", "auto2", "M", "none"],
                "timeout": ["0", "86401"],
            ]),
        Case(
            command: "render", arguments: [stories, "-o", "OUT/bundle"],
            options: [
                "jobs", "shard", "size", "fps", "transition-duration", "crf", "max-bitrate", "timeout", "lock-timeout",
            ],
            outputs: ["OUT/bundle"],
            extraBadValues: [
                // A sign is not a digit: `+2` was read as 2 (a QA pass; docs/inspect.md says digits only).
                "jobs": ["0", "1025", "+2"], "shard": ["0/2", "3/2", "1/1025", "1e10/1e10", "1/", "+1/3", "1/+3"],
                "transition-duration": ["0", "11"], "lock-timeout": ["86401", "-0.5"], "crf": ["0", "52", "20.5"],
                "max-bitrate": ["99999", "201M", "4.5G", "auto2", "M"], "size": ["automatic", "9000x2", "+360x+640"],
            ]),
        Case(
            command: "plan", arguments: [stories, "--json"],
            options: ["jobs", "shard", "size", "fps", "transition-duration", "crf", "max-bitrate", "timeout"],
            outputs: []),
        Case(
            command: "ingest", arguments: [clip, "--story", "ana", "--into", "OUT/stories", "--render", "OUT/bundle"],
            options: ["max-duration", "timeout", "size", "fps", "transition-duration", "crf", "max-bitrate"],
            outputs: ["OUT/stories", "OUT/bundle"],
            extraBadValues: ["max-duration": ["0", "86401"], "max-bitrate": ["50k"]]),
    ]

    /// Runs `storyreel` with `OUT` in the arguments replaced by the temp folder.
    func storyreel(_ arguments: [String]) throws -> ProcessResult {
        try TestEnvironment.storyreel(arguments.map { $0.replacingOccurrences(of: "OUT", with: folder.url.path) })
    }

    @Test(arguments: cases)
    func outOfRangeValuesExit64BeforeAnyWork(_ testCase: Case) throws {
        for option in testCase.options {
            for value in Self.hostileValues + testCase.extraBadValues[option, default: []] {
                // `--name value`, and for the first value also `--name=value`.
                let spellings = [["--\(option)", value]] + (value == "1e300" ? [["--\(option)=\(value)"]] : [])
                for spelling in spellings {
                    let result = try storyreel([testCase.command] + testCase.arguments + spelling)
                    let shown = "\(testCase.command) \(spelling.joined(separator: " "))"
                    #expect(result.status == 64, "\(shown): \(result.stderr)")
                    let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: error: ") }
                    #expect(errors.count == 1, "\(shown): \(result.stderr)")
                    #expect(errors.first?.hasPrefix("storyreel: error: --\(option) ") == true, "\(shown): \(errors)")
                    #expect(errors.first?.contains("got '\(value)'") == true, "\(shown): \(errors)")
                    #expect(result.stdout.isEmpty, "\(shown) printed \(result.stdout)")
                    for output in testCase.outputs {
                        let path = output.replacingOccurrences(of: "OUT", with: folder.url.path)
                        #expect(!FileManager.default.fileExists(atPath: path), "\(shown) created \(output)")
                    }
                    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "\(shown)")
                }
            }
        }
    }

    @Test func aTransitionOfMoreThan1000FramesOrNoFrameExits64AndWritesNothing() throws {
        let lines: [[String]] = [
            ["render", Self.stories, "-o", "OUT/bundle", "--fps", "240", "--transition-duration", "4.5"],
            ["render", Self.stories, "-o", "OUT/bundle", "--fps", "1", "--transition-duration", "0.4"],
            ["plan", Self.stories, "--fps", "200", "--transition-duration", "10"],
            [
                "cube", Self.clip, Self.toClip, "-o", "OUT/cube.mp4", "--frames-dir", "OUT/f", "--fps", "240",
                "--duration", "10",
            ],
            ["cube", Self.clip, Self.toClip, "-o", "OUT/cube.mp4", "--duration", "0.01", "--fps", "30"],
        ]
        for line in lines {
            let result = try storyreel(line)
            #expect(result.status == 64, "\(line): \(result.stderr)")
            let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: error: ") }
            #expect(errors.count == 1, "\(result.stderr)")
            #expect(errors.first?.contains("× --fps must make 1 to 1000 frames") == true, "\(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "\(line)")
        }
    }

    /// A bit rate is a whole number of bits per second: rounded, `99999.5` passed the range
    /// from 100k, `200000000.4` the one to 200M (a QA pass). `4.1M` is still 4100000.
    @Test func aBitRateIsAWholeNumberOfBitsInItsRange() throws {
        for value in ["99999.5", "200000000.4", "100000.5", "0.1000005M"] {
            let line = ["render", Self.stories, "-o", "OUT/bundle", "--max-bitrate", value]
            let result = try storyreel(line)
            #expect(result.status == 64, "\(value): \(result.stderr)")
            #expect(result.stderr.contains("--max-bitrate"), "\(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "\(line)")
        }
        for value in ["4.1M", "100000", "200M", "4500k", "0.1M"] {
            let result = try storyreel(["plan", Self.stories, "--max-bitrate", value])
            #expect(result.status == 0, "\(value): \(result.stderr)")
        }
    }

    /// A size the bundle kept is named as kept when `--codec hevc` cannot take it (a QA pass:
    /// "got 14x14", a size that run was not given).
    @Test func anHEVCCanvasTheBundleKeptIsNamedAsKept() throws {
        let out = folder.path("kept")
        let first = try storyreel(["render", Self.stories, "-o", out, "--size", "14x24", "-q"])
        #expect(first.status == 0, "\(first.stderr)")
        let result = try storyreel(["render", Self.stories, "-o", out, "--codec", "hevc"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix(
                "storyreel: error: HEVC (x265) needs a canvas of at least 16x16, got 14x24; use --codec h264 or give "
                    + "--size WxH (--size 14x24 kept from the bundle's settings)"), "\(result.stderr)")
    }

    /// x265 opens no encoder under 16x16: `render --codec hevc --size 8x8` failed every
    /// transition, each at the encoder; it is refused before any work, as `cube` is.
    @Test func anHEVCCanvasUnder16IsRefusedBeforeAnyWork() throws {
        for line in [
            ["render", Self.stories, "-o", "OUT/bundle", "--codec", "hevc", "--size", "8x8"],
            ["plan", Self.stories, "--codec", "hevc", "--size", "14x640"],
        ] {
            let result = try storyreel(line)
            #expect(result.status == 64, "\(line): \(result.stderr)")
            #expect(result.stderr.contains("HEVC (x265) needs a canvas of at least 16x16, got "), "\(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "\(line)")
        }
    }

    /// From a cube QA pass: with a side under 32 pixels, x265 refuses a picture over 4216 on the
    /// other (no level allows the stream): `cube --codec hevc --size 8192x16` failed after the
    /// faces were decoded, 65, "Invalid data found". Refused before any work, 64; 4216x16 works.
    @Test func anHEVCCanvasX265RefusesIsRefusedBeforeAnyWork() throws {
        for line in [
            ["render", Self.stories, "-o", "OUT/bundle", "--codec", "hevc", "--size", "16x4218"],
            ["cube", Self.clip, Self.clip, "-o", "OUT/cube.mp4", "--codec", "hevc", "--size", "8192x16"],
        ] {
            let result = try storyreel(line)
            #expect(result.status == 64, "\(line): \(result.stderr)")
            #expect(
                result.stderr.contains("with a side under 32 pixels, the other may be at most 4216"), "\(result.stderr)"
            )
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "\(line)")
        }
        try FileManager.default.createDirectory(atPath: folder.path("OUT"), withIntermediateDirectories: true)
        let works = try storyreel(
            ["cube", Self.clip, Self.clip, "-o", "OUT/cube.mp4", "--codec", "hevc", "--size", "4216x16", "-q"])
        #expect(works.status == 0, "\(works.stderr)")
        // Without -o no clip is encoded, and the canvas is drawn (a re-check: it was refused).
        let framesOnly = try storyreel(
            [
                "cube", Self.clip, Self.clip, "--frames-dir", "OUT/frames", "--codec", "hevc", "--size", "8192x16",
                "--fps", "4",
            ])
        #expect(framesOnly.status == 0, "\(framesOnly.stderr)")
    }

    /// From a QA pass: `--codec h265` and `--codec x264` were told only the codecs' names. What
    /// other tools call them is refused as before (64, nothing written), naming the codec meant,
    /// by every command that takes `--codec`.
    @Test(arguments: [
        ["cube", clip, toClip, "-o", "OUT/cube.mp4"], ["render", stories, "-o", "OUT/bundle"], ["plan", stories],
        ["ingest", clip, "--story", "ana", "--into", "OUT/stories", "--create", "--render", "OUT/bundle"],
    ])
    func codecNamesFromOtherToolsNameTheCodecMeant(_ line: [String]) throws {
        let familiar = [
            ("h265", "hevc"), ("x265", "hevc"), ("hvc1", "hevc"), ("hevc1", "hevc"), ("H265", "hevc"),
            ("libx265", "hevc"), ("x264", "h264"), ("avc", "h264"), ("avc1", "h264"), ("h.264", "h264"),
        ]
        for (given, meant) in familiar {
            let result = try storyreel(line + ["--codec", given])
            #expect(result.status == 64, "\(line[0]) --codec \(given): \(result.stderr)")
            #expect(
                result.stderr.hasPrefix(
                    "storyreel: error: --codec must be one of h264, hevc, got '\(given)'; did you mean '\(meant)'?; "
                        + "usage: "), "\(line[0]) --codec \(given): \(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        }
        // A name that is no codec's gets no guess.
        let unknown = try storyreel(line + ["--codec", "vp9"])
        #expect(
            unknown.stderr.hasPrefix("storyreel: error: --codec must be one of h264, hevc, got 'vp9'; usage: "),
            "\(unknown.stderr)")
        // A slip of a name is named as an option's slip is (a re-check: `hecv` got no hint).
        let slip = try storyreel(line + ["--codec", "hecv"])
        #expect(
            slip.stderr.hasPrefix(
                "storyreel: error: --codec must be one of h264, hevc, got 'hecv'; did you mean 'hevc'?; usage: "),
            "\(slip.stderr)")
    }

    /// Every choice's slips are named: `cube --direction forwrd`, `render --size` aside.
    /// A refused sign, or a bit rate's `m` (which ffmpeg reads as milli), names the value meant;
    /// an exponent's sign is still read.
    @Test func aSignOrALowercaseMegaNamesTheValueMeant() throws {
        let cases: [(arguments: [String], meant: String)] = [
            (["thumbnail", Self.clip, "-o", "OUT/p.jpg", "--at", "+1"], "1"),
            (["thumbnail", Self.clip, "-o", "OUT/p.jpg", "--at", "+50%"], "50%"),
            (["inspect", Self.clip, "--timeout", "+5"], "5"),
            (["plan", Self.stories, "--size", "+360x640"], "360x640"),
            (["plan", Self.stories, "--max-bitrate", "4m"], "4M"),
            (["cube", Self.clip, Self.toClip, "-o", "OUT/c.mp4", "--max-bitrate", "2.5m"], "2.5M"),
            (["cube", Self.clip, Self.toClip, "-o", "OUT/c.mp4", "--max-bitrate", "+4m"], "4M"),
            (["render", Self.stories, "-o", "OUT/b", "--jobs", "+2"], "2"),
        ]
        for (arguments, meant) in cases {
            let result = try storyreel(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("; did you mean '\(meant)'?"), "\(arguments): \(result.stderr)")
        }
        // What no reading makes valid gets no guess.
        let huge = try storyreel(["plan", Self.stories, "--max-bitrate", "900m"])
        #expect(huge.status == 64 && !huge.stderr.contains("did you mean"), "\(huge.stderr)")
        let exponent = try storyreel(["inspect", Self.clip, "--timeout", "1e+3", "--jobs", "1"])
        #expect(exponent.status == 0, "\(exponent.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func aSlipOfAChoicesValueIsNamed() throws {
        let result = try storyreel(["cube", Self.clip, Self.toClip, "-o", "OUT/c.mp4", "--direction", "forwrd"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("got 'forwrd'; did you mean 'forward'?"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func theBoundsThemselvesAreAccepted() throws {
        let inspect = try storyreel(["inspect", Self.clip, "--timeout", "86400", "--jobs", "1024"])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let plan = try storyreel([
            "plan", Self.stories, "--json", "--jobs", "1", "--shard", "1024/1024", "--size", "8192x2",
            "--fps", "100", "--transition-duration", "10", "--timeout", "86400",
        ])
        #expect(plan.status == 0, "\(plan.stderr)")
        let poster = try storyreel([
            "thumbnail", Self.clip, "-o", "OUT/p.jpg", "--at", "1000000", "--width", "2", "--quality", "100",
        ])
        #expect(poster.status == 0, "\(poster.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("p.jpg")))
    }

    @Test func helpShowsEveryRangeFromTheDeclaration() throws {
        for command in Storyreel.commands {
            for option in command.options {
                guard let accepted = option.accepted else { continue }
                #expect(command.helpText.contains("Must be \(accepted)."), "\(command.name) --\(option.name)")
            }
        }
        let help = try TestEnvironment.storyreel(["render", "--help"])
        #expect(help.status == 0)
        // The option's own line, not the usage line, which names `[--fps FPS]` too.
        let fps = help.stdout.split(separator: "\n").first { $0.drop { $0 == " " }.hasPrefix("--fps FPS") }
        #expect(fps?.contains("Must be a number more than 0 and at most 240.") == true, "\(help.stdout)")
    }

    @Test func everyNumericOptionDeclaresARange() {
        let numeric: Set = [
            "timeout", "lock-timeout", "jobs", "fps", "transition-duration", "duration", "size", "width", "height",
            "quality", "crf", "perspective", "shade", "max-duration", "at", "shard", "max-bitrate",
        ]
        var seen = Set<String>()
        for command in Storyreel.commands {
            for option in command.options {
                if numeric.contains(option.name) {
                    #expect(option.accepted != nil, "\(command.name) --\(option.name) declares no range")
                    seen.insert(option.name)
                } else if let accepted = option.accepted {
                    #expect(
                        accepted.hasPrefix("one of "), "\(command.name) --\(option.name) is not numeric: \(accepted)")
                }
            }
        }
        #expect(seen == numeric)
    }
}
