import Foundation
import Testing

@testable import StoryMedia

/// The search for a capped clip's rate factor, run against size curves shaped like the cube
/// transitions' (log size convex in the rate factor): it ends under the budget, with little of it
/// unused, in a few passes; a first pass that fits ends it at once; a cap out of reach ends at 51.
@Suite struct RateFactorSearchTests {
    /// Bytes at rate factor `crf`: halving every `halving` steps at first, ever more slowly.
    static func curve(bytesAt23: Double, halving: Double, flattening: Double) -> (Double) -> Int {
        { crf in
            let steps = crf - 23
            return Int(bytesAt23 * pow(2, -steps / (halving + flattening * steps)))
        }
    }

    /// Runs the search over `size` from CRF 23 and returns it finished.
    static func search(budget: Int, size: (Double) -> Int) -> RateFactorSearch {
        var search = RateFactorSearch(budget: budget)
        search.record(rateFactor: 23, bytes: size(23))
        while let next = search.next { search.record(rateFactor: next, bytes: size(next)) }
        return search
    }

    @Test(arguments: [
        (6.0, 0.1), (7.0, 0.2), (8.0, 0.3), (9.0, 0.5), (6.0, 0.6), (10.0, 0.05),
    ])
    func capsBelowTheFirstPassEndUnderTheBudgetWithLittleUnused(halving: Double, flattening: Double) {
        let size = Self.curve(bytesAt23: 1_000_000, halving: halving, flattening: flattening)
        for budget in [900_000, 700_000, 450_000, 280_000, 180_000] where size(51) < budget {
            let search = Self.search(budget: budget, size: size)
            let kept = search.choice!
            #expect(search.fits)
            #expect(kept.bytes <= budget, "\(budget): \(search.passes)")
            #expect(Double(kept.bytes) >= 0.85 * Double(budget), "\(budget): \(search.passes)")
            #expect(search.passes.count <= RateFactorSearch.passLimit, "\(budget): \(search.passes)")
        }
    }

    @Test func aFirstPassThatFitsIsTheClip() {
        var search = RateFactorSearch(budget: 100_000)
        search.record(rateFactor: 23, bytes: 60_000)
        #expect(search.next == nil)
        #expect(search.choice == .init(rateFactor: 23, bytes: 60_000))
        #expect(search.fits)
    }

    @Test func aCapOutOfReachEndsAt51WithTheSmallestPass() {
        let search = Self.search(budget: 10_000) { crf in 500_000 - Int(crf) * 1_000 }
        #expect(search.passes.last?.rateFactor == 51)
        #expect(search.passes.count <= RateFactorSearch.passLimit + 1)
        #expect(search.choice?.rateFactor == 51)
        #expect(!search.fits)
    }

    @Test func rateFactorsAreWrittenAsTheEncoderOptionsTakeThem() {
        #expect(VideoEncoder.format(rateFactor: 23) == "23")
        #expect(VideoEncoder.format(rateFactor: 27.25) == "27.25")
        #expect(VideoEncoder.format(rateFactor: 41.466) == "41.47")
    }
}
