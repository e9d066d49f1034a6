import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// The README's AVFoundation player ("StoryreelKit in an app"), with AVFoundation replaced by a
/// record of what would play over which still, run on the demo bundle: every file it plays,
/// shows or prefetches exists, the stills are the ones the seams need, the prefetch list holds
/// what plays next, and the seen state saved through `Codable` reorders the next session.
@Suite struct PlayerFlowTests {
    /// The README's `StoryPlayer`, step for step; `play` records instead of playing.
    final class SimulatedPlayer {
        let bundle: URL
        var navigator: StoryNavigator
        var played: [(src: String, still: String?)] = []
        var prefetched: [[String]] = []
        var ended = false

        init(bundle: URL, seen: SeenState) throws {
            self.bundle = bundle
            let data = try Data(contentsOf: bundle.appendingPathComponent("manifest.json"))
            navigator = StoryNavigator(manifest: try Manifest(jsonData: data), seen: seen)
            show(navigator.current)
        }

        func show(_ step: PlaybackStep) {
            switch step {
            case .item(_, let item): play(item.src, under: navigator.currentStill)
            case .transition(let transition, _): play(transition.src, under: navigator.currentStill)
            case .end: ended = true
            }
            prefetched.append(navigator.upcomingAssets(limit: 4))
        }

        func play(_ src: String, under still: String?) {
            played.append((src, still))
        }

        func didPlayToEnd() {
            if case .transition = navigator.current {
                show(navigator.transitionDidFinish())
            } else {
                show(navigator.itemDidFinish())
            }
        }
    }

    static func isFile(_ bundle: URL, _ relative: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(
            atPath: bundle.appendingPathComponent(relative).path, isDirectory: &isFolder)
            && !isFolder.boolValue
    }

    @Test func aFullSessionPlaysEveryItemAndTransitionOverTheRightStills() throws {
        let bundle = URL(fileURLWithPath: try RenderedSamples.folder(.demo))
        let player = try SimulatedPlayer(bundle: bundle, seen: SeenState())
        let manifest = player.navigator.manifest
        for _ in 0..<100 where !player.ended { player.didPlayToEnd() }
        #expect(player.ended)

        // Items and transitions interleave in manifest order.
        var expected: [(src: String, still: String?)] = []
        for (index, story) in manifest.stories.enumerated() {
            if index > 0,
                let transition = manifest.transition(
                    from: manifest.stories[index - 1].id, to: story.id, direction: .forward)
            {
                expected.append((transition.src, manifest.stories[index - 1].items.last?.lastFrame))
            }
            expected += story.items.map { ($0.src, $0.firstFrame) }
        }
        #expect(player.played.count == 12)
        #expect(player.played.map(\.src) == expected.map(\.src))
        #expect(player.played.map(\.still) == expected.map(\.still))
        for (src, still) in player.played {
            #expect(Self.isFile(bundle, src), "\(src)")
            #expect(still.map { Self.isFile(bundle, $0) } == true, "\(src) has a still under it")
        }
        // What plays next was prefetched, and every prefetched file exists.
        for (index, next) in player.played.dropFirst().enumerated() {
            #expect(player.prefetched[index].contains(next.src), "play \(index + 1): \(next.src)")
        }
        for asset in player.prefetched.joined() { #expect(Self.isFile(bundle, asset), "\(asset)") }
        #expect(player.prefetched.last == [])
        #expect(player.navigator.seen.itemIDs == Set(manifest.stories.flatMap(\.items).map(\.id)))
    }

    @Test func theSavedSeenStateMovesWatchedStoriesLast() throws {
        let bundle = URL(fileURLWithPath: try RenderedSamples.folder(.demo))
        let first = try SimulatedPlayer(bundle: bundle, seen: SeenState())
        first.didPlayToEnd()  // ana.lima's second item
        first.didPlayToEnd()  // the transition to ben_k …
        first.didPlayToEnd()  // … and ben_k's first item
        let saved = try JSONEncoder().encode(first.navigator.seen)

        let second = try SimulatedPlayer(bundle: bundle, seen: try JSONDecoder().decode(SeenState.self, from: saved))
        let manifest = second.navigator.manifest
        // ana.lima is seen now, and dev-ops's story.json says isRead: both follow the unseen ones.
        #expect(
            second.navigator.playOrder.map { manifest.stories[$0].id } == ["ben_k", "chloe", "ana.lima", "dev-ops"])
        #expect(second.played.first?.src == manifest.stories[1].items[1].src, "ben_k resumes at its first unseen item")
        #expect(second.played.first?.still == manifest.stories[1].items[1].firstFrame)
    }
}
