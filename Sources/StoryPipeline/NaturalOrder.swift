/// File-name ordering as Finder sorts: numeric-aware and case-insensitive, so `IMG_2.MOV`
/// comes before `img_10.mov`. Ties fall back to plain byte order, so the order is total and
/// the same on every machine.
public enum NaturalOrder {
    /// True when `a` sorts before `b`.
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let left = chunks(a)
        let right = chunks(b)
        for (x, y) in zip(left, right) where x != y {
            switch (x, y) {
            case (.number(let m), .number(let n)):
                let m = m.drop { $0 == "0" }
                let n = n.drop { $0 == "0" }
                if m.count != n.count { return m.count < n.count }
                if m != n { return m < n }
            case (.number, .text): return true
            case (.text, .number): return false
            case (.text(let s), .text(let t)):
                if s.lowercased() != t.lowercased() { return s.lowercased() < t.lowercased() }
            }
        }
        if left.count != right.count { return left.count < right.count }
        return a < b
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

    private enum Chunk: Equatable {
        case number(Substring)
        case text(Substring)
    }

    private static func chunks(_ string: String) -> [Chunk] {
        var result: [Chunk] = []
        var start = string.startIndex
        while start < string.endIndex {
            let isDigit = string[start].isASCII && string[start].isNumber
            let end = string[start...].firstIndex { ($0.isASCII && $0.isNumber) != isDigit } ?? string.endIndex
            result.append(isDigit ? .number(string[start..<end]) : .text(string[start..<end]))
            start = end
        }
        return result
    }
}
