/// What the poster pick knows about a candidate frame: its luma mean and spread and a colour
/// histogram, measured on a small downscaled copy (its look at thumbnail size), and the spread
/// of its single pixels (its texture, which the small copy averages away).
public struct FrameStatistics: Sendable, Equatable {
    /// Bins per colour channel in ``histogram``.
    public static let binsPerChannel = 16

    /// Mean luma, 0...255 (full range, BT.601 weights).
    public var lumaMean: Double
    /// Standard deviation of luma, 0...255.
    public var lumaDeviation: Double
    /// The spread of luma over single pixels of the full picture, 0...255: 1.4826 times their
    /// median absolute deviation from their median (for normally distributed values, their
    /// standard deviation). It is high when a texture covers most of the picture (grain, foliage,
    /// a page of small text), which a downscaled copy averages to a flat grey, and stays low when
    /// the detail is a small part of it (a status bar on a blank screen).
    public var pixelSpread: Double
    /// Red, green and blue histograms one after the other, each ``binsPerChannel`` bins summing
    /// to 1.
    public var histogram: [Double]

    /// Below this mean luma a frame counts as near-black (a fade-in, a lens cap).
    public static let darkLumaLimit = 24.0
    /// Above this mean luma a frame counts as near-white (a flash, an overexposed start), unless
    /// its luma deviation reaches ``brightDetailLimit``.
    public static let brightLumaLimit = 232.0
    /// From this luma deviation, a frame of near-white mean has detail on its white and counts
    /// (a light-mode screen recording: a white settings page with a title and a coloured bar has
    /// a mean of 241 and a deviation of 49, where a flash or a fade from white has little).
    public static let brightDetailLimit = 24.0
    /// Below this luma deviation, with a pixel spread below it too, a frame counts as flat (a
    /// title card of one colour, a grey placeholder, a blur).
    public static let flatDeviationLimit = 10.0

    /// Makes statistics from their parts.
    public init(lumaMean: Double, lumaDeviation: Double, pixelSpread: Double = 0, histogram: [Double]) {
        self.lumaMean = lumaMean
        self.lumaDeviation = lumaDeviation
        self.pixelSpread = pixelSpread
        self.histogram = histogram
    }

    /// Measures a frame from two small RGBA copies of it (a few thousand pixels each): everything
    /// but the pixel spread from `downscaled`, an area-averaged copy; the pixel spread from
    /// `pixelSamples`, single pixels picked from the full picture (nearest-neighbour scaling).
    public init(downscaled image: RGBAImageBuffer, pixelSamples: RGBAImageBuffer) {
        let bins = FrameStatistics.binsPerChannel
        var counts = [Int](repeating: 0, count: 3 * bins)
        var sum = 0
        var sumOfSquares = 0
        let pixelCount = image.width * image.height
        image.pixels.withUnsafeBufferPointer { pixels in
            for pixel in 0..<pixelCount {
                let red = Int(pixels[pixel * 4])
                let green = Int(pixels[pixel * 4 + 1])
                let blue = Int(pixels[pixel * 4 + 2])
                let luma = FrameStatistics.luma(red: red, green: green, blue: blue)
                sum += luma
                sumOfSquares += luma * luma
                counts[red * bins / 256] += 1
                counts[bins + green * bins / 256] += 1
                counts[2 * bins + blue * bins / 256] += 1
            }
        }
        let count = Double(max(pixelCount, 1))
        let mean = Double(sum) / count
        lumaMean = mean
        lumaDeviation = max(0, Double(sumOfSquares) / count - mean * mean).squareRoot()
        histogram = counts.map { Double($0) / count }
        pixelSpread = FrameStatistics.robustSpread(ofLumaIn: pixelSamples)
    }

    /// Measures one RGBA picture (meant to be small: a few thousand pixels), its pixels as they are.
    public init(of image: RGBAImageBuffer) {
        self.init(downscaled: image, pixelSamples: image)
    }

    /// 1.4826 times the median absolute deviation of the luma of `image`'s pixels from their
    /// median (0 for an empty picture). Both medians are true medians (the mean of the two middle
    /// values for an even count), so a half-black, half-white texture spreads 127.5 × 1.4826, not 0.
    public static func robustSpread(ofLumaIn image: RGBAImageBuffer) -> Double {
        let pixelCount = image.width * image.height
        guard pixelCount > 0 else { return 0 }
        var counts = [Int](repeating: 0, count: 256)
        image.pixels.withUnsafeBufferPointer { pixels in
            for pixel in 0..<pixelCount {
                counts[
                    FrameStatistics.luma(
                        red: Int(pixels[pixel * 4]), green: Int(pixels[pixel * 4 + 1]), blue: Int(pixels[pixel * 4 + 2])
                    )
                ] += 1
            }
        }
        // In half-steps, so that both medians are whole numbers.
        let middle = doubledMedian(of: counts, total: pixelCount)
        var doubledDeviations = [Int](repeating: 0, count: 511)
        for (value, count) in counts.enumerated() { doubledDeviations[abs(2 * value - middle)] += count }
        return 1.4826 * Double(doubledMedian(of: doubledDeviations, total: pixelCount)) / 4
    }

    /// Twice the median of `total` values given as per-value counts: the sum of the values at
    /// the two middle ranks (the same rank for an odd total).
    private static func doubledMedian(of counts: [Int], total: Int) -> Int {
        func value(atRank rank: Int) -> Int {
            var seen = 0
            for (value, count) in counts.enumerated() {
                seen += count
                if seen > rank { return value }
            }
            return counts.count - 1
        }
        return value(atRank: (total - 1) / 2) + value(atRank: total / 2)
    }

    /// BT.601 luma of a full-range RGB pixel, 0...255, in integer arithmetic.
    private static func luma(red: Int, green: Int, blue: Int) -> Int {
        (77 * red + 150 * green + 29 * blue + 128) >> 8
    }

    /// True when the frame is near-black, near-white or flat (flat at thumbnail size and in its
    /// pixels): not worth showing as a poster.
    public var isUninformative: Bool {
        lumaMean < FrameStatistics.darkLumaLimit
            || (lumaMean > FrameStatistics.brightLumaLimit && lumaDeviation < FrameStatistics.brightDetailLimit)
            || (lumaDeviation < FrameStatistics.flatDeviationLimit && pixelSpread < FrameStatistics.flatDeviationLimit)
    }

    /// The sum of squared bin differences to another histogram (0 when they are the same).
    /// Squares, rather than absolute values, favour the histogram nearest the middle of a group:
    /// absolute differences tie whenever every candidate has more than the mean in its own bins.
    public func histogramDistance(to other: [Double]) -> Double {
        zip(histogram, other).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
    }

    /// The smart pick among candidates: drop the uninformative ones, then take the one whose
    /// histogram is closest to the mean histogram of those left (the most typical look of the
    /// opening, not an outlier such as a flash or a transition). Nil when every candidate is
    /// uninformative. Ties (within rounding) go to the one with the most contrast (luma
    /// deviation), then to the earliest: two candidates are always equally far from their mean,
    /// and in a fade-in the earlier one is the darker.
    public static func typicalIndex(of candidates: [FrameStatistics]) -> Int? {
        let kept = candidates.indices.filter { !candidates[$0].isUninformative }
        guard let first = kept.first else { return nil }
        var mean = [Double](repeating: 0, count: candidates[first].histogram.count)
        for index in kept {
            for (bin, value) in candidates[index].histogram.enumerated() { mean[bin] += value / Double(kept.count) }
        }
        let distances = kept.map { candidates[$0].histogramDistance(to: mean) }
        guard let nearest = distances.min() else { return nil }
        let tied = zip(kept, distances).filter { $0.1 <= nearest + 1e-12 }.map(\.0)
        return tied.max { candidates[$0].lumaDeviation < candidates[$1].lumaDeviation } ?? first
    }

    /// True when `candidates`, in the order they are shown, look like a fade-in (from black or
    /// from white) still going on at their end. From the first informative one on (a fade's
    /// near-black start is noise to compare), their contrast (luma deviation) never falls by
    /// more than 5% from one to the next and rises by at least 5% into the last one; there are
    /// at least three of them, or at least one after near-black or near-white ones (a short clip
    /// with a keyframe a second, as phones make, offers two: a QA pass); and the last one has at
    /// least 1.3 times the first candidate's contrast. A clip that only happens to brighten a
    /// little, or whose fade is over, does not.
    public static func isFadingIn(_ candidates: [FrameStatistics]) -> Bool {
        guard let start = candidates.firstIndex(where: { !$0.isUninformative }), let first = candidates.first,
            let last = candidates.last
        else { return false }
        let deviations = candidates[start...].map(\.lumaDeviation)
        guard deviations.count >= 3 || start > 0 else { return false }
        let rising = zip(deviations, deviations.dropFirst()).allSatisfy { $1 >= 0.95 * $0 }
        let risingIntoLast =
            deviations.count < 2 || deviations[deviations.count - 1] >= 1.05 * deviations[deviations.count - 2]
        return rising && risingIntoLast && last.lumaDeviation >= 1.3 * first.lumaDeviation
    }

    /// The pick among frames that follow a fade-in: the typical one (``typicalIndex(of:)``) of
    /// those informative frames with at least 80% of the most contrast among them, so the frames
    /// still fading do not pull it back into the fade. Nil when every candidate is uninformative.
    public static func fullestIndex(of candidates: [FrameStatistics]) -> Int? {
        let informative = candidates.indices.filter { !candidates[$0].isUninformative }
        guard let most = informative.map({ candidates[$0].lumaDeviation }).max() else { return nil }
        let fullest = informative.filter { candidates[$0].lumaDeviation >= 0.8 * most }
        return typicalIndex(of: fullest.map { candidates[$0] }).map { fullest[$0] }
    }

    /// The candidate to show when every one is uninformative: the one with the most contrast
    /// (a dark scene's brightest moment rather than its first frame), the earliest of equals
    /// (the first frame of an all-black clip). Nil only for no candidates.
    public static func leastUninformativeIndex(of candidates: [FrameStatistics]) -> Int? {
        candidates.indices.max { candidates[$0].lumaDeviation < candidates[$1].lumaDeviation }
    }
}
