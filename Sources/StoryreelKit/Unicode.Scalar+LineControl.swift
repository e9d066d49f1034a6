extension Unicode.Scalar {
    /// True for a character that can end a line or steer how a terminal shows the rest of it: a
    /// C0 or C1 control character (a newline, a tab, an escape), DEL, the line and paragraph
    /// separators U+2028 and U+2029, and the bidirectional marks, embeddings, overrides and
    /// isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which reorder what
    /// follows them (a name with U+202E shows `clip‮gpj.mp4` as `clip4pm.jpg`).
    package var isLineOrDisplayControl: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || value == 0x061C || value == 0x200E || value == 0x200F
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
