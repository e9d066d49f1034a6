import Foundation

/// File-name ordering as Finder sorts: numeric-aware and case-insensitive, so `IMG_2.MOV`
/// comes before `img_10.mov`; spaces, punctuation and symbols before numbers, and numbers before
/// letters (`clip.mp4`, `clip1.mp4`, `clip2.mp4`; `_intro`, `9`, `ana`); a letter with an accent
/// among its base letter's (`ça.mp4` between `c` and `d`). From a QA pass: numbers came before
/// `.` and `_`, and accented letters after `z`. A number is written in decimal digits of any
/// script (`٣` is 3); digits that are not decimal (`²`, `①`, `½`) are no number, and come after
/// the numbers and before the letters (a later QA pass: `٣.mp4` played first, `²a.mp4` second).
/// Ties go to the unaccented name, then lowercase, then fewer leading zeros, then plain byte
/// order, so the order is total and the same on every machine.
public enum NaturalOrder {
    /// True when `a` sorts before `b`.
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let left = units(a)
        let right = units(b)
        for (x, y) in zip(left, right) where x.primary != y.primary { return x.primary < y.primary }
        if left.count != right.count { return left.count < right.count }
        for (x, y) in zip(left, right) where x.secondary != y.secondary { return x.secondary < y.secondary }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The index in `sorted` (names in this order) past every name that does not sort after
    /// `name`: where `name` goes in, and where the names that play after it start. A binary
    /// search, so that `ingest` of many clips in one call does not compare each with all.
    public static func insertionIndex(of name: String, in sorted: [String]) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if areInIncreasingOrder(name, sorted[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// What a name is compared by, a run of ASCII digits or a character at a time: first by
    /// ``Key``, the way Finder sees them, then by what tells equal keys apart.
    private struct Unit {
        /// Kind first (other characters, then numbers, then other digits, then letters), then the
        /// number's value or the character's base letter (lowercase, without its accents).
        var primary: Key
        /// Whether the letter has accents (none first), whether it is uppercase, which accents;
        /// or how many digits the number is written with.
        var secondary: Key
    }

    /// A comparable key: a kind, a count, and text compared scalar by scalar.
    private struct Key: Comparable {
        var kind: Int
        var count: Int
        var text: String

        static func < (a: Key, b: Key) -> Bool {
            if a.kind != b.kind { return a.kind < b.kind }
            if a.count != b.count { return a.count < b.count }
            return a.text.unicodeScalars.lexicographicallyPrecedes(b.text.unicodeScalars)
        }

        static func == (a: Key, b: Key) -> Bool {
            a.kind == b.kind && a.count == b.count && a.text.unicodeScalars.elementsEqual(b.text.unicodeScalars)
        }
    }

    /// `name` as it is compared: decimal digits of every script as ASCII's (full-width `１０` as
    /// `10`, Arabic-Indic `٣` as `3`), other characters that stand for digits as they are (`³`,
    /// `①`, `½`: ``units(_:)`` reads them), compatibility forms as what they stand for (`ﬁ` as
    /// `fi`), and the letters Finder takes for others (``letterFoldings``) as those. `ingest`
    /// reads a clip's sequence number from it, so that the number it counts is the one the order
    /// sees.
    public static func comparedForm(of name: String) -> String {
        guard !name.utf8.allSatisfy({ $0 < 0x80 }) else { return name }
        var form = String.UnicodeScalarView()
        var run = ""
        func endRun() {
            for character in run.decomposedStringWithCompatibilityMapping {
                form.append(contentsOf: (letterFoldings[character] ?? String(character)).unicodeScalars)
            }
            run = ""
        }
        for scalar in name.unicodeScalars {
            guard let kind = scalar.properties.numericType, isDigit(scalar) else {
                run.unicodeScalars.append(scalar)
                continue
            }
            endRun()
            if kind == .decimal, let value = scalar.properties.numericValue, let digit = Int(exactly: value) {
                form.append(contentsOf: String(digit).unicodeScalars)
            } else {
                form.append(scalar)
            }
        }
        endRun()
        return String(form)
    }

    /// The ASCII digit `character` is, with any marks on it (`2\u{301}`, the keycap `1\u{FE0F}\u{20E3}`):
    /// collation reads a digit under a mark as the digit (a re-check: `2\u{301}.mp4` played before
    /// `1.mp4`, where Foundation's order has it between `1` and `10`); nil for anything else.
    private static func digit(of character: Character) -> Character? {
        // ASCII without Unicode's tables (see ``units(_:)``).
        if let ascii = character.asciiValue { return (0x30...0x39).contains(ascii) ? character : nil }
        guard let first = character.unicodeScalars.first, first.isASCII, first.properties.numericType == .decimal,
            character.unicodeScalars.dropFirst().allSatisfy(isIgnorable)
        else { return nil }
        return Character(first)
    }

    /// True for what collation passes over: combining marks, and the code points Unicode says
    /// to ignore by default (a soft hyphen, a zero-width joiner, a variation selector).
    private static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: return scalar.properties.isDefaultIgnorableCodePoint
        }
    }

    /// True when `scalar` is a decimal digit of any script or stands for digits in another form
    /// (a superscript, a circled number, a fraction): its compatibility form has an ASCII digit.
    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.properties.numericType != nil else { return false }
        return scalar.properties.numericType == .decimal
            || String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars.contains {
                $0.isASCII && $0.properties.numericType == .decimal
            }
    }

    private static func units(_ name: String) -> [Unit] {
        let string = comparedForm(of: name)
        var result: [Unit] = []
        var index = string.startIndex
        while index < string.endIndex {
            let character = string[index]
            // Unicode's tables only off ASCII: nearly every name is ASCII, and a sort of 100,000
            // names looked them up for every character of every comparison (2.4 times the time).
            let isASCII = character.isASCII
            // What collation passes over (a lone combining mark, a soft hyphen, a joiner) is no
            // unit (a re-check: `a\u{AD}2` sorted apart from `a2`, where Foundation's order has them
            // together).
            if !isASCII, character.unicodeScalars.allSatisfy(isIgnorable) {
                index = string.index(after: index)
                continue
            }
            if digit(of: character) != nil {
                let end = string[index...].firstIndex { digit(of: $0) == nil } ?? string.endIndex
                let run = string[index..<end]
                // The marks on digits dropped (an ASCII run has none: taken as it is).
                let digits = run.utf8.allSatisfy { $0 < 0x80 } ? run : Substring(run.compactMap(digit(of:)))
                let value = String(digits.drop { $0 == "0" })
                result.append(
                    Unit(
                        primary: Key(kind: 1, count: value.count, text: value),
                        secondary: Key(kind: 0, count: digits.count, text: "")))
                index = end
                continue
            }
            // A digit that is not decimal (`²`, `①`, `½`) is no number: its compatibility form
            // is read, its digits as digits of their own kind, between numbers and letters.
            if !isASCII, let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                isDigit(scalar)
            {
                for part in String(scalar).decomposedStringWithCompatibilityMapping {
                    result.append(
                        part.isASCII && part.isNumber
                            ? Unit(
                                primary: Key(kind: 2, count: 0, text: String(part)),
                                secondary: Key(kind: 0, count: 0, text: ""))
                            : unit(of: part))
                }
            } else {
                result.append(unit(of: character))
            }
            index = string.index(after: index)
        }
        return result
    }

    /// ASCII's spaces, punctuation and symbols in the order Finder (ICU's root collation) puts
    /// them; others come after, by code point (a re-check: by code point, `(1)` came before
    /// `_intro` and `clip-1` before `clip.mp4` before `clip_1`).
    private static let symbolOrder = Array(" _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$".unicodeScalars)

    /// Letters that are no accented form of another (no decomposition) but sort as one or two
    /// letters, as Finder sorts them: `æble` before `af`, `Øre` among the `o`s, `straße` as
    /// `strasse` (a re-check: each sorted after `z`).
    private static let letterFoldings: [Character: String] = [
        "æ": "ae", "Æ": "ae", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ß": "ss", "ẞ": "ss",
        "œ": "oe", "Œ": "oe", "þ": "th", "Þ": "th", "ð": "d", "Ð": "d", "ı": "i",
    ]

    private static func unit(of character: Character) -> Unit {
        guard character.isLetter else {
            let scalar = character.unicodeScalars.first?.value ?? 0
            let place = character.unicodeScalars.first.flatMap { symbolOrder.firstIndex(of: $0) }
            return Unit(
                primary: Key(kind: 0, count: place ?? (symbolOrder.count + Int(scalar)), text: String(character)),
                secondary: Key(kind: 0, count: 0, text: ""))
        }
        let uppercase = character.isUppercase ? 1 : 0
        if character.isASCII {
            return Unit(
                primary: Key(kind: 3, count: 0, text: character.lowercased()),
                secondary: Key(kind: 0, count: uppercase, text: ""))
        }
        // The letter apart from its accents (the name is decomposed already: a letter is its base
        // and its combining marks).
        let isMark = { (scalar: Unicode.Scalar) in scalar.properties.canonicalCombiningClass.rawValue != 0 }
        // A joiner or a variation selector on the letter is passed over too (a re-check).
        let base = String(
            String.UnicodeScalarView(
                character.unicodeScalars.filter { !isMark($0) && !$0.properties.isDefaultIgnorableCodePoint })
        ).lowercased()
        let accents = String(String.UnicodeScalarView(character.unicodeScalars.filter(isMark)))
        return Unit(
            primary: Key(kind: 3, count: 0, text: base.isEmpty ? String(character).lowercased() : base),
            secondary: Key(kind: accents.isEmpty ? 0 : 1, count: uppercase, text: accents))
    }
}
