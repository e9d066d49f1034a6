import StoryreelKit
import Testing

/// The navigator on hand-built bundles at the edges: one story, one item per story, everything
/// seen, no transitions, both directions, and long runs of random events.
@Suite struct StoryNavigatorEdgeCaseTests {
    typealias Samples = ManifestSamples

    @Test func oneStoryPlaysThroughThenEndsAndTapBackStaysInIt() {
        var navigator = StoryNavigator(manifest: Samples.manifest(items: [3]))
        #expect(Samples.describe(navigator.current) == "s0#0")
        #expect(Samples.describe(navigator.tapBack()) == "s0#0", "the very first item restarts")
        #expect(Samples.describe(navigator.swipeToPreviousStory()) == "s0#0")
        #expect(Samples.describe(navigator.itemDidFinish()) == "s0#1")
        #expect(Samples.describe(navigator.swipeToPreviousStory()) == "s0#0", "the first story restarts")
        #expect(Samples.describe(navigator.tapForward()) == "s0#1")
        #expect(Samples.describe(navigator.tapForward()) == "s0#2")
        #expect(Samples.describe(navigator.itemDidFinish()) == "end")
        #expect(Samples.describe(navigator.tapBack()) == "end", "the end stays the end")
        #expect(navigator.progress(elapsed: 1) == [])
        #expect(navigator.upcomingAssets(limit: 5) == [])
    }

    /// From the QA pass: an app with a story row could not open the navigator at the story the
    /// user tapped (the page's `open(storyId)`); it had to swipe there, marking each story on
    /// the way seen. Opening at a story starts at its first unseen item and leaves the others.
    @Test func opensAtATappedStoryLeavingTheStoriesBeforeItUnseen() {
        let manifest = Samples.manifest(items: [2, 3, 1])
        var seen = SeenState()
        seen.markSeen(Samples.item(story: 1, index: 0).id)
        var navigator = StoryNavigator(manifest: manifest, seen: seen, openingAt: "s1")
        #expect(Samples.describe(navigator.current) == "s1#1", "its first unseen item")
        #expect(!navigator.seen.contains(Samples.item(story: 0, index: 0).id), "s0 was not played")
        #expect(Samples.describe(navigator.swipeToPreviousStory()) == "s0#0", "a swipe back reaches it")
        #expect(Samples.describe(StoryNavigator(manifest: manifest, openingAt: "s2").current) == "s2#0")
        #expect(Samples.describe(StoryNavigator(manifest: manifest, openingAt: "nobody").current) == "s0#0")
    }

    /// From a Kit QA pass: an app showing "item 2 of 3" searched the story's items for the
    /// current one. `currentItemIndex` is its index, the landing's during a turn, nil at the end.
    @Test func theCurrentItemsIndexFollowsEveryStep() {
        var manifest = Samples.manifest(items: [2, 3, 1])
        // Two items with one id (which validate refuses): the index is still the one on screen.
        manifest.stories[1].items[2].id = manifest.stories[1].items[1].id
        var navigator = StoryNavigator(manifest: manifest)
        var steps: [String] = []
        while navigator.currentItem != nil {
            let index = navigator.currentItemIndex.map(String.init) ?? "nil"
            // And the story's place in the play order (a Kit consumer review: "story 2 of 5").
            #expect(
                navigator.currentStoryPosition.map { navigator.playOrder[$0] }
                    == Int(navigator.currentStory?.id.dropFirst() ?? ""))
            steps.append("\(Samples.describe(navigator.current)) \(index)")
            navigator.itemDidFinish()
            if case .transition = navigator.current { navigator.transitionDidFinish() }
        }
        #expect(steps == ["s0#0 0", "s0#1 1", "s1#0 0", "s1#1 1", "s1#2 2", "s2#0 0"])
        #expect(navigator.currentItemIndex == nil && navigator.currentStoryPosition == nil)
        var turning = StoryNavigator(manifest: Samples.manifest(items: [1, 2]))
        guard case .transition = turning.itemDidFinish() else {
            Issue.record("a turn into s1")
            return
        }
        #expect(turning.currentItemIndex == 0, "the item the turn lands on")
    }

    @Test func oneItemPerStoryTakesEachTransitionForwardAndEachBackwardOnTapBack() {
        var navigator = StoryNavigator(manifest: Samples.manifest(items: [1, 1, 1], transitions: .both))
        #expect(Samples.describe(navigator.itemDidFinish()) == "forward:s1#0")
        navigator.transitionDidFinish()
        #expect(Samples.describe(navigator.swipeToNextStory()) == "forward:s2#0", "a last item is also a first")
        navigator.transitionDidFinish()
        #expect(Samples.describe(navigator.tapBack()) == "backward:s1#0")
        navigator.transitionDidFinish()
        #expect(Samples.describe(navigator.swipeToPreviousStory()) == "backward:s0#0")
        navigator.transitionDidFinish()
        #expect(Samples.describe(navigator.swipeToPreviousStory()) == "s0#0")
        #expect(Samples.describe(navigator.tapForward()) == "forward:s1#0")
        navigator.transitionDidFinish()
        #expect(Samples.describe(navigator.tapForward()) == "forward:s2#0")
        #expect(Samples.describe(navigator.tapForward()) == "end")
    }

    /// From a QA pass of the library: the player page cuts under `prefers-reduced-motion`, and an
    /// app honouring Reduce Motion had no way to ask the navigator for the same.
    @Test func cutsOnlyMakesEveryMoveACutAndPrefetchesNoTurn() {
        let manifest = Samples.manifest(items: [1, 1, 1], transitions: .both)
        var navigator = StoryNavigator(manifest: manifest, cutsOnly: true)
        #expect(!navigator.upcomingAssets(limit: 20).contains { $0.hasPrefix("transitions/") })
        #expect(Samples.describe(navigator.itemDidFinish()) == "s1#0")
        #expect(Samples.describe(navigator.swipeToNextStory()) == "s2#0")
        #expect(Samples.describe(navigator.tapBack()) == "s1#0")
        #expect(Samples.describe(navigator.swipeToPreviousStory()) == "s0#0")
        navigator.cutsOnly = false
        #expect(Samples.describe(navigator.tapForward()) == "forward:s1#0", "the next move follows the new value")
        navigator.cutsOnly = true
        #expect(Samples.describe(navigator.current) == "forward:s1#0", "a turn on screen plays on")
        navigator.transitionDidFinish()
        #expect(Samples.describe(navigator.tapBack()) == "s0#0")
    }

    /// From a QA pass: a tap during the turn into a one-item story played the next turn from that
    /// story's last frame, which was never on screen (the cube jumped from mid-turn to another
    /// picture). A move on while a transition turns is a cut; a move back still reverses the turn
    /// (its first face is the landing's first frame, where the turn was heading).
    @Test func aMoveOnWhileATransitionTurnsIsACut() {
        let manifest = Samples.manifest(items: [1, 1, 1], transitions: .both)
        let moves: [(String, (inout StoryNavigator) -> PlaybackStep)] = [
            ("s2#0", { $0.tapForward() }), ("s2#0", { $0.swipeToNextStory() }), ("backward:s0#0", { $0.tapBack() }),
            ("backward:s0#0", { $0.swipeToPreviousStory() }),
        ]
        for (expected, move) in moves {
            var navigator = StoryNavigator(manifest: manifest)
            #expect(Samples.describe(navigator.itemDidFinish()) == "forward:s1#0")
            #expect(Samples.describe(move(&navigator)) == expected)
            #expect(!navigator.seen.contains(Samples.item(story: 1, index: 0).id), "s1 was passed over unseen")
        }
    }

    /// From a QA pass of the library: the README's loop passed over a clip the app cannot play
    /// with `clipDidFinish()`, so a story's last item passed over turned the cube from its last
    /// frame, which was never on screen. `clipCannotPlay()` moves on as the item finishing does,
    /// marks it seen, and leaves its story with a cut; a transition that cannot play lands.
    @Test func aClipThatCannotPlayIsLeftWithACut() {
        let manifest = Samples.manifest(items: [2, 1, 1], transitions: .both)
        var navigator = StoryNavigator(manifest: manifest)
        #expect(Samples.describe(navigator.clipCannotPlay()) == "s0#1", "the next item of the story")
        #expect(Samples.describe(navigator.clipCannotPlay()) == "s1#0", "a cut, not forward:s1#0")
        #expect(navigator.seen.contains(Samples.item(story: 0, index: 1).id), "passed over counts as seen")
        #expect(navigator.currentStill == Samples.item(story: 1, index: 0).firstFrame)
        #expect(Samples.describe(navigator.itemDidFinish()) == "forward:s2#0", "a played item still turns")
        #expect(Samples.describe(navigator.clipCannotPlay()) == "s2#0", "a transition that cannot play lands")
        #expect(navigator.seen.contains(Samples.item(story: 2, index: 0).id))
        #expect(Samples.describe(navigator.clipCannotPlay()) == "end")
        #expect(Samples.describe(navigator.clipCannotPlay()) == "end")
    }

    /// From a player page QA pass (the page's row, and an app's that keeps its order while it
    /// shows): a story watched and closed, then opened again from the row, was followed by the
    /// stories after the unseen ones, a sort made anew, skipping the unseen ones beside it. Given
    /// the row's order, the navigator plays it; bad indexes are left out.
    @Test func aGivenPlayOrderIsPlayedAsTheRowShowsIt() {
        let manifest = Samples.manifest(items: [1, 1, 1, 1], transitions: .none)
        var seen = SeenState()
        seen.markSeen(Samples.item(story: 0, index: 0).id)
        let row = [0, 1, 2, 3]  // the row kept its order when the viewer closed
        #expect(StoryNavigator.playOrder(of: manifest, seen: seen) == [1, 2, 3, 0], "sorted anew: s0 last")
        var sorted = StoryNavigator(manifest: manifest, seen: seen, openingAt: "s0")
        #expect(Samples.describe(sorted.itemDidFinish()) == "end", "s1, s2, s3 skipped")
        var kept = StoryNavigator(manifest: manifest, seen: seen, openingAt: "s0", playOrder: row)
        #expect(kept.playOrder == row)
        #expect(Samples.describe(kept.itemDidFinish()) == "s1#0", "the story to its right")
        #expect(Samples.describe(kept.tapBack()) == "s0#0", "and back to the one on its left")
        let odd = StoryNavigator(manifest: manifest, seen: seen, playOrder: [3, 9, -1, 3, 1])
        #expect(odd.playOrder == [3, 1])
        #expect(Samples.describe(odd.current) == "s3#0")
    }

    /// From a Kit consumer review: a tap forward at a clip's end, then that clip's end-of-clip
    /// callback, late (it hops to the main actor), moved past the item the tap had just shown
    /// and marked it seen. Given the step its clip was started for, a late end or failure does
    /// nothing; one for the current step moves on as before.
    @Test func aLateEndOfClipForAStepLeftBehindDoesNothing() {
        let manifest = Samples.manifest(items: [3, 1], transitions: .both)
        var navigator = StoryNavigator(manifest: manifest, marksSeenOnPresent: true)
        let first = navigator.current
        #expect(Samples.describe(navigator.tapForward()) == "s0#1")
        #expect(navigator.clipDidFinish(first) == nil, "s0#0's late end")
        #expect(navigator.clipCannotPlay(first) == nil, "s0#0's late failure")
        #expect(Samples.describe(navigator.current) == "s0#1")
        #expect(!navigator.seen.contains(Samples.item(story: 0, index: 1).id), "not on screen yet")
        let second = navigator.current
        #expect(navigator.clipDidFinish(second).map(Samples.describe) == "s0#2", "the current clip's end")
        #expect(navigator.clipCannotPlay(navigator.current).map(Samples.describe) == "s1#0", "a cut")
        #expect(navigator.clipDidFinish(second) == nil, "stale again")
        #expect(Samples.describe(navigator.current) == "s1#0")
        // A transition's late end, after a tap back reversed the turn: ignored too.
        var turning = StoryNavigator(manifest: manifest)
        _ = turning.itemDidFinish()
        _ = turning.itemDidFinish()
        let turn = turning.itemDidFinish()
        #expect(Samples.describe(turn) == "forward:s1#0")
        #expect(Samples.describe(turning.tapBack()) == "backward:s0#0")
        #expect(turning.clipDidFinish(turn) == nil, "the forward turn's late end")
        #expect(Samples.describe(turning.current) == "backward:s0#0")
        #expect(!turning.seen.contains(Samples.item(story: 1, index: 0).id))
    }

    /// From a QA pass of the library: where items share files (reposts), fewer than `limit`
    /// distinct ones lie ahead, and `upcomingAssets(limit:)` walked the whole rest of the play
    /// order on every call (94 ms a call over 60,000 items). The walk is bounded at
    /// `limit × 8 + 64` steps: a file past that is not listed, one within it is.
    @Test func upcomingAssetsOfSharedFilesIsABoundedWalk() {
        func manifest(stories: Int) -> Manifest {
            var manifest = Samples.manifest(items: Array(repeating: 1, count: stories), transitions: .none)
            let shared = Samples.item(story: 0, index: 0)
            for story in manifest.stories.indices.dropLast() {
                manifest.stories[story].items[0].src = shared.src
                manifest.stories[story].items[0].firstFrame = shared.firstFrame
            }
            return manifest
        }
        let shared = Samples.item(story: 0, index: 0)
        let near = StoryNavigator(manifest: manifest(stories: 20))
        #expect(
            near.upcomingAssets(limit: 4) == [
                shared.firstFrame!, shared.src, "stills/s19-0-first.jpg", "clips/s19-0.mp4",
            ])
        let far = StoryNavigator(manifest: manifest(stories: 5000))
        #expect(far.upcomingAssets(limit: 4) == [shared.firstFrame!, shared.src], "the last story is past the walk")
        // `Int.max` for "everything" walks to the end: the bound trapped on its overflow (a re-check).
        #expect(far.upcomingAssets(limit: .max).suffix(2) == ["stills/s4999-0-first.jpg", "clips/s4999-0.mp4"])
    }

    /// A story with no items decodes (the Kit checks types, not the rules `validate` checks), so
    /// the navigator leaves it out instead of landing on its item 0. (The old navigator counted
    /// it as seen, moved it last and trapped on `items[0]` when play reached it.)
    @Test func storiesWithoutItemsAreLeftOutInsteadOfTrapping() {
        for empty in [0, 1, 2] {
            for transitions in [Samples.Transitions.none, .both] {
                var counts = [2, 1, 2]
                counts[empty] = 0
                var navigator = StoryNavigator(manifest: Samples.manifest(items: counts, transitions: transitions))
                #expect(navigator.playOrder == [0, 1, 2].filter { $0 != empty })
                var steps = [Samples.describe(navigator.current)]
                for _ in 0..<6 { steps.append(Samples.describe(navigator.itemDidFinish())) }
                #expect(!steps.contains { $0.hasPrefix("s\(empty)") }, "\(steps)")
                #expect(steps.last == "end")
                for _ in 0..<8 { _ = navigator.tapBack() }
                #expect(!Samples.describe(navigator.swipeToNextStory()).hasPrefix("s\(empty)"))
            }
        }
        #expect(StoryNavigator(manifest: Samples.manifest(items: [0, 0])).current == .end)
    }

    @Test func everythingSeenKeepsTheManifestOrderFromFirstItems() {
        let manifest = Samples.manifest(items: [2, 2, 1], read: [1])
        let everything = SeenState(itemIDs: Set(manifest.stories.flatMap(\.items).map(\.id)))
        var navigator = StoryNavigator(manifest: manifest, seen: everything)
        #expect(navigator.playOrder == [0, 1, 2])
        let steps = (0..<5).map { _ in Samples.describe(navigator.itemDidFinish()) }
        #expect(steps == ["s0#1", "forward:s1#0", "s1#1", "forward:s2#0", "end"])
        #expect(navigator.seen == everything)
    }

    @Test func readAndSeenStoriesMoveAfterUnseenOnesAndStartAtTheFirstUnseenItem() {
        let manifest = Samples.manifest(items: [2, 3, 2, 1], read: [2])
        let seen = SeenState(itemIDs: [
            manifest.stories[0].items[0].id, manifest.stories[0].items[1].id,
            manifest.stories[1].items[0].id,
        ])
        var navigator = StoryNavigator(manifest: manifest, seen: seen)
        #expect(navigator.playOrder == [1, 3, 0, 2])
        #expect(Samples.describe(navigator.current) == "s1#1")
        let steps = (0..<7).map { _ in Samples.describe(navigator.itemDidFinish()) }
        // s1 → s3 and s3 → s0 are not adjacent in the manifest: no transition joins them.
        #expect(steps == ["s1#2", "s3#0", "s0#0", "s0#1", "s2#0", "s2#1", "end"])
    }

    @Test func withoutTransitionsEveryMoveBetweenStoriesIsACut() {
        var navigator = StoryNavigator(manifest: Samples.manifest(items: [1, 2, 1], transitions: .none))
        #expect(Samples.describe(navigator.itemDidFinish()) == "s1#0")
        #expect(Samples.describe(navigator.tapBack()) == "s0#0")
        #expect(Samples.describe(navigator.swipeToNextStory()) == "s1#1", "at its first unseen item")
        #expect(Samples.describe(navigator.tapForward()) == "s2#0")
        #expect(Samples.describe(navigator.swipeToPreviousStory()) == "s1#0")
        #expect(Samples.describe(navigator.swipeToNextStory()) == "s2#0")
        #expect(Samples.describe(navigator.swipeToNextStory()) == "end")
    }

    @Test func bothDirectionsUseBackwardOnlyFromAFirstItem() {
        var navigator = StoryNavigator(manifest: Samples.manifest(items: [2, 2], transitions: .both))
        #expect(Samples.describe(navigator.swipeToNextStory()) == "s1#0", "not leaving from the last item")
        #expect(Samples.describe(navigator.tapForward()) == "s1#1")
        #expect(Samples.describe(navigator.swipeToPreviousStory()) == "s0#0", "not leaving from a first item")
        #expect(Samples.describe(navigator.tapForward()) == "s0#1")
        #expect(Samples.describe(navigator.tapForward()) == "forward:s1#0")
        #expect(Samples.describe(navigator.swipeToPreviousStory()) == "backward:s0#0")
    }

    /// From a QA pass: a tap during the turn into a story's first item marked that item seen, so
    /// the next visit started at the second item, with no transition; the item was never shown.
    @Test func anItemATapPassesOverDuringItsTransitionStaysUnseen() {
        let manifest = Samples.manifest(items: [2, 2])
        var navigator = StoryNavigator(manifest: manifest)
        _ = navigator.tapForward()
        #expect(Samples.describe(navigator.tapForward()) == "forward:s1#0")
        #expect(Samples.describe(navigator.tapForward()) == "s1#1", "the move starts from the landing")
        #expect(!navigator.seen.contains(manifest.stories[1].items[0].id))
        #expect(navigator.seen.contains(manifest.stories[1].items[1].id))
        var closedDuringTheTurn = StoryNavigator(manifest: manifest)
        _ = closedDuringTheTurn.itemDidFinish()
        _ = closedDuringTheTurn.itemDidFinish()
        #expect(!closedDuringTheTurn.seen.contains(manifest.stories[1].items[0].id))
        var swiped = StoryNavigator(manifest: manifest)
        _ = swiped.tapForward()
        _ = swiped.swipeToNextStory()
        #expect(Samples.describe(swiped.swipeToPreviousStory()) == "s0#0")
        #expect(swiped.seen.itemIDs == Set(manifest.stories[0].items.map(\.id)))
    }

    /// From a Kit review: a navigator marked an item seen at its step, where an app streaming the
    /// bundle had shown nothing of it yet. With `marksSeenOnPresent` a step marks nothing; the
    /// player's `itemDidPresent(_:)` for the item on screen, a turn's end and a clip it cannot
    /// play do. A second review: a late callback for an item a tap had passed marked the item
    /// then current, and a transition that could not play marked the item it landed on.
    @Test func marksSeenOnPresentWaitsForThePlayerToShowTheItem() {
        let manifest = Samples.manifest(items: [3, 2])
        func item(_ story: Int, _ index: Int) -> Manifest.Item { manifest.stories[story].items[index] }
        func id(_ story: Int, _ index: Int) -> String { item(story, index).id }
        var navigator = StoryNavigator(manifest: manifest, marksSeenOnPresent: true)
        #expect(navigator.seen.itemIDs.isEmpty, "the item it opens on has not shown yet")
        navigator.itemDidPresent(item(0, 0))
        #expect(navigator.seen.itemIDs == [id(0, 0)])
        _ = navigator.tapForward()
        #expect(Samples.describe(navigator.tapForward()) == "s0#2")
        navigator.itemDidPresent(item(0, 1))
        #expect(!navigator.seen.contains(id(0, 1)), "tapped past before it showed; its late callback marks nothing")
        #expect(!navigator.seen.contains(id(0, 2)), "nor the item then current")
        #expect(Samples.describe(navigator.itemDidFinish()) == "forward:s1#0")
        #expect(!navigator.seen.contains(id(0, 2)), "it never showed: its end alone does not mark it")
        navigator.itemDidPresent(item(1, 0))
        #expect(!navigator.seen.contains(id(1, 0)), "the turn's clip showed, not the item it lands on")
        _ = navigator.transitionDidFinish()
        #expect(navigator.seen.contains(id(1, 0)), "the turn ended on its face")
        navigator.itemDidPresent(item(1, 0))
        #expect(navigator.seen.itemIDs == [id(0, 0), id(1, 0)], "again: nothing more")
        let reopened = StoryNavigator(manifest: manifest, seen: navigator.seen, marksSeenOnPresent: true)
        #expect(Samples.describe(reopened.current) == "s0#1", "the item passed unseen plays next time")

        var skipping = StoryNavigator(manifest: manifest, marksSeenOnPresent: true)
        #expect(Samples.describe(skipping.clipCannotPlay()) == "s0#1")
        #expect(skipping.seen.itemIDs == [id(0, 0)], "passed over as unplayable counts as seen")
        _ = skipping.tapForward()
        #expect(Samples.describe(skipping.itemDidFinish()) == "forward:s1#0")
        #expect(Samples.describe(skipping.clipCannotPlay()) == "s1#0")
        _ = skipping.tapForward()
        #expect(!skipping.seen.contains(id(1, 0)), "a turn that could not play showed nothing of its landing")
        var atOnce = StoryNavigator(manifest: manifest)
        atOnce.itemDidPresent(item(0, 0))
        _ = atOnce.tapForward()
        #expect(atOnce.seen.itemIDs == [id(0, 0), id(0, 1)], "without it, each step marks its item")
        _ = atOnce.itemDidFinish()
        #expect(Samples.describe(atOnce.itemDidFinish()) == "forward:s1#0")
        #expect(Samples.describe(atOnce.clipCannotPlay()) == "s1#0")
        #expect(atOnce.seen.contains(id(1, 0)), "a cut to it, in that mode")
    }

    @Test func anEmptyManifestIsAtTheEnd() {
        var navigator = StoryNavigator(manifest: Samples.manifest(items: []))
        #expect(navigator.current == .end)
        #expect(navigator.tapBack() == .end)
        #expect(navigator.swipeToNextStory() == .end)
    }

    @Test func itemsAreMarkedSeenWhenOnScreenAndTheStateRoundTrips() throws {
        let manifest = Samples.manifest(items: [2, 1])
        var navigator = StoryNavigator(manifest: manifest)
        #expect(navigator.seen.itemIDs == [manifest.stories[0].items[0].id])
        _ = navigator.itemDidFinish()
        #expect(Samples.describe(navigator.itemDidFinish()) == "forward:s1#0")
        #expect(navigator.seen.itemIDs == Set(manifest.stories[0].items.map(\.id)), "s1#0 is still turning in")
        #expect(Samples.describe(navigator.transitionDidFinish()) == "s1#0")
        #expect(Samples.describe(navigator.transitionDidFinish()) == "s1#0", "no transition: nothing changes")
        #expect(navigator.seen.itemIDs == Set(manifest.stories.flatMap(\.items).map(\.id)))
        let reopened = StoryNavigator(manifest: manifest, seen: navigator.seen)
        #expect(reopened.playOrder == [0, 1], "all seen: manifest order")
        #expect(Samples.describe(reopened.current) == "s0#0")
    }

    @Test func progressFillsTheBarsBeforeTheCurrentItem() {
        var navigator = StoryNavigator(manifest: Samples.manifest(items: [3]))
        _ = navigator.itemDidFinish()
        #expect(navigator.progress(elapsed: 0.5) == [1, 0.25, 0])
        #expect(navigator.progress(elapsed: 9) == [1, 1, 0])
        #expect(navigator.progress(elapsed: -1) == [1, 0, 0])
    }

    /// From a QA pass: the README's player took a transition's still from the item it had last
    /// shown, so a move back during a forward turn (which reverses it from the landing's first
    /// frame) showed the story before's still under the turn. The navigator names the still.
    @Test func theStillUnderEachStepIsTheFaceItsClipStartsFrom() {
        var navigator = StoryNavigator(manifest: Samples.manifest(items: [2, 1], transitions: .both))
        #expect(navigator.currentStill == "stills/s0-0-first.jpg")
        _ = navigator.itemDidFinish()
        #expect(navigator.currentStill == "stills/s0-1-first.jpg")
        #expect(Samples.describe(navigator.itemDidFinish()) == "forward:s1#0")
        #expect(navigator.currentStill == "stills/s0-1-last.jpg", "a forward turn starts from the last frame")
        #expect(Samples.describe(navigator.tapBack()) == "backward:s0#0")
        #expect(navigator.currentStill == "stills/s1-0-first.jpg", "the reversed turn starts where it was heading")
        navigator.transitionDidFinish()
        #expect(navigator.currentStill == "stills/s0-0-first.jpg")
        for _ in 0..<3 { _ = navigator.tapForward() }
        #expect(Samples.describe(navigator.current) == "end")
        #expect(navigator.currentStill == nil)
    }

    /// From a QA pass: with two stories of one id (which `validate` refuses), the still under a
    /// turn was the first such story's, found by the transition's `from` id; the page, and now
    /// the navigator, take the story the turn leaves in play order.
    @Test func theStillUnderATurnIsFromTheStoryItLeavesWhereTwoShareAnID() {
        var manifest = Samples.manifest(items: [1, 1, 1], transitions: .both)
        manifest.stories[2].id = "s0"
        for index in manifest.transitions.indices {
            if manifest.transitions[index].from == "s2" { manifest.transitions[index].from = "s0" }
            if manifest.transitions[index].to == "s2" { manifest.transitions[index].to = "s0" }
        }
        var navigator = StoryNavigator(manifest: manifest)
        #expect(Samples.describe(navigator.itemDidFinish()) == "forward:s1#0")
        #expect(navigator.currentStill == "stills/s0-0-last.jpg")
        navigator.transitionDidFinish()
        #expect(Samples.describe(navigator.itemDidFinish()) == "forward:s0#0")
        #expect(navigator.currentStory == manifest.stories[2])
        #expect(navigator.currentStill == "stills/s1-0-last.jpg")
        navigator.transitionDidFinish()
        #expect(Samples.describe(navigator.tapBack()) == "backward:s1#0")
        #expect(navigator.currentStill == "stills/s2-0-first.jpg", "the second s0 is the story left")
    }

    /// A join listed twice (which `validate` refuses) plays the first listed, from the navigator
    /// and from `Manifest.transition(from:to:direction:)` alike (a QA pass: the page played the
    /// last, and the navigator's index must keep the first).
    @Test func aJoinListedTwicePlaysTheFirstListed() {
        var manifest = Samples.manifest(items: [1, 1], transitions: .both)
        for original in manifest.transitions {
            var again = original
            again.src = "transitions/again-\(original.direction).mp4"
            manifest.transitions.append(again)
        }
        #expect(manifest.transition(from: "s0", to: "s1", direction: .forward)?.src == "transitions/forward-0-1.mp4")
        var navigator = StoryNavigator(manifest: manifest)
        #expect(navigator.itemDidFinish().src == "transitions/forward-0-1.mp4")
        navigator.transitionDidFinish()
        #expect(navigator.tapBack().src == "transitions/backward-1-0.mp4")
    }

    /// From a QA pass: every move looked its transition up along the manifest's whole list (a
    /// play of 5,000 stories spent seconds there, one `upcomingAssets` 20 ms). The navigator
    /// indexes them once; here every join of a long reel is still found, each the right one.
    /// Its speed is not timed here (the house rule: speed is for `make bench`).
    @Test func aLongPlayFindsEveryJoinThroughItsIndex() {
        let manifest = Samples.manifest(items: Array(repeating: 1, count: 2_000), transitions: .both)
        var navigator = StoryNavigator(manifest: manifest)
        var joins: [String] = []
        while navigator.current != .end {
            if case .transition(let transition, _) = navigator.itemDidFinish() { joins.append(transition.src) }
        }
        #expect(joins == (0..<1_999).map { "transitions/forward-\($0)-\($0 + 1).mp4" })
    }

    /// From a QA pass: the play order was only to be had from a navigator, whose `init` marks the
    /// item it opens on seen, so an app sorting its story row marked an item seen never shown.
    @Test func thePlayOrderIsGivenWithoutMarkingAnythingSeen() {
        let manifest = Samples.manifest(items: [2, 1, 2], read: [0])
        let seen = SeenState(itemIDs: [manifest.stories[1].items[0].id])
        #expect(StoryNavigator.playOrder(of: manifest, seen: seen) == [2, 0, 1])
        let navigator = StoryNavigator(manifest: manifest, seen: seen)
        #expect(navigator.playOrder == [2, 0, 1])
        #expect(navigator.seen.itemIDs == seen.itemIDs.union([manifest.stories[2].items[0].id]), "init marks it")
        #expect(StoryNavigator.playOrder(of: Samples.manifest(items: [0, 1]), seen: SeenState()) == [1])
    }

    /// From a QA pass: fed the transition clip's time, as docs/playing.md's player does, the bar of
    /// the item a turn lands on filled during the turn and dropped back to 0 when the item
    /// started; the page keeps it at 0 while a transition plays.
    @Test func progressKeepsTheLandingItemAtZeroWhileATransitionTurns() {
        var navigator = StoryNavigator(manifest: Samples.manifest(items: [1, 2], transitions: .forward))
        #expect(Samples.describe(navigator.itemDidFinish()) == "forward:s1#0")
        #expect(navigator.progress(elapsed: 0.4) == [0, 0])
        navigator.transitionDidFinish()
        #expect(navigator.progress(elapsed: 0.4) == [0.2, 0])
    }

    @Test func upcomingAssetsFollowPlayOrderWithTransitionsAndTheSwipeTarget() {
        let manifest = Samples.manifest(items: [2, 1])
        var navigator = StoryNavigator(manifest: manifest)
        #expect(
            navigator.upcomingAssets(limit: 4) == [
                "stills/s0-1-first.jpg", "clips/s0-1.mp4", "stills/s1-0-first.jpg", "clips/s1-0.mp4",
            ])
        _ = navigator.itemDidFinish()
        // The face the forward turn starts on, the turn and its landing, then a swipe back's target.
        #expect(
            navigator.upcomingAssets(limit: 10) == [
                "stills/s0-1-last.jpg", "transitions/forward-0-1.mp4", "stills/s1-0-first.jpg", "clips/s1-0.mp4",
                "stills/s0-0-first.jpg", "clips/s0-0.mp4",
            ])
        #expect(navigator.upcomingAssets(limit: 1) == ["stills/s0-1-last.jpg"])
        _ = navigator.itemDidFinish()
        _ = navigator.transitionDidFinish()
        #expect(
            navigator.upcomingAssets(limit: 10) == ["stills/s0-0-first.jpg", "clips/s0-0.mp4"],
            "on the last story's only item: the end next, and a swipe back to s0")
        #expect(navigator.upcomingAssets(limit: 0) == [])
    }

    /// Thousands of random events on many bundle shapes: every step names a story and an item
    /// the manifest has, a transition joins the story on screen to the one it lands on with
    /// the bundle's own transition, and once at the end everything stays there.
    @Test func randomEventsNeverNameWhatDoesNotExist() {
        var generator = SplitMix64(seed: 11)
        let shapes: [[Int]] = [[1], [3], [1, 1], [2, 3, 1], [4, 1, 2, 2], [1, 1, 1, 1, 1]]
        for shape in shapes {
            for transitions in [ManifestSamples.Transitions.none, .forward, .both] {
                let manifest = Samples.manifest(items: shape, transitions: transitions)
                for _ in 0..<40 {
                    var navigator = StoryNavigator(manifest: manifest)
                    var ended = false
                    for _ in 0..<60 {
                        let before = navigator.currentStory?.id
                        let step: PlaybackStep
                        switch generator.next() % 5 {
                        case 0: step = navigator.itemDidFinish()
                        case 1: step = navigator.tapForward()
                        case 2: step = navigator.tapBack()
                        case 3: step = navigator.swipeToNextStory()
                        default: step = navigator.swipeToPreviousStory()
                        }
                        if ended { #expect(step == .end) }
                        guard let (story, item) = step.landing else {
                            ended = true
                            continue
                        }
                        #expect(manifest.stories.contains(story))
                        #expect(story.items.contains(item))
                        if case .transition(let transition, _) = step {
                            #expect(manifest.transitions.contains(transition))
                            #expect(transition.from == before && transition.to == story.id)
                        }
                        #expect(navigator.current == step)
                    }
                }
            }
        }
    }
}

/// A small seeded generator, so the random test is the same every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
