import Testing

@testable import StoryMedia

/// A fill crops the part that shows (centred, as CSS `object-fit: cover` shows it) before the
/// scale, on whole pixels and chroma-aligned offsets, and keeps the target from the scaled part.
@Suite struct FillCropTests {
    @Test func aLandscapeClipFillingAPortraitCanvasScalesAThirdOfItsColumns() {
        let fill = FillCrop(
            storedWidth: 1920, storedHeight: 1080, pixelAspect: 1, targetWidth: 1080, targetHeight: 1920,
            alignment: (2, 2))
        // 1080 rows fill 1920, so 607.5 columns show, from 656.25: a few more are scaled, for the
        // filter's reach and to land the target on whole pixels.
        #expect(fill.top == 0 && fill.height == 1080 && fill.scaledHeight == 1920 && fill.keepTop == 0)
        #expect(fill.left % 2 == 0 && fill.left <= 656 && fill.left >= 640)
        #expect(fill.left + fill.width >= 1264 && fill.width < 640, "\(fill)")
        #expect(fill.scaledWidth >= 1080 && fill.scaledWidth < 1140)
        // The kept part starts within half an output pixel of the exact centre.
        let perPixel = 1920.0 / 1080
        let keptFrom = Double(fill.left) + Double(fill.keepLeft) / perPixel
        #expect(abs(keptFrom - 656.25) * perPixel <= 0.5, "\(keptFrom)")
    }

    @Test func aPictureOfTheTargetsShapeIsScaledWhole() {
        let fill = FillCrop(
            storedWidth: 540, storedHeight: 960, pixelAspect: 1, targetWidth: 1080, targetHeight: 1920,
            alignment: (2, 2))
        #expect(fill.scalesWhole(width: 540, height: 960))
        #expect(fill.scaledWidth == 1080 && fill.scaledHeight == 1920 && fill.keepLeft == 0 && fill.keepTop == 0)
    }

    @Test func wideSamplesShowNarrowerThanTheyAreStored() {
        // 2:1 pixels: 320x240 shows as 640x240, so a square fill keeps 120 stored columns.
        let fill = FillCrop(
            storedWidth: 320, storedHeight: 240, pixelAspect: 2, targetWidth: 240, targetHeight: 240,
            alignment: (2, 2))
        let perColumn = 2.0
        let keptFrom = Double(fill.left) + Double(fill.keepLeft) / perColumn
        #expect(abs(keptFrom - 100) * perColumn <= 0.5, "\(fill)")
        #expect(fill.height == 240 && fill.scaledHeight == 240)
    }

    @Test func whereTheRatioAllowsTheKeptPartIsExactlyTheMiddle() {
        // 320 columns shown at half size: 100..<220 are kept, as scaling all of them to 160 and
        // cropping 50..<110 keeps.
        let fill = FillCrop(
            storedWidth: 320, storedHeight: 120, pixelAspect: 1, targetWidth: 60, targetHeight: 60,
            alignment: (1, 1))
        #expect(Double(fill.left) + Double(fill.keepLeft) * 2 == 100, "\(fill)")
        #expect(Double(fill.width) / Double(fill.scaledWidth) == 2, "the scale is exactly one half")
    }

    @Test func degenerateSizesDoNotTrap() {
        let tiny = FillCrop(
            storedWidth: 2, storedHeight: 2, pixelAspect: .nan, targetWidth: 8192, targetHeight: 2,
            alignment: (2, 2))
        #expect(tiny.width >= 1 && tiny.height >= 1 && tiny.scaledWidth >= 8192 && tiny.scaledHeight >= 2)
        let zero = FillCrop(
            storedWidth: 0, storedHeight: 0, pixelAspect: 0, targetWidth: 64, targetHeight: 64, alignment: (0, 0))
        #expect(zero.width >= 1 && zero.height >= 1)
    }
}
