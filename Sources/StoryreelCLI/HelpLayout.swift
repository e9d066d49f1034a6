import Glibc
import StoryMedia

/// How `--help` text is laid out: wrapped at spaces to a terminal's width, as
/// swift-argument-parser and git do, or one line per paragraph when stdout is not a terminal, so
/// `storyreel render --help | grep fps` finds an option's whole line.
///
/// A wrapped paragraph keeps its first line's start and indents the rest under its text: an
/// option's description under the descriptions' column, a usage line under the command's
/// arguments, where `[--fps FPS]` is never split. Examples are never wrapped: each is a command
/// to copy whole.
struct HelpLayout: Sendable {
    /// The columns to fit, or nil to leave every paragraph on one line.
    let width: Int?

    /// The fewest columns wrapped to: a narrower terminal gets lines that overflow it rather than
    /// a column of single words.
    static let narrowest = 40
    /// The fewest columns a description keeps beside the option column; with fewer, each
    /// description goes on the lines below its option, indented by ``indentBelow``.
    static let narrowestDescription = 30
    /// The indent of a description written below its option.
    static let indentBelow = 8

    /// Lays out for `columns` (nil: unwrapped), never narrower than ``narrowest``.
    init(columns: Int?) {
        width = columns.map { max($0, Self.narrowest) }
    }

    /// The layout for this process's stdout: its terminal's width, or unwrapped when stdout is a
    /// pipe or a file.
    static var standardOutput: HelpLayout {
        guard isatty(STDOUT_FILENO) == 1 else { return HelpLayout(columns: nil) }
        return HelpLayout(columns: Terminal.columns(of: STDOUT_FILENO) ?? 80)
    }

    /// `prefix` (a label such as `OVERVIEW: `, or an option's padded term) as it is, then
    /// `text` broken at spaces into lines of at most ``width`` columns, each after the first
    /// indented by `indent`. With `keepingBracketsWhole`, a `[…]` or `(…)` group is never broken
    /// (a usage line). A word longer than a line is left whole.
    func lines(_ prefix: String, _ text: String, indent: Int, keepingBracketsWhole: Bool = false) -> [String] {
        guard let width, prefix.count + text.count > width else { return [prefix + text] }
        let words = keepingBracketsWhole ? Self.bracketGroups(text) : text.split(separator: " ").map(String.init)
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = prefix
        var lineIsEmpty = true
        for word in words {
            if lineIsEmpty {
                line += word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = margin + word
            }
            lineIsEmpty = false
        }
        lines.append(line)
        return lines
    }

    /// Two columns: each row's term padded to the longest, then its description wrapped under
    /// the descriptions' column; when the terms leave fewer than ``narrowestDescription``
    /// columns, each description goes below its term.
    func table(_ rows: [(term: String, description: String)]) -> [String] {
        let termWidth = rows.map(\.term.count).max() ?? 0
        let column = 2 + termWidth + 2
        if let width, width - column < Self.narrowestDescription {
            return rows.flatMap { row in
                let below = String(repeating: " ", count: Self.indentBelow)
                return ["  " + row.term] + lines(below, row.description, indent: Self.indentBelow)
            }
        }
        return rows.flatMap { row in
            let term = "  " + row.term.padding(toLength: termWidth, withPad: " ", startingAt: 0) + "  "
            return lines(term, row.description, indent: column)
        }
    }

    /// `text`'s words, a bracketed group's words joined into one.
    private static func bracketGroups(_ text: String) -> [String] {
        var groups: [String] = []
        var depth = 0
        for word in text.split(separator: " ") {
            if depth > 0, let last = groups.popLast() {
                groups.append(last + " " + word)
            } else {
                groups.append(String(word))
            }
            for character in word {
                if character == "[" || character == "(" { depth += 1 }
                if character == "]" || character == ")" { depth = max(depth - 1, 0) }
            }
        }
        return groups
    }
}
