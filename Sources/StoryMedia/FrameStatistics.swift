/// What the poster pick knows about a candidate frame, measured on a small downscaled copy: its
/// luma mean and spread, and a colour histogram.
public struct FrameStatistics: Sendable, Equatable {
    /// Bins per colour channel in ``histogram``.
    public static let binsPerChannel = 16

    /// Mean luma, 0...255 (full range, BT.601 weights).
    public var lumaMean: Double
    /// Standard deviation of luma, 0...255.
    public var lumaDeviation: Double
    /// Red, green and blue histograms one after the other, each ``binsPerChannel`` bins summing
    /// to 1.
    public var histogram: [Double]

    /// Below this mean luma a frame counts as near-black (a fade-in, a lens cap).
    public static let darkLumaLimit = 24.0
    /// Above this mean luma a frame counts as near-white (a flash, an overexposed start).
    public static let brightLumaLimit = 232.0
    /// Below this luma deviation a frame counts as flat (a title card of one colour, a blur).
    public static let flatDeviationLimit = 10.0

    /// Makes statistics from their parts.
    public init(lumaMean: Double, lumaDeviation: Double, histogram: [Double]) {
        self.lumaMean = lumaMean
        self.lumaDeviation = lumaDeviation
        self.histogram = histogram
    }

    /// Measures an RGBA picture (meant to be small: a few thousand pixels).
    public init(of image: RGBAImageBuffer) {
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
                let luma = (77 * red + 150 * green + 29 * blue + 128) >> 8
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
    }

    /// True when the frame is near-black, near-white or flat: not worth showing as a poster.
    public var isUninformative: Bool {
        lumaMean < FrameStatistics.darkLumaLimit || lumaMean > FrameStatistics.brightLumaLimit
            || lumaDeviation < FrameStatistics.flatDeviationLimit
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
    /// uninformative; ties go to the earliest.
    public static func typicalIndex(of candidates: [FrameStatistics]) -> Int? {
        let kept = candidates.indices.filter { !candidates[$0].isUninformative }
        guard let first = kept.first else { return nil }
        var mean = [Double](repeating: 0, count: candidates[first].histogram.count)
        for index in kept {
            for (bin, value) in candidates[index].histogram.enumerated() { mean[bin] += value / Double(kept.count) }
        }
        return kept.min { candidates[$0].histogramDistance(to: mean) < candidates[$1].histogramDistance(to: mean) }
    }
}
