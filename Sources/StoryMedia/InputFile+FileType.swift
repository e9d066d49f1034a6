extension InputFile {
    /// What a clip's own `ftyp` atom says it is, read from its first bytes before FFmpeg opens
    /// it.
    public enum FileType: Sendable, Equatable {
        /// The `ftyp` atom opens the file, with this major brand (`isom`, `mp42`, `qt  `).
        case brand(String)
        /// The file has no `ftyp` atom: a QuickTime movie of before 2001 (`moov` or `wide` first).
        case none
        /// An `ftyp` atom is not first, or its brand is not text, or the file is no clip: FFmpeg's
        /// `major_brand` tag says what it found.
        case unknown
    }
}
