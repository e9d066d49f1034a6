/// A warning for a person that making one output gave (a transition over its peak, a still or a
/// face decoded past a damaged packet), kept in the ledger with the output so that a run which
/// finds the output current says it again (``BundleLedger/recordedWarnings(of:)``).
struct UnitWarning: Sendable, Equatable {
    /// The output, relative to the bundle.
    let output: String
    /// The whole line, which begins with the output (`transitions/….mp4: …`).
    let text: String
}
