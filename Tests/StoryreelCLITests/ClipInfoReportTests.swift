import Testing

@testable import StoryreelCLI

/// The human-readable block of `inspect`.
@Suite struct ClipInfoReportTests {
    /// A QA pass: `%.1f` showed Dolby Vision profile 8 with a compatibility id of 10 or more, and
    /// profile 5, as `8.0` and `5.0`: a compatibility id of 0 the file does not have. The JSON
    /// has the whole numbers `8` and `5`, and so does the block now.
    @Test func aDolbyVisionProfileWithoutACompatibilityIdShowsTheProfileAlone() {
        #expect(ClipInfoReport.dolbyVisionLabel(8) == "8")
        #expect(ClipInfoReport.dolbyVisionLabel(5) == "5")
        #expect(ClipInfoReport.dolbyVisionLabel(8.4) == "8.4")
        #expect(ClipInfoReport.dolbyVisionLabel(8.1) == "8.1")
        #expect(ClipInfoReport.dolbyVisionLabel(127) == "127")
    }
}
