import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// The AVFoundation player of docs/playing.md ("StoryreelKit in an app"), with AVFoundation replaced by a
/// record of what would play over which still, run on the demo bundle: every file it plays,
/// shows or prefetches exists, the stills are the ones the seams need, the prefetch list holds
/// what plays next, and the seen state saved through `Codable` reorders the next session.
@Suite struct PlayerFlowTests {
    /// docs/playing.md's `StoryPlayer`, step for step; `play` records instead of playing.
    final class SimulatedPlayer {
        let bundle: URL
        var navigator: StoryNavigator
        var played: [(src: String, still: String?)] = []
        var prefetched: [[String]] = []
        var ended = false

        static func open(bundle: URL, seen: SeenState) async throws -> SimulatedPlayer {
            let manifest = try await Task.detached {
                try Manifest(jsonData: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
            }.value
            return SimulatedPlayer(bundle: bundle, manifest: manifest, seen: seen)
        }

        init(bundle: URL, manifest: Manifest, seen: SeenState) {
            self.bundle = bundle
            navigator = StoryNavigator(manifest: manifest, seen: seen, marksSeenOnPresent: true)
            show(navigator.current)
        }

        func show(_ next: PlaybackStep) {
            var step = next
            while let src = step.src, url(src) == nil { step = navigator.clipCannotPlay() }
            prefetched.append(navigator.upcomingAssets(limit: 4))
            guard let src = step.src, url(src) != nil else {
                ended = true
                return
            }
            play(src, under: navigator.currentStill, for: step)
        }

        func url(_ path: String) -> URL? {
            ManifestPath.isPlain(path) ? bundle.appendingPathComponent(path) : nil
        }

        /// Records the clip and its still; a still that loads is on screen at once, so the item is
        /// seen (docs/playing.md's `UIImage(contentsOfFile:)`).
        func play(_ src: String, under still: String?, for step: PlaybackStep) {
            played.append((src, still))
            playingStep = step
            let item = navigator.currentItem
            if let item, let file = still.flatMap(url), FileManager.default.fileExists(atPath: file.path) {
                navigator.itemDidPresent(item)
            }
            playing = item
        }

        /// The item the clip playing shows, as the sample's KVO handler keeps it.
        var playing: Manifest.Item?

        /// The video layer's `isReadyForDisplay` turned true (for the clip `play` started last).
        func videoDidPresent() { if let playing { navigator.itemDidPresent(playing) } }

        /// The step the clip playing was started for, which the sample's end-of-clip observer of
        /// that `AVPlayerItem` captures.
        var playingStep = PlaybackStep.end

        /// The end-of-clip notification of the clip started for `step` (the one playing, unless
        /// it comes late).
        func didPlayToEnd(_ step: PlaybackStep) {
            if let next = navigator.clipDidFinish(step) { show(next) }  // nil: late, after a tap moved on
        }

        func didPlayToEnd() { didPlayToEnd(playingStep) }

        func tapForward() { show(navigator.tapForward()) }
    }

    static func isFile(_ bundle: URL, _ relative: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(
            atPath: bundle.appendingPathComponent(relative).path, isDirectory: &isFolder)
            && !isFolder.boolValue
    }

    @Test func aFullSessionPlaysEveryItemAndTransitionOverTheRightStills() async throws {
        let bundle = URL(fileURLWithPath: try RenderedSamples.folder(.demo))
        let player = try await SimulatedPlayer.open(bundle: bundle, seen: SeenState())
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

    @Test func theSavedSeenStateMovesWatchedStoriesLast() async throws {
        let bundle = URL(fileURLWithPath: try RenderedSamples.folder(.demo))
        let first = try await SimulatedPlayer.open(bundle: bundle, seen: SeenState())
        first.didPlayToEnd()  // ana.lima's second item
        first.didPlayToEnd()  // the transition to ben_k …
        first.didPlayToEnd()  // … and ben_k's first item
        let saved = try JSONEncoder().encode(first.navigator.seen)

        let second = try await SimulatedPlayer.open(
            bundle: bundle, seen: try JSONDecoder().decode(SeenState.self, from: saved))
        let manifest = second.navigator.manifest
        // ana.lima is seen now, and dev-ops's story.json says isRead: both follow the unseen ones.
        #expect(
            second.navigator.playOrder.map { manifest.stories[$0].id } == ["ben_k", "chloe", "ana.lima", "dev-ops"])
        #expect(second.played.first?.src == manifest.stories[1].items[1].src, "ben_k resumes at its first unseen item")
        #expect(second.played.first?.still == manifest.stories[1].items[1].firstFrame)
        // Items that left the bundle are forgotten; those still in it stay seen (a consumer's
        // review: a state saved every session only grew).
        var pruned = try JSONDecoder().decode(SeenState.self, from: saved)
        pruned.markSeen("an-item-of-a-story-that-expired")
        pruned.forgetItems(notIn: manifest)
        #expect(pruned == first.navigator.seen)
        #expect(pruned.itemIDs.count == 3)
    }

    /// From a Kit consumer review: the sample's end-of-clip callback took no argument, so one that
    /// came late, after a tap forward at the clip's end, moved past the item the tap showed and
    /// marked it seen. Its observer, one for each `AVPlayerItem`, passes the step it was started
    /// for, and a late one does nothing.
    @Test func aLateEndOfClipAfterATapPlaysOnFromWhereTheTapWent() async throws {
        let bundle = URL(fileURLWithPath: try RenderedSamples.folder(.demo))
        let player = try await SimulatedPlayer.open(bundle: bundle, seen: SeenState())
        let manifest = player.navigator.manifest
        let first = player.playingStep
        player.tapForward()
        let tapped = manifest.stories[0].items[1]
        #expect(player.played.last?.src == tapped.src)
        player.didPlayToEnd(first)  // the first clip's end, late
        #expect(player.played.count == 2, "nothing more was played")
        #expect(player.navigator.currentItem == tapped)
        player.didPlayToEnd()  // the tapped clip's own end
        #expect(player.played.last?.src != tapped.src, "now it moves on")
        #expect(player.played.count == 3)
    }

    /// From a Kit review: a player streaming its bundle had an item marked seen as its step came,
    /// before anything of it loaded, so an item tapped past while it loaded was skipped next
    /// time, unwatched. The sample marks an item when its still draws or its video presents.
    @Test func anItemTappedPastBeforeAnythingOfItShowedStaysUnseen() async throws {
        let demo = URL(fileURLWithPath: try RenderedSamples.folder(.demo))
        var manifest = try Manifest(jsonData: try RenderedSamples.manifestData(.demo))
        // ana.lima's second item: its still does not load, and the viewer taps on before its video shows.
        manifest.stories[0].items[1].firstFrame = "stills/not-loaded-yet.jpg"
        let passed = manifest.stories[0].items[1]
        let player = SimulatedPlayer(bundle: demo, manifest: manifest, seen: SeenState())
        player.tapForward()
        #expect(player.played.last?.src == passed.src)
        #expect(!player.navigator.seen.contains(passed.id), "nothing of it showed yet")
        player.tapForward()
        #expect(player.navigator.seen.itemIDs == [manifest.stories[0].items[0].id])
        let next = SimulatedPlayer(bundle: demo, manifest: manifest, seen: player.navigator.seen)
        #expect(next.played.first?.src == passed.src, "it plays next time: \(next.played.map(\.src))")
        next.videoDidPresent()
        #expect(next.navigator.seen.contains(passed.id), "its video showed a frame")
    }

    /// From a QA pass of the library: a story's last clip the bundle cannot hold was passed over
    /// with `clipDidFinish()`, so the sample showed that clip's last-frame still and turned the
    /// cube from it, a frame never on screen. Passed over with `clipCannotPlay()`, the story is
    /// left with a cut: the next story's first item plays over its own first frame.
    @Test func aStorysLastClipPassedOverLeavesItWithACut() async throws {
        let demo = URL(fileURLWithPath: try RenderedSamples.folder(.demo))
        var manifest = try Manifest(jsonData: try RenderedSamples.manifestData(.demo))
        let skipped = try #require(manifest.stories[0].items.last)
        manifest.stories[0].items[manifest.stories[0].items.count - 1].src = "../elsewhere/clip.mov"
        // The demo bundle's files, under the edited manifest.
        let player = SimulatedPlayer(bundle: demo, manifest: manifest, seen: SeenState())
        for _ in 0..<100 where !player.ended { player.didPlayToEnd() }
        let next = manifest.stories[1].items[0]
        let afterFirstStory = player.played.dropFirst(manifest.stories[0].items.count - 1).first
        #expect(afterFirstStory?.src == next.src, "a cut to \(next.src): \(player.played.map(\.src))")
        #expect(afterFirstStory?.still == next.firstFrame)
        #expect(!player.played.contains { $0.still == skipped.lastFrame }, "the skipped clip's last frame never shows")
        #expect(player.navigator.seen.contains(skipped.id), "passed over counts as seen")
    }

    /// From a QA pass: the README's sample passed over a clip the bundle cannot hold by calling
    /// `didPlayToEnd()` from `play`, a level of recursion a clip: a manifest of 5,000 such paths
    /// overflowed the stack. It loops now; the clips around them still play.
    @Test func thousandsOfClipsTheBundleCannotHoldArePassedOverWithoutRecursion() async throws {
        let folder = try TemporaryFolder()
        let good = ManifestSamples.manifest(items: [2, 1], transitions: .none)
        let outside = (0..<20000).map { index in
            var item = ManifestSamples.item(story: 9, index: index)
            item.src = "/clips/\(index).mp4"
            return item
        }
        let middle = Manifest.Story(
            id: "outside", user: Manifest.User(handle: "outside", displayName: "Outside", avatar: nil), isRead: false,
            duration: 40000, items: outside)
        let manifest = Manifest(
            generator: good.generator, canvas: good.canvas, duration: good.duration + 40000,
            stories: [good.stories[0], middle, good.stories[1]], transitions: [], skipped: [])
        _ = try folder.write("manifest.json", try manifest.jsonData())

        let player = try await SimulatedPlayer.open(bundle: folder.url, seen: SeenState())
        // Each clip that plays shows a frame (this folder has no stills) before it ends.
        for _ in 0..<10 where !player.ended {
            player.videoDidPresent()
            player.didPlayToEnd()
        }
        #expect(player.ended)
        #expect(player.played.map(\.src) == ["clips/s0-0.mp4", "clips/s0-1.mp4", "clips/s1-0.mp4"])
        #expect(player.navigator.seen.itemIDs.count == 20003, "the ones passed over count as seen")
    }
}
