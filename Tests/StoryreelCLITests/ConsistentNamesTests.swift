import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryreelCLI

/// `-o` is `--output` in every command (`--out` a hidden alias), unknown names get the closest
/// known one, the version has its usual spellings, and a usage error leaves stdout empty.
@Suite struct ConsistentNamesTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    static let clip = TestEnvironment.sample("portrait-h264.mp4")
    static let stories = TestEnvironment.sample("stories")

    @Test func everyCommandWritingOneOutputNamesItDashOOutput() {
        for command in Storyreel.commands {
            guard let output = command.options.first(where: { $0.short == "o" }) else { continue }
            #expect(output.name == "output", "\(command.name): -o is --\(output.name)")
            #expect(output.aliases == ["out"], "\(command.name): --out is kept as an alias")
            #expect(!command.helpText.contains("--out "), "\(command.name): the alias is hidden")
        }
        #expect(
            Storyreel.commands.filter { $0.options.contains { $0.short == "o" } }.map(\.name) == [
                "thumbnail", "cube", "render",
            ])
    }

    /// Every option of a command is in its usage line (as `--name` or `-x`), but for render's
    /// settings options where the line says "render's settings options" (a docs audit: `plan`'s
    /// left out `--timeout` and `--copy|--link|--reference`); and plan's help says nothing it
    /// writes, as it writes nothing (its `--player` said "Write the player page").
    @Test func everyOptionIsInItsUsageLine() {
        let settings = Set(RenderCommand.settingsOptions.map(\.spec.name))
        for command in Storyreel.commands {
            for option in command.options where option.name != "help" {
                if settings.contains(option.name) && command.usage.contains("[render's settings options]") { continue }
                let named =
                    command.usage.contains("--\(option.name)")
                    || option.short.map { command.usage.contains("-\($0) ") } == true
                #expect(named, "\(command.name): --\(option.name) is not in '\(command.usage)'")
            }
        }
        let plan = PlanCommand.helpText.split(separator: "\n").filter { $0.hasPrefix("  --") }
        #expect(!plan.isEmpty && !plan.contains { $0.contains(" Write") || $0.contains("remove the") }, "\(plan)")
    }

    @Test func outputAndTheHiddenOutAliasBothWork() throws {
        let long = try TestEnvironment.storyreel(["thumbnail", Self.clip, "--output", folder.path("a.jpg")])
        #expect(long.status == 0, "\(long.stderr)")
        let alias = try TestEnvironment.storyreel(["thumbnail", Self.clip, "--out=\(folder.path("b.png"))"])
        #expect(alias.status == 0, "\(alias.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("a.jpg")))
        #expect(FileManager.default.fileExists(atPath: folder.path("b.png")))
    }

    @Test func anUnknownOptionGetsTheClosestNameWithinTheCommandAndAcross() throws {
        let render = try TestEnvironment.storyreel(["render", Self.stories, "-o", folder.path("r"), "--duration", "1"])
        #expect(render.status == 64)
        #expect(render.stdout.isEmpty)
        #expect(
            render.stderr.hasPrefix(
                "storyreel: error: unknown option '--duration'; did you mean '--transition-duration'? "
                    + "('--duration' is an option of cube); usage: storyreel render INPUT -o OUT [options] "
                    + "(see 'storyreel render --help')\n"), "\(render.stderr)")
        let typo = try TestEnvironment.storyreel(["inspect", Self.clip, "--jsno"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("unknown option '--jsno'; did you mean '--json'?"), "\(typo.stderr)")
        let elsewhere = try TestEnvironment.storyreel(["inspect", Self.clip, "--shard", "1/2"])
        #expect(elsewhere.stderr.contains("'--shard' is an option of render, plan"), "\(elsewhere.stderr)")
        // A short name is looked up across commands too (it had no hint).
        let short = try TestEnvironment.storyreel(["inspect", "-o", "x", Self.clip])
        #expect(short.status == 64)
        #expect(
            short.stderr.contains("unknown option '-o' ('-o' is an option of thumbnail, cube, render"),
            "\(short.stderr)")
        // Another command's hidden alias is that command's (a CLI QA pass: `inspect --out` was
        // pointed to thumbnail's `--at`).
        let alias = try TestEnvironment.storyreel(["inspect", Self.clip, "--out", "x"])
        #expect(
            alias.stderr.contains("unknown option '--out' ('--out' is an option of thumbnail, cube, render)"),
            "\(alias.stderr)")
        // A short name is never offered as a long one (a QA pass: `--zz` was pointed to `--j`).
        let stray = try TestEnvironment.storyreel(["render", Self.stories, "-o", folder.path("r"), "--zz"])
        #expect(stray.status == 64)
        #expect(stray.stderr.hasPrefix("storyreel: error: unknown option '--zz'; usage:"), "\(stray.stderr)")
        let doubled = try TestEnvironment.storyreel(["render", Self.stories, "-o", folder.path("r"), "--q"])
        #expect(doubled.stderr.contains("unknown option '--q'; did you mean '-q'?"), "\(doubled.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("r")))
    }

    /// From a QA pass: ingest's slips were pointed elsewhere: `--handle` to plan's `--bundle`,
    /// `--stories` to `--story` (the stories folder is `--into`), `-o` to the `-o` of thumbnail,
    /// cube and render (ingest's bundle is `--render OUT`). Each names ingest's own option.
    @Test(arguments: [
        (["--handle", "ana"], "--handle", "--story"), (["--user", "ana"], "--user", "--story"),
        (["--stories", "st3"], "--stories", "--into"), (["--to", "st3"], "--to", "--into"),
        (["-o", "reel"], "-o", "--render"), (["--output", "reel"], "--output", "--render"),
        (["--out=reel"], "--out", "--render"), (["-oreel"], "-oreel", "--render"),
    ])
    func ingestsSlipsNameIngestsOwnOptions(slip: [String], typed: String, meant: String) throws {
        let result = try TestEnvironment.storyreel(
            ["ingest", Self.clip, "--story", "ana", "--into", folder.path("st")] + slip, in: folder.url)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix("storyreel: error: unknown option '\(typed)'; did you mean '\(meant)'?; usage: "),
            "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    /// `plan -o OUT`, as render is given its bundle: plan's `--bundle` (a re-check: it was
    /// pointed to the `-o` of thumbnail, cube and render).
    @Test(arguments: ["-o", "--output", "--out"])
    func plansOutputSlipNamesBundle(_ typed: String) throws {
        let result = try TestEnvironment.storyreel(["plan", Self.stories, typed, folder.path("reel")])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix("storyreel: error: unknown option '\(typed)'; did you mean '--bundle'?; usage: "),
            "\(result.stderr)")
    }

    @Test func anUnknownCommandGetsTheClosestCommand() throws {
        let result = try TestEnvironment.storyreel(["thumbnails", Self.clip])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "storyreel: error: unknown command 'thumbnails'; did you mean 'thumbnail'? "
                + "(see 'storyreel --help' for the commands)\n")
        let option = try TestEnvironment.storyreel(["--json", Self.clip])
        #expect(option.status == 64)
        #expect(option.stderr.contains("options go after the command ('--json' is an option of inspect"))
        // One dash, ffmpeg's way: named as it is spelled after the command (a QA pass: it said
        // '-json' is an option, which after the command is a second usage error).
        for (given, spelled) in [("-json", "--json"), ("-output", "--output"), ("--o", "-o")] {
            let single = try TestEnvironment.storyreel([given, "inspect", Self.clip])
            #expect(single.status == 64)
            #expect(
                single.stderr.contains("options go after the command ('\(spelled)' is an option of "),
                "\(single.stderr)")
        }
        let help = try TestEnvironment.storyreel(["help", "valdate"])
        #expect(help.status == 64)
        #expect(help.stderr.contains("did you mean 'validate'?"), "\(help.stderr)")
    }

    @Test(arguments: [["-v"], ["--version"], ["version"]])
    func theVersionHasItsUsualSpellings(_ arguments: [String]) throws {
        let result = try TestEnvironment.storyreel(arguments)
        #expect(result.status == 0)
        #expect(result.stdout == "\(Storyreel.versionLine)\n")
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: [
        [], ["render"], ["render", "samples/stories"], ["cube", "a.mov"], ["thumbnail", "x.mov", "--quality", "0"],
        ["inspect"], ["validate"], ["plan", "--fps"], ["ingest", "x.mov", "--story", "a"],
    ])
    func aUsageErrorWritesTheUsageToStderrAndNothingToStdout(_ arguments: [String]) throws {
        let result = try TestEnvironment.storyreel(arguments, in: folder.url)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty, "\(arguments) printed \(result.stdout)")
        #expect(result.stderr.hasPrefix("storyreel: error: "), "\(result.stderr)")
        // One line: the error, the command's synopsis (or the commands) and where the help is.
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments): \(result.stderr)")
        guard let command = arguments.first else {
            #expect(result.stderr.contains("; usage: storyreel <command> [options], where <command> is one of "))
            return
        }
        #expect(result.stderr.contains("; usage: storyreel \(command) "), "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasSuffix("(see 'storyreel \(command) --help')\n"), "\(result.stderr)")
    }
}
