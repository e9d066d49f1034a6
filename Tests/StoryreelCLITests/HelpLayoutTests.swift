import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryreelCLI

/// From a review of the help: `--help` lines ran to 300 columns (cube's usage line, its
/// `--max-bitrate` description), which a terminal folded at its edge, through the option column.
/// On a terminal the help is wrapped to its width, every paragraph indented under itself; piped,
/// each paragraph stays one line, for grep.
@Suite struct HelpLayoutTests {
    /// Every help text of the tool, laid out by `layout`.
    static func helpTexts(_ layout: HelpLayout) -> [String] {
        Storyreel.commands.map { $0.layOutHelp(layout) } + [Storyreel.overview(layout)]
    }

    /// The lines of `text` before its examples, which are commands to copy whole.
    static func linesBeforeExamples(_ text: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return Array(lines.prefix { $0 != "EXAMPLES:" })
    }

    @Test(arguments: [40, 57, 80, 100, 132])
    func wrappedHelpFitsTheWidthAndKeepsEveryWord(width: Int) {
        let unwrapped = Self.helpTexts(HelpLayout(columns: nil))
        let wrapped = Self.helpTexts(HelpLayout(columns: width))
        for (plain, text) in zip(unwrapped, wrapped) {
            #expect(plain.split(whereSeparator: \.isWhitespace) == text.split(whereSeparator: \.isWhitespace))
            for line in Self.linesBeforeExamples(text) where line.count > width {
                // Only a word (or a usage line's `[…]` group) longer than the line may overflow it.
                let words = line.split(separator: " ")
                #expect(words.count == 1 || (line.contains("[") && words.first?.hasPrefix("[") == true), "\(line)")
            }
            let examples = text.split(separator: "\n").drop { $0 != "EXAMPLES:" }
            #expect(examples.elementsEqual(plain.split(separator: "\n").drop { $0 != "EXAMPLES:" }))
        }
    }

    @Test func descriptionsWrapUnderTheirColumnAndUsageGroupsStayWhole() throws {
        let text = CubeCommand.helpText(HelpLayout(columns: 80))
        let lines = Self.linesBeforeExamples(text)
        let options = try #require(lines.firstIndex(of: "OPTIONS:"))
        let first = lines[options + 1]
        let column = try #require(first.range(of: "Write the transition")).lowerBound
        let indent = first.distance(from: first.startIndex, to: column)
        for line in lines[(options + 1)...] where !line.isEmpty {
            let leading = line.prefix { $0 == " " }.count
            #expect(leading == 2 || leading == indent, "\(line)")
        }
        let usage = lines.drop { !$0.hasPrefix("USAGE:") }.prefix { !$0.isEmpty }
        #expect(usage.count > 1)
        for line in usage {
            let opened = line.filter { $0 == "[" }.count
            #expect(opened == line.filter { $0 == "]" }.count, "a group is split: \(line)")
            #expect(line.count <= 80)
        }
        #expect(usage.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 22) + "[") })
    }

    @Test func narrowTerminalsGetDescriptionsBelowTheirOptions() {
        let lines = Self.linesBeforeExamples(RenderCommand.helpText(HelpLayout(columns: 50)))
        let jobs = lines.firstIndex { $0.hasPrefix("  -j, --jobs N") }
        #expect(jobs.map { lines[$0] } == "  -j, --jobs N")
        #expect(jobs.map { lines[$0 + 1].hasPrefix("        Work units at once") } == true)
        #expect(lines.allSatisfy { $0.count <= 50 || !$0.dropFirst(8).contains(" ") })
    }

    /// The binary wraps to its terminal's width (a pseudo-terminal `script` opens, 72 columns)
    /// and leaves piped help unwrapped, one line per option.
    @Test func theBinaryWrapsOnATerminalOnly() throws {
        let piped = try TestEnvironment.storyreel(["cube", "--help"])
        #expect(piped.status == 0)
        #expect(piped.stdout.split(separator: "\n").contains { $0.count > 200 }, "piped help is not wrapped")
        let binary = TestEnvironment.storyreelBinary.replacingOccurrences(of: "'", with: "'\\''")
        let onTerminal = try TestEnvironment.run(
            "/usr/bin/script", ["-qec", "stty cols 72; '\(binary)' cube --help", "/dev/null"])
        #expect(onTerminal.status == 0, "\(onTerminal.stderr)")
        let text = onTerminal.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(text.split(whereSeparator: \.isWhitespace) == piped.stdout.split(whereSeparator: \.isWhitespace))
        let lines = Self.linesBeforeExamples(text)
        #expect(lines.count > 40)
        #expect(lines.allSatisfy { $0.count <= 72 }, "\(lines.filter { $0.count > 72 })")
    }
}
