import Foundation

/// A container's `creation_time` as `inspect` reports it: an ISO 8601 date and time that can
/// exist, or none. FFmpeg writes the `mvhd` time as `2024-05-01T12:00:00.000000Z`, but a tag
/// written by hand (`-movflags use_metadata_tags`) is any text: `2099-13-45T99:99:99Z` was
/// passed on as it was (a QA pass).
public enum CreationTime {
    /// `text` when it is `YYYY-MM-DDTHH:MM:SS`, with an optional fraction of a second, then `Z`
    /// or an offset `±HH:MM` (or `±HHMM`, given back as `±HH:MM`), naming a moment that exists
    /// (a 13th month, a 30 February, hour 24, a leap second that was never added do not); nil
    /// otherwise. The date and time may be apart by a space, and the zone missing, as FFmpeg
    /// wrote the `mvhd` time before 2016 (`2012-05-01 12:00:00`), a time in UTC, as every `mvhd`
    /// time is and as MediaInfo reads them: given back as `2012-05-01T12:00:00Z` (a QA pass: they
    /// were null).
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
            let day = number(8, 2), character(10, "T") || character(10, " "), let hour = number(11, 2),
            character(13, ":"),
            let minute = number(14, 2), character(16, ":"), let second = number(17, 2)
        else { return nil }
        var index = 19
        var basicOffsetAt: Int?
        var offsetMinutesEast = 0
        var zoneless = false
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
            offsetMinutesEast = (character(index, "-") ? -1 : 1) * (offsetHours * 60 + offsetMinutes)
            index += colon ? 6 : 5
        } else if index == scalars.count {
            zoneless = true
        } else {
            return nil
        }
        guard index == scalars.count, (1...12).contains(month), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        guard dayExists(year: year, month: month, day: day) else { return nil }
        if second == 60 {
            // In UTC, the last second of a day the IERS added one to.
            let minutes =
                daysSinceEpoch(year: year, month: month, day: day) * 1440 + hour * 60 + minute
                - offsetMinutesEast
            let utcDay = floorDivision(minutes, 1440)
            guard minutes - utcDay * 1440 == 1439, leapSecondDays.contains(utcDay) else { return nil }
        }
        var written = String.UnicodeScalarView(scalars)
        if let basicOffsetAt {
            written = String.UnicodeScalarView(scalars[..<basicOffsetAt])
            written.append(":")
            written.append(contentsOf: scalars[basicOffsetAt...])
        }
        let separator = written.index(written.startIndex, offsetBy: 10)
        written.replaceSubrange(separator...separator, with: ["T"])
        if zoneless { written.append("Z") }
        return String(written)
    }

    /// True when `day` is a day of `month` (1...12) in `year` of the Gregorian calendar (no 30
    /// February, no 29 February in 2023).
    public static func dayExists(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month) else { return false }
        let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivision(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    private static func floorDivision(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// The days (since 1970-01-01, UTC) whose last minute had 61 seconds: every leap second the
    /// IERS has added, 1972 to 2016 (none since, and none announced).
    static let leapSecondDays: Set<Int> = Set(
        [
            (1972, 6, 30), (1972, 12, 31), (1973, 12, 31), (1974, 12, 31), (1975, 12, 31), (1976, 12, 31),
            (1977, 12, 31), (1978, 12, 31), (1979, 12, 31), (1981, 6, 30), (1982, 6, 30), (1983, 6, 30),
            (1985, 6, 30), (1987, 12, 31), (1989, 12, 31), (1990, 12, 31), (1992, 6, 30), (1993, 6, 30),
            (1994, 6, 30), (1995, 12, 31), (1997, 6, 30), (1998, 12, 31), (2005, 12, 31), (2008, 12, 31),
            (2012, 6, 30), (2015, 6, 30), (2016, 12, 31),
        ].map { daysSinceEpoch(year: $0.0, month: $0.1, day: $0.2) })
}
