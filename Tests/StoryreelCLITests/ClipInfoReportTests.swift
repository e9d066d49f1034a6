import Foundation
import StoryreelTestSupport
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

    /// From an inspect QA pass: 999,960 bytes read `1000.0 kB` and 5 GB `5000.0 MB`.
    @Test func aSizeStepsUpToTheUnitItRoundsTo() {
        #expect(ClipInfoReport.byteCount(999) == "999 bytes")
        #expect(ClipInfoReport.byteCount(1_000) == "1.0 kB")
        #expect(ClipInfoReport.byteCount(196_547) == "196.5 kB")
        #expect(ClipInfoReport.byteCount(999_960) == "1.0 MB")
        #expect(ClipInfoReport.byteCount(12_345_678) == "12.3 MB")
        #expect(ClipInfoReport.byteCount(5_000_000_000) == "5.0 GB")
    }

    /// From an inspect QA pass: a frame every 39 hours (a corrupt time table, whose edit list
    /// shows the first frame for 2 s) read `0.000 fps, constant (CFR)`.
    @Test func aFrameRateBelowAThousandthIsShownInSignificantDigits() {
        #expect(ClipInfoReport.frameRate(15360 / 2_147_483_647) == "7.15e-06 fps")
        #expect(ClipInfoReport.frameRate(0.5) == "0.500 fps")
        #expect(ClipInfoReport.frameRate(30_000 / 1001) == "29.970 fps")
    }

    /// From an inspect QA pass: an hour of a still picture at 107 b/s read `0 kb/s`, and the
    /// place ffmpeg and Android cameras write (the plain `location` tag) was in the JSON only.
    @Test func aLowBitRateAndAPlainLocationAreShown() throws {
        #expect(ClipInfoReport.bitRate(107) == "107 b/s")
        #expect(ClipInfoReport.bitRate(999) == "999 b/s")
        #expect(ClipInfoReport.bitRate(1_976_123) == "1976 kb/s")
        let folder = try TemporaryFolder()
        let clip = folder.path("placed.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=96x160:r=30:d=1", "-c:v", "libx264", "-preset", "ultrafast",
            "-metadata", "location=+48.8584+002.2945/", clip,
        ])
        let result = try TestEnvironment.storyreel(["inspect", clip])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  location      +48.8584+002.2945/\n"), "\(result.stdout)")
    }
}
