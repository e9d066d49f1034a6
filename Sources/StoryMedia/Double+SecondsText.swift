extension Double {
    /// Seconds as a person writes them in a message: `30`, `0.5`, `1000000`, `0.000001`, never in
    /// exponent form (`%g` printed `timed out after 1e-06 s` and `--max-duration 1e+06 s`, a QA
    /// pass), to the nanosecond; a value below that is given as `%g` does.
    public var secondsText: String {
        guard isFinite else { return "\(self)" }
        if self != 0 && abs(self) < 5e-10 { return String(format: "%g", self) }
        var text = String(format: "%.9f", self)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
