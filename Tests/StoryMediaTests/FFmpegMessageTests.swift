import CFFmpeg
import Glibc
import Testing

@testable import StoryMedia

/// FFmpeg's error codes in storyreel's lines: FFmpeg's own text where it has one, and where it
/// has none (a decoder's own code: the AAC decoder's for a damaged frame), a line that says so
/// rather than FFmpeg's "Error number -50531338 occurred" (a QA pass).
@Suite struct FFmpegMessageTests {
    @Test func aKnownCodeIsFFmpegsTextAndAnUnknownOneSaysSo() {
        #expect(MediaError.ffmpegMessage(cff_error_invalid_data()) == "Invalid data found when processing input")
        #expect(MediaError.ffmpegMessage(-50_531_338) == "error -50531338, which FFmpeg has no text for")
        #expect(MediaError.ffmpegMessage(-Int32(ENOENT)) == "No such file or directory")
    }
}
