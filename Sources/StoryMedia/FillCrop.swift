/// How a stored picture fills a target size exactly, cropped before the scale: the whole
/// pixels around the part that shows (as CSS `object-fit: cover` shows it, centred), the size
/// to scale them to, and where the target sits in that scaled picture.
///
/// The scaler never makes the overflow: a landscape clip filling a portrait canvas scales about
/// a third of the pixels, and no intermediate picture can outgrow the ``PixelBudget`` (a
/// `--width 2 --height 8192` fill of a 4:3 clip used to need a 10923 × 8192 one). The crop is
/// cut on whole pixels, at offsets that keep subsampled colour sited on its luma; the fraction
/// of a pixel left over is cropped after the scale, so the kept part stays within half an output
/// pixel of the exact centre.
struct FillCrop: Equatable {
    /// Stored columns dropped on the left before the scale; a multiple of the chroma alignment.
    let left: Int
    /// Stored rows dropped at the top before the scale; a multiple of the chroma alignment.
    let top: Int
    /// Stored columns scaled.
    let width: Int
    /// Stored rows scaled.
    let height: Int
    /// Width the scaled columns get; at least the target's.
    let scaledWidth: Int
    /// Height the scaled rows get; at least the target's.
    let scaledHeight: Int
    /// Column of the scaled picture where the target starts.
    let keepLeft: Int
    /// Row of the scaled picture where the target starts.
    let keepTop: Int

    /// The fill of `targetWidth` × `targetHeight` square pixels by a `storedWidth` ×
    /// `storedHeight` picture whose pixels show `pixelAspect` times as wide as high, both in
    /// stored orientation. Crop offsets are rounded down to multiples of `alignment` (the
    /// chroma subsampling: 2 and 2 for 4:2:0).
    init(
        storedWidth: Int, storedHeight: Int, pixelAspect: Double, targetWidth: Int, targetHeight: Int,
        alignment: (horizontal: Int, vertical: Int)
    ) {
        let aspect = pixelAspect.isFinite && pixelAspect > 0 ? pixelAspect : 1
        let storedWidth = max(1, storedWidth)
        let storedHeight = max(1, storedHeight)
        // Output pixels per stored pixel, the same along both axes of the shown picture.
        let factor = max(
            Double(targetWidth) / (Double(storedWidth) * aspect), Double(targetHeight) / Double(storedHeight))
        let columns = FillCrop.axis(
            stored: storedWidth, target: targetWidth, perPixel: factor * aspect, alignment: alignment.horizontal)
        let rows = FillCrop.axis(
            stored: storedHeight, target: targetHeight, perPixel: factor, alignment: alignment.vertical)
        (left, width, scaledWidth, keepLeft) = columns
        (top, height, scaledHeight, keepTop) = rows
    }

    /// True when the whole picture is scaled.
    func scalesWhole(width storedWidth: Int, height storedHeight: Int) -> Bool {
        left == 0 && top == 0 && width == storedWidth && height == storedHeight
    }

    /// One axis: `stored` pixels, of which `target / perPixel` show, centred.
    private static func axis(
        stored: Int, target: Int, perPixel: Double, alignment: Int
    ) -> (offset: Int, count: Int, scaled: Int, keep: Int) {
        let shown = Double(target) / perPixel
        guard shown < Double(stored) - 1e-9, perPixel.isFinite, perPixel > 0 else {
            // This axis binds: all of it shows, scaled straight to the target.
            return (0, stored, target, 0)
        }
        let start = (Double(stored) - shown) / 2
        // Room for the scaler's filter (bicubic reaches 2 output pixels, so 2 / perPixel stored
        // pixels when shrinking) keeps the edges of the kept part as a scale of the whole gives.
        let margin = Int(saturating: (2 / min(1, perPixel)).rounded(.up)) + 1
        let step = max(1, alignment)
        // Of the few aligned offsets and ends near the margins, those that put the scaled pixels
        // on whole output pixels, where the ratio allows, so the kept part is exactly the
        // middle (320 columns shown at half size keep 100..<220 as scaling all of them does).
        func offGrid(_ pixels: Double) -> Double {
            let position = pixels * perPixel
            return abs(position - position.rounded())
        }
        let latestOffset = min(stored - 1, max(0, Int(saturating: start.rounded(.down)) - margin))
        let offset =
            stride(from: latestOffset - latestOffset % step, through: 0, by: -step).prefix(8)
            .min { offGrid(start - Double($0)) < offGrid(start - Double($1)) } ?? 0
        let earliestEnd = min(stored, max(offset + 1, Int(saturating: (start + shown).rounded(.up)) + margin))
        let end =
            stride(from: earliestEnd, through: stored, by: 1).lazy
            .filter { ($0 - offset) % step == 0 || $0 == stored }.prefix(8)
            .min { offGrid(Double($0 - offset)) < offGrid(Double($1 - offset)) } ?? stored
        let count = end - offset
        let scaled = max(target, Int(saturating: (Double(count) * perPixel).rounded()))
        let keep = min(scaled - target, max(0, Int(saturating: ((start - Double(offset)) * perPixel).rounded())))
        return (offset, count, scaled, keep)
    }
}
