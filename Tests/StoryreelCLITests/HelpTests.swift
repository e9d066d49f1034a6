import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryreelCLI

/// Each command's help describes that command, and every example in it works as written, from
/// a folder holding a copy of `samples/`.
@Suite struct HelpTests {
    @Test func planHelpDescribesPlanNotRender() throws {
        let result = try TestEnvironment.storyreel(["plan", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: List the work units a render would run"), "\(result.stdout)")
        #expect(result.stdout.contains("USAGE: storyreel plan INPUT..."))
        for renderOnly in ["The bundle folder", "Render only part", "Copy clips into", "--prune", "--lock-timeout"] {
            #expect(!result.stdout.contains(renderOnly), "plan --help says '\(renderOnly)'")
        }
    }

    /// From a QA pass: render's, ingest's and plan's help showed `--crf … Default: 23` and the
    /// other settings' defaults, where a bundle keeps the settings a run was given and later runs
    /// use them. Each says so once, after the options; and render's `-q` named only the progress
    /// and the summary among what it drops, where it drops warnings and notes too, as ingest's.
    @Test func settingsHelpSaysABundleKeepsThemAndQuietSaysWhatItDrops() throws {
        let kept = [
            "render": "Settings given (--size through --no-player, and --copy, --link, --reference) are kept in the "
                + "bundle (OUT/.storyreel/settings.json) and used by later runs until given again; the defaults above "
                + "are a new bundle's.",
            "ingest": "Settings given with --render (--size through --no-player) are kept in the bundle "
                + "(OUT/.storyreel/settings.json) and used by later runs until given again; the defaults above are a "
                + "new bundle's.",
            "plan": "With --bundle OUT, the settings not given (--size through --no-player, and --copy, --link, "
                + "--reference) are the ones OUT kept from the runs that gave them; the defaults above are a new "
                + "bundle's.",
        ]
        for (command, note) in kept {
            let help = try TestEnvironment.storyreel([command, "--help"])
            #expect(help.status == 0, "\(help.stderr)")
            let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            // Once, between the options and the examples.
            #expect(lines.filter { $0 == "  " + note }.count == 1, "\(command): \(help.stdout)")
            let examples = lines.firstIndex(of: "EXAMPLES:") ?? lines.endIndex
            #expect(lines.firstIndex(of: "  " + note).map { $0 < examples && lines[$0 - 1].isEmpty } == true)
            #expect(help.stdout.components(separatedBy: "kept in the bundle").count <= 2, "\(command)")
        }
        for (command, quiet) in [
            ("render", "Print only errors (no progress, warnings, notes or summary)."),
            ("ingest", "Print only errors (no per-clip lines, warnings, notes or summary)."),
        ] {
            let help = try TestEnvironment.storyreel([command, "--help"])
            let line = help.stdout.split(separator: "\n").first { $0.hasPrefix("  -q, --quiet ") }
            #expect(line?.hasSuffix(quiet) == true, "\(command): \(line ?? "")")
        }
    }

    /// From the README QA pass: `storyreel` alone printed the 15-line overview after its error,
    /// where every other usage error is one line; and the overview did not say how to get the
    /// version.
    @Test func noCommandIsOneUsageLineAndTheOverviewNamesTheVersion() throws {
        let result = try TestEnvironment.storyreel([])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "storyreel: error: no command given; usage: storyreel <command> [options], where <command> is one "
                + "of inspect, thumbnail, cube, render, ingest, plan, validate (see 'storyreel --help')\n")
        let help = try TestEnvironment.storyreel(["--help"])
        #expect(help.stdout.contains("'storyreel --version' (or -v, or version) for the version"), "\(help.stdout)")
        // `--version extra` printed the version and exited 0, the extra ignored.
        let version = try TestEnvironment.storyreel(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("storyreel "))
        let extra = try TestEnvironment.storyreel(["version", "extra"])
        #expect(extra.status == 64 && extra.stdout.isEmpty)
        #expect(
            extra.stderr == "storyreel: error: version takes no arguments, got 'extra'; usage: storyreel --version\n")
        // From a QA pass: `help help` was "unknown command 'help'; did you mean 'help'?", and
        // `--verison` got no hint.
        for asked in ["help", "--help", "-h", "version", "--version"] {
            let overview = try TestEnvironment.storyreel(["help", asked])
            #expect(overview.status == 0 && overview.stdout == help.stdout, "help \(asked): \(overview.stderr)")
        }
        // `help render extra` printed render's help, the extra word ignored, where `version extra`
        // is refused.
        let helpExtra = try TestEnvironment.storyreel(["help", "render", "extra"])
        #expect(helpExtra.status == 64 && helpExtra.stdout.isEmpty)
        #expect(
            helpExtra.stderr
                == "storyreel: error: help takes one command, got 'extra' after 'render'; usage: storyreel help <command>\n"
        )
        let typo = try TestEnvironment.storyreel(["--verison"])
        #expect(typo.status == 64)
        #expect(
            typo.stderr
                == "storyreel: error: unknown option '--verison'; did you mean '--version'? "
                + "(see 'storyreel --help' for the commands)\n")
    }

    /// The example lines of `command`'s help, as a shell runs them.
    static func examples(_ command: CommandDescriptor) -> [String] {
        let lines = command.helpText.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "EXAMPLES:") else { return [] }
        return lines[(start + 1)...].map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// From a CLI QA pass: usage lines named values as the options do not (`render [--fps 30]`
    /// against `--fps FPS`, `[--timeout S]` against `--timeout SECONDS`, cube's `--fps N`). Each
    /// `[--name VALUE]` in a usage line says VALUE as the option's own line does.
    @Test func usageLinesNameValuesAsTheOptionsDo() {
        for command in Storyreel.commands {
            let pattern = /\[(--[a-z-]+) ([^\]\[ ]+)/
            for match in command.usage.matches(of: pattern) {
                let name = String(match.output.1.dropFirst(2))
                guard let option = command.options.first(where: { $0.name == name }) else { continue }
                #expect(option.valueName == String(match.output.2), "\(command.name) --\(name)")
            }
        }
    }

    @Test func everyCommandHasAnExampleStartingWithStoryreelAndItsName() {
        for command in Storyreel.commands {
            let examples = Self.examples(command)
            #expect(!examples.isEmpty, "\(command.name) has no example")
            for example in examples {
                #expect(example.hasPrefix("storyreel \(command.name) "), "\(command.name): \(example)")
                #expect(!example.contains("*.mov"), "\(example): on Linux *.mov does not match .MOV")
            }
        }
    }

    /// Runs every example of every command, in the order `storyreel --help` lists the commands
    /// (render's make the bundles validate's examples read), in one folder with a copy of
    /// `samples/`: each exits 0 (`bash -o pipefail`, so a failing storyreel before `| jq` counts).
    @Test func everyHelpExampleWorksAsWrittenOnTheSamples() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: TestEnvironment.samples.path, toPath: folder.path("samples"))
        let binaryFolder = (TestEnvironment.storyreelBinary as NSString).deletingLastPathComponent
        let path = binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        #expect((TestEnvironment.storyreelBinary as NSString).lastPathComponent == "storyreel")
        var ran = 0
        for command in Storyreel.commands {
            for example in Self.examples(command) {
                let result = try TestEnvironment.run(
                    "/bin/bash", ["-o", "pipefail", "-c", "PATH='\(path)'; \(example)"], in: folder.url)
                #expect(result.status == 0, "\(example)\n\(result.stderr)")
                ran += 1
            }
        }
        #expect(ran >= 14)
        let snapshot = FolderSnapshot(TestEnvironment.samples.path)
        #expect(FolderSnapshot(folder.path("samples")) == snapshot, "an example changed samples/")
        let thumb = try TestEnvironment.ffprobeVideoStream(folder.path("thumb.jpg"))
        #expect(thumb["width"] as? Int == 180, "thumbnail -o - > thumb.jpg wrote a 180 px JPEG")
    }

    /// From a QA pass: the exit codes were in six sections of the README and in no help. The
    /// overview lists every code storyreel exits with, a line each.
    @Test func theOverviewListsEveryExitCode() throws {
        let help = try TestEnvironment.storyreel(["--help"])
        #expect(help.status == 0)
        let section = try #require(help.stdout.components(separatedBy: "EXIT CODES (sysexits):\n").last)
        // SIGHUP's 129 too (a README QA pass: the README said help listed it).
        for code in ["0", "64", "65", "66", "70", "71", "73", "74", "75", "130, 143, 129"] {
            #expect(section.contains("\n  \(code) ") || section.hasPrefix("  \(code) "), "\(code): \(section)")
        }
    }
}
