/// The known name closest to a mistyped one, for "did you mean" hints: option and command names
/// on the command line, keys in `story.json` and specs.
public enum NameSuggestion {
    /// The name in `names` that `typed` most likely meant: the same letters ignoring case, `_`
    /// and `-` (`is_read` → `isRead`), else the nearest by edit distance, at most a third of
    /// `typed`'s length (or 2) away and fewer edits than it has letters past its leading dashes
    /// (`--zz` is not a slip of `--at`: a QA pass); nil when none is that close.
    public static func closest(to typed: String, among names: [String]) -> String? {
        // No name is that long, and the edit distance's table grows with it (a QA pass: a 1 MB
        // key in a `story.json` took seconds to be told it is unknown).
        guard typed.utf8.count <= Self.longestTyped else { return nil }
        let folded = fold(typed)
        if let same = names.first(where: { fold($0) == folded && $0 != typed }) { return same }
        let distance = { (name: String) in editDistance(name, typed) }
        let letters = typed.drop { $0 == "-" }.count
        guard let best = names.min(by: { distance($0) < distance($1) }),
            distance(best) <= max(2, typed.count / 3), distance(best) < letters
        else { return nil }
        return best
    }

    /// The longest typed name that gets a suggestion, in bytes.
    static let longestTyped = 128

    /// Edit distance between two strings: insertions, deletions, substitutions and swaps of two
    /// neighbouring characters each count 1 (the optimal string alignment distance), so
    /// `--widht` is one edit from `--width`, as a typing slip is.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
                if i > 0, j > 0, left == b[j - 1], a[i - 1] == right {
                    current[j + 1] = min(current[j + 1], beforePrevious[j - 1] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }

    private static func fold(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "_" && $0 != "-" })
    }
}
