import Foundation

/// Picks the constant rate factors a capped clip is encoded at, one pass at a time, until a pass
/// fits the clip's byte budget with little of it left unused.
///
/// Why a search and not x264's VBV: a cube transition is 15 frames whose P-frames are mostly intra
/// coded. Measured on the demo's transitions, a VBV sized to the cap (`vbv-maxrate` = the cap,
/// a one-second or clip-long buffer) let them come out at 1.3–1.9× the cap, because the first
/// frames spend the buffer before rate control reacts; a VBV whose arithmetic makes overshooting
/// impossible (initial fill plus 14 refills = the budget) held the cap but left 8–20% of it
/// unused and, being a per-frame limit, cost 0.6–2 dB of PSNR against one constant rate factor at
/// the same size. x264's own two-pass ABR overshot by 8–26% on 15 frames. Constant quality at the
/// lowest rate factor that fits (the best quality) is the best a cap allows, so this looks for it.
///
/// The first pass is the requested CRF: when it fits, it is the clip, exactly as without a cap.
/// Otherwise the size falls by about half for every 6–10 rate-factor steps at first, and ever more
/// slowly higher up (the picture's floor of headers and DC coefficients), so `log(size)` is a
/// convex function of the rate factor. The second pass jumps by ``firstStep`` per halving still
/// needed, usually landing under the budget; the passes after it interpolate `log(size)` between
/// the closest passes over and under, which convexity keeps on the safe side. A pass that fits
/// with at least ``enough`` of the budget used ends the search; so do ``passLimit`` passes, or the
/// highest rate factor (51) failing to fit, which leaves the cap out of reach. When none of the
/// ``passLimit`` passes fits, one more goes twice as far as the extrapolation says (at most
/// halfway to 51), then one interpolates between it and the closest pass over when it leaves
/// much of the budget unused; only if the leap does not fit is 51 tried. Likewise a 4th pass that
/// fits with much of the budget unused, more than ``wideBracket`` steps above the closest pass
/// over, gets a 5th between them, and a 6th while the bracket stays that wide: on a flat stretch of the curve (a small picture's
/// headers) the passes crept up to just over the budget, and 51 came out at 63% of it where 41
/// used 98% (a QA pass: a higher cap gave a worse clip).
struct RateFactorSearch: Sendable {
    /// One encoding pass: the rate factor and the bytes of its packets.
    struct Pass: Sendable, Equatable {
        /// The constant rate factor, 0...51.
        var rateFactor: Double
        /// The bytes of the video packets.
        var bytes: Int
    }

    /// The most bytes the clip's packets may have.
    let budget: Int
    /// Every pass so far, in order.
    private(set) var passes: [Pass] = []

    /// The highest rate factor x264 and x265 take.
    static let highest = 51.0
    /// A pass that fits and uses this share of the budget ends the search.
    static let enough = 0.92
    /// The share of the budget the next pass aims at: under the budget, for a margin.
    static let aim = 0.97
    /// Rate-factor steps per halving of the size assumed for the second pass: more than the 6–10
    /// measured low down, so that the pass usually fits and later passes can interpolate.
    static let firstStep = 8.0
    /// At most this many passes, the requested CRF's included, before the rate factor 51 is tried
    /// as the last resort (or one more pass, see ``next``).
    static let passLimit = 4
    /// Rate-factor steps between the closest passes over and under the budget past which the
    /// search, out of passes, makes one more between them.
    static let wideBracket = 1.0

    /// A search for a clip of at most `budget` bytes.
    init(budget: Int) { self.budget = budget }

    /// Records a pass.
    mutating func record(rateFactor: Double, bytes: Int) {
        passes.append(Pass(rateFactor: rateFactor, bytes: bytes))
    }

    /// The pass to keep: the biggest that fits, else the smallest (the cap is out of reach).
    var choice: Pass? {
        passes.filter { $0.bytes <= budget }.max { $0.bytes < $1.bytes } ?? passes.min { $0.bytes < $1.bytes }
    }

    /// True when the kept pass is within the budget.
    var fits: Bool { choice.map { $0.bytes <= budget } ?? false }

    /// The rate factor of the next pass, or nil when the search is over.
    var next: Double? {
        guard let first = passes.first else { return nil }
        let fitting = passes.filter { $0.bytes <= budget }
        if first.bytes <= budget { return nil }
        if let best = fitting.max(by: { $0.bytes < $1.bytes }), Double(best.bytes) >= Self.enough * Double(budget) {
            return nil
        }
        let over = passes.filter { $0.bytes > budget }
        guard let closestOver = over.max(by: { $0.rateFactor < $1.rateFactor }) else { return nil }
        let target = Self.aim * Double(budget)
        let closestUnder = fitting.filter({ $0.rateFactor > closestOver.rateFactor }).min(by: {
            $0.rateFactor < $1.rateFactor
        })
        // Out of passes: keep the best that fits, unless it lies more than ``wideBracket`` steps
        // above the closest pass over: then up to two passes between the two (a QA pass: a 4th pass that
        // leapt to CRF 50.9 and fitted at 71% was kept, where a lower cap gave CRF 48.8). With
        // none that fits, one longer leap; a leap that fits gets one pass between it and the
        // closest over too.
        let leapFits = passes.count == Self.passLimit + 1 && fitting.count == 1 && fitting.first == passes.last
        let wide = closestUnder.map { $0.rateFactor - closestOver.rateFactor > Self.wideBracket } ?? false
        let oneMore = (passes.count < Self.passLimit + 2 && wide) || leapFits
        if passes.count >= Self.passLimit && !oneMore {
            guard fitting.isEmpty, closestOver.rateFactor < Self.highest else { return nil }
            guard passes.count == Self.passLimit else { return Self.highest }
            // Twice the extrapolation, at most halfway to the highest: on a flat stretch the last
            // two passes make the slope look steep and the leap land at 51 again.
            let leap = min(
                2 * extrapolation(from: closestOver, over: over, target: target),
                (Self.highest - closestOver.rateFactor) / 2)
            let rounded = (min(Self.highest, closestOver.rateFactor + leap) * 100).rounded() / 100
            return passes.contains { abs($0.rateFactor - rounded) < 0.005 } ? Self.highest : rounded
        }
        let candidate: Double
        if let closestUnder {
            // Bracketed: interpolate log(size) between the two.
            let span = log2(Double(closestOver.bytes) / Double(closestUnder.bytes))
            let share = span > 0 ? log2(Double(closestOver.bytes) / target) / span : 1
            candidate =
                closestOver.rateFactor + min(1, max(0, share)) * (closestUnder.rateFactor - closestOver.rateFactor)
            // Within a tenth of a step of a pass that fits: that pass is as good as it gets.
            if closestUnder.rateFactor - candidate < 0.1 { return nil }
        } else {
            if closestOver.rateFactor >= Self.highest { return nil }
            candidate = closestOver.rateFactor + extrapolation(from: closestOver, over: over, target: target)
        }
        let rounded = (min(Self.highest, candidate) * 100).rounded() / 100
        return passes.contains { abs($0.rateFactor - rounded) < 0.005 } ? nil : rounded
    }

    /// Rate-factor steps from `closestOver` (the highest pass over the budget) down to `target`
    /// bytes, when nothing fits yet: at least as steep as the last two passes `over` the budget,
    /// and at least one step.
    private func extrapolation(from closestOver: Pass, over: [Pass], target: Double) -> Double {
        var step = Self.firstStep
        let overInOrder = over.sorted { $0.rateFactor < $1.rateFactor }
        if overInOrder.count >= 2 {
            let (lower, higher) = (overInOrder[overInOrder.count - 2], overInOrder[overInOrder.count - 1])
            let halvings = log2(Double(lower.bytes) / Double(higher.bytes))
            let local = halvings > 0.01 ? (higher.rateFactor - lower.rateFactor) / halvings : 2 * Self.firstStep
            step = max(Self.firstStep, 1.5 * local)
        }
        return max(1, step * log2(Double(closestOver.bytes) / target))
    }
}
