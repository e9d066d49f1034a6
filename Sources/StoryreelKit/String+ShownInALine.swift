extension String {
    /// The text cut to `limit` Unicode scalars, with `…` after a cut: a value a manifest
    /// controls, shown in an error line an app may put in an alert (a QA pass of the library: a
    /// 200 KB value made a 200 KB line).
    func cut(toScalars limit: Int = 80) -> String {
        unicodeScalars.count > limit ? String(String.UnicodeScalarView(unicodeScalars.prefix(limit))) + "…" : self
    }
}
