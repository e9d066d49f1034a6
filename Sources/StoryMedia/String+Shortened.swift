extension String {
    /// This text as a message quotes it: whole up to `limit` characters, else its first `limit`
    /// characters and `…`. A value a file controls (a 1 MB key in a `story.json`, a 5 MB id in a
    /// manifest) then cannot make a line of a megabyte, and a cut is always marked (a QA pass: a
    /// long value was cut at 80 characters with nothing to say so). It is cut by Unicode scalars
    /// too, at most four a character on average: one character may hold any number of combining
    /// marks (a review: `a` and a million U+0301 made a 2 MB line), and such a one is cut inside.
    public func shortened(to limit: Int = 80) -> String {
        let limit = Swift.max(0, limit)
        var scalars = unicodeScalars.makeIterator()
        var kept = String.UnicodeScalarView()
        var count = 0
        while count < 4 * limit, let scalar = scalars.next() {
            kept.append(scalar)
            count += 1
        }
        let keptText = String(kept)
        let head = keptText.prefix(limit)
        if scalars.next() == nil, head.endIndex == keptText.endIndex { return self }
        return head + "…"
    }
}
