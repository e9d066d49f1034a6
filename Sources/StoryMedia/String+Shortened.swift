extension String {
    /// This text as a message quotes it: whole up to `limit` characters, else its first `limit`
    /// characters and `…`. A value a file controls (a 1 MB key in a `story.json`, a 5 MB id in a
    /// manifest) then cannot make a line of a megabyte, and a cut is always marked (a QA pass: a
    /// long value was cut at 80 characters with nothing to say so).
    public func shortened(to limit: Int = 80) -> String {
        let head = prefix(max(0, limit))
        return head.endIndex == endIndex ? self : head + "…"
    }
}
