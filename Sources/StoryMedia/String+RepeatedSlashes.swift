extension String {
    /// This path with each run of slashes made one (`rsl//manifest.json` → `rsl/manifest.json`,
    /// `a//` → `a/`): the same file on Linux, printed as a person would write it (a CLI QA pass:
    /// `render -o rsl//` reported `rsl//manifest.json`).
    public var collapsingRepeatedSlashes: String {
        guard contains("//") else { return self }
        var result = ""
        for character in self where !(character == "/" && result.hasSuffix("/")) { result.append(character) }
        return result
    }
}
