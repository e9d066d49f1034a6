extension String {
    /// The text on one line: each character that could end a line or steer how a terminal shows
    /// the rest (``Swift/Unicode/Scalar/isLineOrDisplayControl``) written as an escape (`\n`,
    /// `\t`, `\u{1B}`, `\u{202E}`), so a name or a value quoted in a message cannot end it or
    /// fake another line.
    package var escapingLineControls: String {
        guard unicodeScalars.contains(where: \.isLineOrDisplayControl) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            case _ where scalar.isLineOrDisplayControl:
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
