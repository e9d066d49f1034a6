import StoryMedia
import Testing

/// Seconds in messages as a person writes them (a QA pass: `timed out after 1e-06 s`).
@Suite struct SecondsTextTests {
    @Test func secondsAreWrittenOutNeverInExponentForm() {
        #expect(30.0.secondsText == "30")
        #expect(0.5.secondsText == "0.5")
        #expect(1.5.secondsText == "1.5")
        #expect(0.000001.secondsText == "0.000001")
        #expect(1e-9.secondsText == "0.000000001")
        #expect(1_000_000.0.secondsText == "1000000")
        #expect(86400.0.secondsText == "86400")
        #expect(0.0.secondsText == "0")
        #expect((-0.0).secondsText == "0")
        #expect(1e-12.secondsText == "1e-12")
        #expect(Double.infinity.secondsText == "inf")
    }
}
