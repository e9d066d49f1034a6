import StoryMedia
import Testing

/// Requested sizes resolve as ffmpeg's `scale=W:-2` does, and `fill` covers then crops.
@Suite struct FrameSizeTests {
    @Test func widthKeepsTheAspectRatioRoundedToEven() {
        #expect(FrameSize.width(360).outputSize(displayWidth: 720, displayHeight: 1280) == (360, 640))
        // 361 × 1920 / 1080 = 641.8 → 642; 100 × 1920 / 1080 = 177.8 → 178; 99 × 1280 / 720 = 176.
        #expect(FrameSize.width(361).outputSize(displayWidth: 1080, displayHeight: 1920) == (361, 642))
        #expect(FrameSize.width(100).outputSize(displayWidth: 1080, displayHeight: 1920) == (100, 178))
        #expect(FrameSize.width(99).outputSize(displayWidth: 720, displayHeight: 1280) == (99, 176))
        #expect(FrameSize.width(1).outputSize(displayWidth: 1000, displayHeight: 10) == (1, 2), "never below 2")
    }

    @Test func heightKeepsTheAspectRatioRoundedToEven() {
        #expect(FrameSize.height(640).outputSize(displayWidth: 720, displayHeight: 1280) == (360, 640))
        #expect(FrameSize.height(321).outputSize(displayWidth: 720, displayHeight: 1280) == (180, 321))
    }

    @Test func fillCoversThenCrops() {
        let square = FrameSize.fill(width: 300, height: 300)
        #expect(square.outputSize(displayWidth: 720, displayHeight: 1280) == (300, 300))
        #expect(square.scaledSize(displayWidth: 720, displayHeight: 1280) == (300, 533))
        #expect(
            FrameSize.fill(width: 400, height: 100).scaledSize(displayWidth: 720, displayHeight: 1280) == (400, 711))
        #expect(FrameSize.original.scaledSize(displayWidth: 720, displayHeight: 1280) == (720, 1280))
    }

    @Test func invalidSizesAreFlagged() {
        #expect(!FrameSize.width(0).isValid)
        #expect(!FrameSize.fill(width: 10, height: -1).isValid)
        #expect(FrameSize.original.isValid && FrameSize.height(2).isValid)
    }
}
