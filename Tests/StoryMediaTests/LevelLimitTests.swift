import StoryMedia
import Testing

/// From a QA pass: `cube --size 8192x8192 -o` made H.264 tagged level 6.2 with nearly twice the
/// largest picture level 6.2 allows, which a phone's hardware decoder may refuse, in silence.
/// Such a clip now comes with a warning.
@Suite struct LevelLimitTests {
    @Test func thePictureLevel62HoldsHasNoWarning() {
        #expect(LevelLimit.warning(width: 8192, height: 4352) == nil)
        #expect(LevelLimit.warning(width: 4096, height: 4096) == nil)
        #expect(LevelLimit.warning(width: 1080, height: 1920) == nil)
        // 5904 = 369 macroblocks a side: 136,161.
        #expect(LevelLimit.warning(width: 5904, height: 5904) == nil)
    }

    @Test func aLargerPictureHasOneCountedInMacroblocks() {
        // 8192x4354 rounds up to 273 rows of macroblocks: 139,776.
        #expect(LevelLimit.warning(width: 8192, height: 4354) != nil)
        #expect(LevelLimit.warning(width: 6000, height: 6000) != nil)
        #expect(
            LevelLimit.warning(width: 8192, height: 8192)
                == "a 8192x8192 clip is over the largest picture of any H.264 or HEVC level (139,264 blocks of "
                + "16x16 pixels, such as 8192x4352): players that decode in hardware (phones) may refuse it; give a "
                + "smaller --size")
        #expect(LevelLimit.warning(width: .max, height: .max) != nil, "no overflow trap")
    }
}
