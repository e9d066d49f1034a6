import Foundation

/// A container's `creation_time` as `inspect` reports it: an ISO 8601 date and time that can
/// exist, or none. FFmpeg writes the `mvhd` time as `2024-05-01T12:00:00.000000Z`, but a tag
/// written by hand (`-movflags use_metadata_tags`) is any text: `2099-13-45T99:99:99Z` was
/// passed on as it was (a QA pass).
enum CreationTime {
    /// `text` when it is `YYYY-MM-DDTHH:MM:SS`, with an optional fraction of a second, then `Z`
    /// or an offset `±HH:MM` (or `±HHMM`, given back as `±HH:MM`), naming a moment that exists
    /// (a 13th month, a 30 February, hour 24 do not); nil otherwise.
    static func validated(_ text: String?) -> String? {
        guard let text else { return nil }
        let scalars = Array(text.unicodeScalars)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from >= 0, from + count <= scalars.count else { return nil }
            let digits = scalars[from..<(from + count)]
            guard digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
            return digits.reduce(0) { $0 * 10 + Int($1.value - 48) }
        }
        func character(_ index: Int, _ expected: Unicode.Scalar) -> Bool {
            index < scalars.count && scalars[index] == expected
        }
        guard let year = number(0, 4), character(4, "-"), let month = number(5, 2), character(7, "-"),
            let day = number(8, 2), character(10, "T"), let hour = number(11, 2), character(13, ":"),
            let minute = number(14, 2), character(16, ":"), let second = number(17, 2)
        else { return nil }
        var index = 19
        var basicOffsetAt: Int?
        if character(index, ".") {
            index += 1
            let start = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            guard index > start else { return nil }
        }
        if character(index, "Z") {
            index += 1
        } else if character(index, "+") || character(index, "-") {
            // `+0200`, as Apple writes its tags (`com.apple.quicktime.creationdate`), is `+02:00`.
            let colon = character(index + 3, ":")
            guard let offsetHours = number(index + 1, 2), let offsetMinutes = number(index + (colon ? 4 : 3), 2),
                offsetHours < 24, offsetMinutes < 60
            else { return nil }
            if !colon {
                basicOffsetAt = index + 3
            }
            index += colon ? 6 : 5
        } else {
            return nil
        }
        guard index == scalars.count, (1...12).contains(month), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return nil }
        guard let basicOffsetAt else { return text }
        var written = String.UnicodeScalarView(scalars[..<basicOffsetAt])
        written.append(":")
        written.append(contentsOf: scalars[basicOffsetAt...])
        return String(written)
    }
}
