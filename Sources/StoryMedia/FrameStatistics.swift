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

    /// Cells a side of ``layout``.
    public static let layoutSide = 8
    /// The mean luma of each cell of an 8×8 grid over the picture, row by row: where it is light
    /// and dark, which a fade scales and a cut changes (``resembles(_:)``). Empty when unknown.
    public var layout: [Double] = []

    /// Makes statistics from their parts.
    public init(
        lumaMean: Double, lumaDeviation: Double, pixelSpread: Double = 0, histogram: [Double], layout: [Double] = []
    ) {
        self.lumaMean = lumaMean
        self.lumaDeviation = lumaDeviation
        self.pixelSpread = pixelSpread
        self.histogram = histogram
        self.layout = layout
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
        let side = FrameStatistics.layoutSide
        var cellSums = [Int](repeating: 0, count: side * side)
        var cellCounts = [Int](repeating: 0, count: side * side)
        image.pixels.withUnsafeBufferPointer { pixels in
            for pixel in 0..<pixelCount {
                let red = Int(pixels[pixel * 4])
                let green = Int(pixels[pixel * 4 + 1])
                let blue = Int(pixels[pixel * 4 + 2])
                let luma = FrameStatistics.luma(red: red, green: green, blue: blue)
                sum += luma
                sumOfSquares += luma * luma
                let cell =
                    (pixel / image.width) * side / image.height * side + (pixel % image.width) * side / image.width
                cellSums[cell] += luma
                cellCounts[cell] += 1
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
        layout = zip(cellSums, cellCounts).map { $1 > 0 ? Double($0) / Double($1) : 0 }
    }

    /// True when `other` looks like this frame made lighter or darker, as in a fade: the
    /// correlation of their ``layout``s is at least 0.5 (a cut to another shot is far below).
    /// True when either layout is unknown or nearly even (a near-black frame says nothing).
    public func resembles(_ other: FrameStatistics) -> Bool {
        guard layout.count == other.layout.count, !layout.isEmpty else { return true }
        let count = Double(layout.count)
        let (meanA, meanB) = (layout.reduce(0, +) / count, other.layout.reduce(0, +) / count)
        var (covariance, varianceA, varianceB) = (0.0, 0.0, 0.0)
        for (a, b) in zip(layout, other.layout) {
            covariance += (a - meanA) * (b - meanB)
            varianceA += (a - meanA) * (a - meanA)
            varianceB += (b - meanB) * (b - meanB)
        }
        guard varianceA > count, varianceB > count else { return true }
        return covariance / (varianceA * varianceB).squareRoot() >= 0.5
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
        // A frame of near-white mean with detail (a light-mode screen) counts only where no
        // frame of ordinary brightness does: a white flash with a silhouette beat a night scene
        // (a QA pass).
        let informative = candidates.indices.filter { !candidates[$0].isUninformative }
        let ordinary = informative.filter { candidates[$0].lumaMean <= FrameStatistics.brightLumaLimit }
        let kept = ordinary.isEmpty ? informative : ordinary
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
    /// near-black start is noise to compare), there are at least two, and at least three unless
    /// uninformative ones (near-black, near-white or flat) come first; their contrast (luma
    /// deviation) never falls by more than 5% from one to the next, rises by at least 5% into
    /// the last one, and by at least 30% from the first of them to the last (10% after
    /// uninformative ones); and each
    /// resembles the one before (``resembles(_:)``: not a cut). One black frame before the
    /// content is no fade (a QA pass), nor is a clip that only happens to brighten a little, or
    /// whose fade is over.
    public static func isFadingIn(_ candidates: [FrameStatistics]) -> Bool {
        guard let start = candidates.firstIndex(where: { !$0.isUninformative }) else { return false }
        let deviations = candidates[start...].map(\.lumaDeviation)
        guard deviations.count >= 3 || (start > 0 && deviations.count >= 2), let first = deviations.first,
            let last = deviations.last
        else { return false }
        let rising = zip(deviations, deviations.dropFirst()).allSatisfy { $1 >= 0.95 * $0 }
        let oneShot = zip(candidates[start...], candidates[start...].dropFirst()).allSatisfy { $0.resembles($1) }
        return rising && oneShot && last >= 1.05 * deviations[deviations.count - 2]
            && last >= (start > 0 ? 1.1 : 1.3) * first
    }

    /// How far back, in seconds at least, ``fadeIsOver(at:after:)`` measures a fade's rise from.
    public static let fadeRiseSpan = 0.5
    /// The least rise of contrast, as a share of it a second, of a fade still going on.
    public static let fadeRiseRate = 0.05

    /// The frames of `later` (shown after `fade`, the fade's frames so far, in order, each with
    /// its time in seconds) that are still the fade: up to and including the first at which the
    /// fade is over (``fadeIsOver(at:after:)``; a frame of unknown time ends it too), stopping
    /// before one whose contrast falls by more than 5% from the one before (a fade-out, an end
    /// card) or that does not resemble it (a cut: ``resembles(_:)``).
    public static func restOfFade(
        _ later: [(time: Double?, statistics: FrameStatistics)],
        after fade: [(time: Double, statistics: FrameStatistics)]
    ) -> [FrameStatistics] {
        var fadeSoFar = fade
        var rest: [FrameStatistics] = []
        for frame in later {
            guard let previous = fadeSoFar.last, frame.statistics.continuesFade(after: previous.statistics) else {
                break
            }
            rest.append(frame.statistics)
            guard let time = frame.time, !fadeIsOver(at: (time, frame.statistics), after: fadeSoFar) else { break }
            fadeSoFar.append((time, frame.statistics))
        }
        return rest
    }

    /// True when this frame, shown after `previous`, can still be the same fade: its contrast
    /// falls by no more than 5% and it resembles `previous` (not a cut, a fade-out, an end card).
    public func continuesFade(after previous: FrameStatistics) -> Bool {
        lumaDeviation >= 0.95 * previous.lumaDeviation && resembles(previous)
    }

    /// True when a fade-in is over at `frame` (shown at `frame.time` seconds, after `fade`, the
    /// fade's frames so far in order with their times): its contrast has risen by less than
    /// ``fadeRiseRate`` (5%) a second since the latest of `fade` shown at least
    /// ``fadeRiseSpan`` (0.5 s) before it, or since the first of them when none is. The rise
    /// is a rate over half a second at least, not a step from one sample to the next: a step
    /// depends on the samples' spacing (a linear fade's contrast rises by 1/t a second t seconds
    /// into it, so by 6% between samples 0.2 s apart at 3.3 s), and a picture's own contrast
    /// wobbles over a few frames (testsrc2's falls 1% from 3.3 s to 3.5 s), so a 6 s fade was
    /// taken to be over at 3.3 s (a QA pass). Within the 10 s the pick looks through, a linear
    /// fade rises by over 10% a second; once it is over, by nothing.
    /// True when `fade` is empty or `frame` is not after the reference.
    public static func fadeIsOver(
        at frame: (time: Double, statistics: FrameStatistics), after fade: [(time: Double, statistics: FrameStatistics)]
    ) -> Bool {
        guard let reference = fade.last(where: { $0.time <= frame.time - fadeRiseSpan }) ?? fade.first,
            frame.time > reference.time
        else { return true }
        let wanted = reference.statistics.lumaDeviation * (1 + fadeRiseRate * (frame.time - reference.time))
        return frame.statistics.lumaDeviation < wanted
    }

    /// The candidate to show when every one is uninformative: the one with the most contrast
    /// (a dark scene's brightest moment rather than its first frame), the earliest of equals
    /// (the first frame of an all-black clip). Nil only for no candidates.
    public static func leastUninformativeIndex(of candidates: [FrameStatistics]) -> Int? {
        candidates.indices.max { candidates[$0].lumaDeviation < candidates[$1].lumaDeviation }
    }
}
