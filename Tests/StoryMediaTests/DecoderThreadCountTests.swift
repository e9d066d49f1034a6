import CFFmpeg
import Foundation
import Testing

@testable import StoryMedia

/// Frame threads each decode a picture of their own: an audit's 8192x8192 H.264 clip took
/// 2.8 GB on two cores (0.2 GB on one), and 16-bit RGBA PNG frames of that size 2.1 GB. Threads
/// are cut to what ``Decoder/inFlightPictureBytes`` holds of the stream's pictures.
@Suite struct DecoderThreadCountTests {
    @Test func largePicturesGetFewerFrameThreads() {
        let cores = min(16, ProcessInfo.processInfo.activeProcessorCount + 1)
        func threads(_ asked: Int, _ width: Int, _ height: Int, _ format: AVPixelFormat?) -> Int {
            Decoder.threadCount(asked: asked, width: width, height: height, format: format?.rawValue ?? -1)
        }
        // A story's picture keeps the automatic count, and a count asked for.
        #expect(threads(0, 1080, 1920, AV_PIX_FMT_YUV420P) == 0)
        #expect(threads(1, 1080, 1920, AV_PIX_FMT_YUV420P) == 1)
        // 3840x2160 in 10 bits: 25 MB a picture, five threads (or the automatic count, if fewer).
        #expect(threads(0, 3840, 2160, AV_PIX_FMT_YUV420P10LE) == (cores > 5 ? 5 : 0))
        #expect(threads(8, 3840, 2160, AV_PIX_FMT_YUV420P10LE) == 5)
        // 8192x8192: 100 MB a picture in 4:2:0, 512 MB in 16-bit RGBA, 8 bytes a pixel unknown.
        #expect(threads(0, 8192, 8192, AV_PIX_FMT_YUV420P) == 1)
        #expect(threads(0, 8192, 8192, AV_PIX_FMT_RGBA64BE) == 1)
        #expect(threads(0, 8192, 8192, nil) == 1)
        #expect(threads(0, 0, 0, nil) == 0, "a size the stream does not give: the automatic count")
    }
}
