import Foundation
import StoryreelKit
import StoryreelTestSupport

/// One case of `Tests/Fixtures/navigation-cases.json` (its `about` field gives the format):
/// a bundle, what was seen before, the first step, and the step each event leads to.
struct NavigationCase: Decodable, Sendable, CustomStringConvertible {
    /// A step as the case file writes it: `{"item": "S#i"}`, a transition, or `{"end": true}`.
    struct Step: Decodable, Sendable, Equatable, CustomStringConvertible {
        var item: String?
        var transition: String?
        var from: String?
        var to: String?
        var then: String?
        var end: Bool?

        var description: String {
            if let item { return "item \(item)" }
            if let transition { return "\(transition) transition \(from ?? "?") → \(to ?? "?"), then \(then ?? "?")" }
            return end == true ? "end" : "an unreadable step"
        }
    }

    var name: String
    var bundle: String
    var seen: [String: [Int]]
    var start: String
    var events: [String]
    var expect: [Step]

    var description: String { name }

    /// Every case in the file.
    static let all: [NavigationCase] = {
        struct File: Decodable {
            var version: Int
            var cases: [NavigationCase]
        }
        let url = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fixtures/navigation-cases.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else {
            return []
        }
        return file.cases
    }()

    /// The seen state the case opens with: its `S#i` indexes as the manifest's item ids.
    func seenState(in manifest: Manifest) -> SeenState {
        var state = SeenState()
        for (storyID, indexes) in seen {
            guard let story = manifest.story(id: storyID) else { continue }
            for index in indexes where story.items.indices.contains(index) { state.markSeen(story.items[index].id) }
        }
        return state
    }

    /// A navigator step written as the case file writes it.
    static func step(_ step: PlaybackStep, in manifest: Manifest) -> Step {
        switch step {
        case .item(let story, let item):
            return Step(item: name(story, item))
        case .transition(let transition, let then):
            guard let (story, item) = then.landing else { return Step(transition: transition.direction.rawValue) }
            return Step(
                transition: transition.direction.rawValue, from: transition.from, to: transition.to,
                then: name(story, item))
        case .end:
            return Step(end: true)
        }
    }

    /// `S#i`: the item's index in its story.
    static func name(_ story: Manifest.Story, _ item: Manifest.Item) -> String {
        "\(story.id)#\(story.items.firstIndex(of: item).map(String.init) ?? "?")"
    }

    /// Sends `event` (the case file's name of a navigator method) to `navigator`.
    static func send(_ event: String, to navigator: inout StoryNavigator) -> PlaybackStep? {
        switch event {
        case "itemDidFinish": return navigator.itemDidFinish()
        case "tapForward": return navigator.tapForward()
        case "tapBack": return navigator.tapBack()
        case "swipeToNextStory": return navigator.swipeToNextStory()
        case "swipeToPreviousStory": return navigator.swipeToPreviousStory()
        default: return nil
        }
    }
}
