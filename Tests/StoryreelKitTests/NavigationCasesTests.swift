import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// `StoryNavigator` follows every case of `Tests/Fixtures/navigation-cases.json`, the file the
/// player page's tests run too, on manifests the built binary renders from `samples/stories`.
@Suite struct NavigationCasesTests {
    @Test func theCaseFileHasCasesForBothBundles() {
        #expect(NavigationCase.all.count >= 11)
        #expect(Set(NavigationCase.all.map(\.bundle)) == ["demo", "both-directions"])
        for navigationCase in NavigationCase.all {
            #expect(navigationCase.events.count == navigationCase.expect.count, "\(navigationCase)")
        }
    }

    @Test(arguments: NavigationCase.all)
    func navigatorFollowsTheCase(_ navigationCase: NavigationCase) throws {
        let bundle = try #require(RenderedSamples.Bundle(rawValue: navigationCase.bundle))
        let manifest = try Manifest(jsonData: RenderedSamples.manifestData(bundle))
        var navigator = StoryNavigator(manifest: manifest, seen: navigationCase.seenState(in: manifest))
        #expect(
            NavigationCase.step(navigator.current, in: manifest) == NavigationCase.Step(item: navigationCase.start),
            "start")
        for (index, (event, expected)) in zip(navigationCase.events, navigationCase.expect).enumerated() {
            let step = try #require(NavigationCase.send(event, to: &navigator), "unknown event \(event)")
            let actual = NavigationCase.step(step, in: manifest)
            #expect(actual == expected, "event \(index) (\(event)): got \(actual), expected \(expected)")
        }
    }

    @Test func theRenderedBundlesHaveTheTransitionsTheCasesAssume() throws {
        let demo = try Manifest(jsonData: RenderedSamples.manifestData(.demo))
        #expect(demo.stories.map(\.id) == ["ana.lima", "ben_k", "chloe", "dev-ops"])
        #expect(demo.stories.map(\.items.count) == [2, 3, 2, 2])
        #expect(demo.transitions.map(\.direction) == [.forward, .forward, .forward])
        let both = try Manifest(jsonData: RenderedSamples.manifestData(.bothDirections))
        #expect(both.transitions.filter { $0.direction == .backward }.count == 3)
        #expect(both.transition(from: "ben_k", to: "ana.lima", direction: .backward) != nil)
    }
}
