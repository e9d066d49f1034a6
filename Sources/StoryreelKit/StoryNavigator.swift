/// What to play next in a bundle, as a pure state machine: no AVFoundation, no timers, no
/// clock. A player feeds it events (an item finished, a tap, a swipe) and plays the
/// ``PlaybackStep`` each returns; the rules are the "Playback rules" table of docs/playing.md.
///
/// - The play order is the manifest's stories that have items, with every seen story (``SeenState/hasSeen(_:)``) moved
///   after the unseen ones, keeping their order; it is fixed for the navigator's life.
/// - A story starts at its first unseen item, or its first item when all are seen.
/// - An item is marked seen when it is on screen: when a step is that item (a cut), and for an
///   item a transition lands on, once the transition has finished (``transitionDidFinish()``,
///   or the item finishing, ``itemDidFinish()``). An item a tap or a swipe passes over while
///   the transition into it still turns is not seen: it plays, with its transition, next time.
///   A navigator made with `marksSeenOnPresent` waits instead for the player to say the item
///   is on screen (``itemDidPresent(_:)``), as the player page waits for a paint.
/// - A transition plays only when its faces are what is on screen: `forward` from a story's
///   last item to the next story's first item, `backward` from a first item to a first item.
///   Otherwise the step is a cut (a plain ``PlaybackStep/item(story:item:)``). So is a move on
///   made while a transition turns: the item it lands on was never on screen, so no `forward`
///   turn starts from its last frame (a tap during the turn into a one-item story cuts to the
///   next story). A move back may reverse the turn: a `backward` turn starts from the landing's
///   first frame, the face the turn was heading for.
public struct StoryNavigator: Sendable {
    /// The bundle being played.
    public let manifest: Manifest
    /// The indexes of ``manifest``'s stories in play order.
    public let playOrder: [Int]
    /// The seen state, updated as items come on screen; save it when the player closes.
    public private(set) var seen: SeenState
    /// The step on screen now: the first one right after `init`.
    public private(set) var current: PlaybackStep
    /// When true, every move is a cut: no step is a ``PlaybackStep/transition(_:then:)``, and
    /// ``upcomingAssets(limit:)`` lists no transition clip. Set it from the viewer's Reduce
    /// Motion setting (`UIAccessibility.isReduceMotionEnabled`, and again when
    /// `reduceMotionStatusDidChangeNotification` arrives), as the player page follows
    /// `prefers-reduced-motion: reduce`. A transition already on screen plays on; the next move
    /// follows the new value.
    public var cutsOnly = false
    /// When true, a step marks nothing seen by itself: ``itemDidPresent(_:)`` marks the current
    /// item once the player has something of it on screen (its `firstFrame` still drawn, or its
    /// clip's first frame: `AVPlayerLayer.isReadyForDisplay`), as the player page marks an item
    /// once a still or a video frame is painted. For bundles that load over a network, where a
    /// tap can pass an item before anything of it showed: a step marks it at once, so it would
    /// be skipped next time, unwatched. An item a transition lands on is still marked when the
    /// turn finishes (``transitionDidFinish()``: its last frame is that item's face, on screen),
    /// as on the page, but not when the transition's clip cannot play (``clipCannotPlay()``:
    /// nothing of the turn showed); an item passed over as unplayable is marked, as in either mode.
    public let marksSeenOnPresent: Bool

    /// Where playback is: a slot in ``playOrder`` and an item index in that story; nil at the end.
    private var position: (slot: Int, item: Int)?

    /// True on the copies ``upcomingAssets(limit:)`` walks ahead with: they mark nothing seen.
    /// Their first mark copied the whole seen state (a Kit QA pass: 15 ms a call with 240,000
    /// items seen), and marks only decide where a story starts, which a walk that never comes
    /// back to a story it passed does not read again.
    private var isLookingAhead = false

    /// The manifest's transitions by what they join, built once: ``Manifest/transition(from:to:direction:)``
    /// reads the list from the start, and every move and every ``upcomingAssets(limit:)`` asked it
    /// (a QA pass: 20 ms for one `upcomingAssets` on 5,000 stories, a dropped frame on a phone).
    /// Where the manifest lists a join twice (which `validate` refuses) it holds the first, as
    /// that method returns it.
    private let transitions: [Manifest.Transition.ID: Manifest.Transition]

    /// A navigator at the start of `manifest`'s play order, given what was `seen` before, or
    /// opened on the story `storyID` (a tap in the story row, as the player page's `open`):
    /// the play order is the same, and playback starts at that story's first unseen item, with
    /// the stories before it in play order left as they were (a swipe back reaches them). An
    /// id not in the play order opens at its start. An empty manifest starts (and stays) at the
    /// end. A story with no items (which `render` never writes, and `validate` refuses, but
    /// which decodes) is left out of the play order.
    ///
    /// `cutsOnly` starts ``cutsOnly`` (Reduce Motion) at that value.
    ///
    /// The item it opens on is on screen, so ``seen`` marks it seen at once, unless
    /// `marksSeenOnPresent` (``marksSeenOnPresent``) leaves that to ``itemDidPresent(_:)``. For the
    /// play order alone (a story row drawn before the viewer opens), ask ``playOrder(of:seen:)``,
    /// which marks nothing.
    ///
    /// `playOrder`, when given, is the order to play instead of sorting again: the story row's as
    /// it shows (indexes into `manifest.stories`, e.g. an earlier ``playOrder(of:seen:)`` the row
    /// keeps while it is on screen), so a story opened from the row is followed by the stories to
    /// its right and preceded by the one on its left, as the player page plays. Sorted again, a
    /// story watched and closed moved after the unseen ones, and opened again from the row's
    /// start it was followed by the stories after them, skipping those beside it (a player page
    /// QA pass). Indexes out of range, repeated, or of stories with no items are left out.
    public init(
        manifest: Manifest, seen: SeenState = SeenState(), openingAt storyID: String? = nil, cutsOnly: Bool = false,
        marksSeenOnPresent: Bool = false, playOrder order: [Int]? = nil
    ) {
        self.manifest = manifest
        self.cutsOnly = cutsOnly
        self.marksSeenOnPresent = marksSeenOnPresent
        self.seen = seen
        transitions = Dictionary(
            manifest.transitions.map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        if let order {
            var kept = Set<Int>()
            playOrder = order.filter {
                manifest.stories.indices.contains($0) && !manifest.stories[$0].items.isEmpty && kept.insert($0).inserted
            }
        } else {
            playOrder = Self.playOrder(of: manifest, seen: seen)
        }
        current = .end
        if !playOrder.isEmpty {
            let slot = storyID.flatMap { id in playOrder.firstIndex { manifest.stories[$0].id == id } } ?? 0
            current = land(slot: slot, item: startItem(ofSlot: slot))
            markOnScreenItemSeen()
        }
    }

    /// The indexes of `manifest`'s stories in the order a navigator given `seen` plays them
    /// (``playOrder``): the stories with items, the seen ones (``SeenState/hasSeen(_:)``) after
    /// the others, each group in the manifest's order. It marks nothing seen, unlike a
    /// navigator's `init`, so an app sorts its story row with it without marking a first item
    /// seen that was never shown (a QA pass).
    public static func playOrder(of manifest: Manifest, seen: SeenState) -> [Int] {
        let indexes = manifest.stories.indices.filter { !manifest.stories[$0].items.isEmpty }
        let unseen = indexes.filter { !seen.hasSeen(manifest.stories[$0]) }
        let seenStories = indexes.filter { seen.hasSeen(manifest.stories[$0]) }
        return unseen + seenStories
    }

    /// The story on screen (or landed on by the current transition); nil at the end.
    public var currentStory: Manifest.Story? { current.landing?.story }
    /// The item on screen (or landed on by the current transition); nil at the end.
    public var currentItem: Manifest.Item? { current.landing?.item }
    /// ``currentItem``'s index in ``currentStory``'s items, for a caption such as the page's
    /// "item 2 of 3" (`currentItemIndex + 1` of `currentStory.items.count`); nil at the end. Two
    /// items with one id (which `validate` refuses) are told apart (a Kit QA pass: an app
    /// searched the story's items for it).
    public var currentItemIndex: Int? { position?.item }
    /// ``currentStory``'s index in ``playOrder``, for a caption such as "story 2 of 5" or a pager
    /// (`currentStoryPosition + 1` of `playOrder.count`); nil at the end. A Kit consumer review:
    /// an app searched `playOrder` for the story's id, which two stories may share.
    public var currentStoryPosition: Int? { position?.slot }

    /// The still a player shows under the current step until its clip presents a frame, so
    /// nothing flashes while the clip loads (a path relative to the manifest; nil at the end, or
    /// when the bundle has no such still): for an item, its `firstFrame`; for a transition, the
    /// clip's own first face, which is the `lastFrame` of the last item of the story it turns
    /// from (`forward`) or the `firstFrame` of that story's first item (`backward`: a move back
    /// during a turn reverses it from the face it was heading for, not from what was on screen
    /// before the turn).
    public var currentStill: String? {
        switch current {
        case .item(_, let item):
            return item.firstFrame
        case .transition(let transition, _):
            // The story turned from is the one left in play order, next to the landing's slot,
            // as the page takes the item it left. Looked up by its id, it was the first story of
            // that id: another story's face where two share one (which `validate` refuses; a QA pass).
            guard let position else { return nil }
            let fromSlot = transition.direction == .forward ? position.slot - 1 : position.slot + 1
            guard playOrder.indices.contains(fromSlot) else { return nil }
            let from = story(atSlot: fromSlot)
            return transition.direction == .forward ? from.items.last?.lastFrame : from.items.first?.firstFrame
        case .end:
            return nil
        }
    }

    /// The current item played to its end: the next item, or after a story's last item the
    /// next story (through its `forward` transition when it joins what is on screen). Called
    /// while a transition is current, the item it landed on played and finished: it is seen, and
    /// passed. A player's end-of-clip callback, which also fires at a transition's end, calls
    /// ``clipDidFinish()`` instead.
    @discardableResult
    public mutating func itemDidFinish() -> PlaybackStep {
        transitionDidFinish()
        return advance()
    }

    /// Something of `item` is on screen: its `firstFrame` still was drawn, or its clip presented
    /// a frame. It marks `item` seen when it is the current step's item, and does nothing
    /// otherwise: while a transition is current (the transition's clip is what showed, and the
    /// item it lands on is not on screen yet), at the end, and for a callback that comes late,
    /// after a tap moved on (a still loaded in the background, a KVO change hopped to the main
    /// actor), so the item passed stays unseen, as the page drops a paint of a step it left.
    /// Calling it again does nothing more. A navigator made without `marksSeenOnPresent` has
    /// marked the item already, so a player may call it either way. An app calls it only while
    /// it is in the foreground, as the page marks nothing while it is hidden.
    public mutating func itemDidPresent(_ item: Manifest.Item) {
        if case .item(_, let shown) = current, shown.id == item.id { seen.markSeen(item.id) }
    }

    /// Passes over the clip of ``current`` because the player cannot play it (a path that would
    /// leave the bundle, a file that is not there). A transition lands on its item, as its end
    /// would, but as a cut to it: with ``marksSeenOnPresent`` the item waits for
    /// ``itemDidPresent(_:)``, as nothing of the turn showed. An item counts as seen, as if it had played (so a story of such clips does not stay
    /// first in the row), and moves on as ``itemDidFinish()`` does, but never through a `forward`
    /// transition: that starts from the item's last frame, which was never on screen, so leaving
    /// the story from it is a cut (a QA pass: the README's loop, calling ``clipDidFinish()``,
    /// showed the skipped clip's last frame and turned the cube from it).
    @discardableResult
    public mutating func clipCannotPlay() -> PlaybackStep {
        if case .transition(_, let then) = current {
            // Lands as the turn's end would, but nothing of the turn showed: its face is not on screen.
            current = then
            markOnScreenItemSeen()
            return current
        }
        guard let position else { return .end }
        markCurrentItemSeen()
        if position.item + 1 < story(atSlot: position.slot).items.count {
            current = land(slot: position.slot, item: position.item + 1)
        } else {
            current = moveForward(leavingLastItem: false)
        }
        markOnScreenItemSeen()
        return current
    }

    /// The clip of ``current`` played to its end, whichever kind it is: a transition's end lands
    /// on its item (``transitionDidFinish()``), an item's moves on (``itemDidFinish()``). What a
    /// player's one end-of-clip callback calls (a clip it cannot play is ``clipCannotPlay()``'s).
    @discardableResult
    public mutating func clipDidFinish() -> PlaybackStep {
        if case .transition = current { return transitionDidFinish() }
        return itemDidFinish()
    }

    /// The clip of `step` played to its end: ``clipDidFinish()`` while `step` is still
    /// ``current``, returning the step to show next. A callback that comes late, after a tap or a
    /// swipe moved on (an end-of-clip notification hopping to the main actor), names a step that
    /// is no longer current: it does nothing and returns nil, so the step now current is neither
    /// skipped nor marked seen, nor shown again (a Kit consumer review: a late end after a tap
    /// forward skipped the next item and marked it seen). A player whose end-of-clip callbacks can
    /// come late passes the step that clip was started for.
    @discardableResult
    public mutating func clipDidFinish(_ step: PlaybackStep) -> PlaybackStep? {
        step == current ? clipDidFinish() : nil
    }

    /// The clip of `step` cannot play: ``clipCannotPlay()`` while `step` is still ``current``,
    /// returning the step to show next; a report that comes late (an `AVPlayerItem` that failed
    /// after a tap moved on) does nothing and returns nil, as ``clipDidFinish(_:)`` does.
    @discardableResult
    public mutating func clipCannotPlay(_ step: PlaybackStep) -> PlaybackStep? {
        step == current ? clipCannotPlay() : nil
    }

    /// The transition clip played to its end: the item it lands on is now on screen, and seen.
    /// Any other step stays as it is. Returns the current step.
    @discardableResult
    public mutating func transitionDidFinish() -> PlaybackStep {
        if case .transition(_, let then) = current {
            current = then
            markCurrentItemSeen()  // the turn's last frame, its face, is on screen in either mode
        }
        return current
    }

    /// A tap on the right: the same move as the item finishing; during a transition, the item it
    /// was turning to is passed over unseen (and the move is a cut).
    @discardableResult
    public mutating func tapForward() -> PlaybackStep {
        advance()
    }

    /// True while a transition is the current step: its landing item is not on screen yet, so
    /// no `forward` turn may start from its last frame.
    private var isTurning: Bool {
        if case .transition = current { return true }
        return false
    }

    /// A tap on the left: the previous item; on a story's first item, the previous story from
    /// its first item (through its `backward` transition when the bundle has one); on the very
    /// first item, that item again.
    @discardableResult
    public mutating func tapBack() -> PlaybackStep {
        guard let position else { return .end }
        if position.item > 0 {
            current = land(slot: position.slot, item: position.item - 1)
        } else if position.slot == 0 {
            current = land(slot: 0, item: 0)
        } else {
            current = moveBack(leavingFirstItem: true)
        }
        markOnScreenItemSeen()
        return current
    }

    /// A swipe to the next story, at its first unseen item; the `forward` transition plays
    /// only when leaving from a last item and arriving at a first item.
    @discardableResult
    public mutating func swipeToNextStory() -> PlaybackStep {
        guard let position else { return .end }
        current = moveForward(
            leavingLastItem: !isTurning && position.item == story(atSlot: position.slot).items.count - 1)
        markOnScreenItemSeen()
        return current
    }

    /// A swipe to the previous story, from its first item; the `backward` transition plays only
    /// when leaving from a first item. On the first story: that story again from its first item.
    @discardableResult
    public mutating func swipeToPreviousStory() -> PlaybackStep {
        guard let position else { return .end }
        if position.slot == 0 {
            current = land(slot: 0, item: 0)
        } else {
            current = moveBack(leavingFirstItem: position.item == 0)
        }
        markOnScreenItemSeen()
        return current
    }

    /// The fractions (0…1) of the current story's progress bars: 1 for the items before the
    /// current one, `elapsed` over its duration for it, 0 after it. While a transition is
    /// current, the item it lands on has not started: its bar is 0 whatever `elapsed` is (the
    /// transition clip's time), as on the player page. Empty at the end.
    public func progress(elapsed: Double) -> [Double] {
        guard let position else { return [] }
        let items = story(atSlot: position.slot).items
        let turning = isTurning
        return items.indices.map { index in
            if index < position.item { return 1 }
            if index > position.item || turning { return 0 }
            let duration = items[index].duration
            guard duration > 0, elapsed.isFinite else { return elapsed > 0 ? 1 : 0 }
            return min(max(elapsed / duration, 0), 1)
        }
    }

    /// Up to `limit` files worth prefetching, in the order they may be needed, relative to the
    /// manifest, much as the player page warms them (the page also keeps the current item's
    /// `lastFrame` for its stills fallback); a small `limit` leaves the later ones out:
    /// 1. while a transition plays, the item it lands on (its `firstFrame` and `src`);
    /// 2. the current item's `lastFrame` when the item finishing turns a `forward` transition
    ///    (the face it turns from);
    /// 3. what the item finishing leads to (a transition's `src`, then the item's `firstFrame`
    ///    and `src`);
    /// 4. the items a swipe to the next and to the previous story land on (their `firstFrame`
    ///    and `src`; not a transition a swipe may play, which the page does not preload either);
    /// 5. onwards in play order, at most `limit × 8 + 64` steps ahead.
    ///
    /// It does not change the navigator.
    public func upcomingAssets(limit: Int) -> [String] {
        guard limit > 0 else { return [] }
        var assets: [String] = []
        var listed: Set<String> = []
        func add(_ asset: String?) {
            if let asset, listed.insert(asset).inserted { assets.append(asset) }
        }
        func add(_ step: PlaybackStep) {
            switch step {
            case .item(_, let item):
                add(item.firstFrame)
                add(item.src)
            case .transition(let transition, let then):
                add(transition.src)
                add(then)
            case .end: break
            }
        }
        // A transition on screen has yet to hand over to the item it lands on.
        if case .transition(_, let then) = current { add(then) }
        var lookingAhead = self
        lookingAhead.isLookingAhead = true
        var ahead = lookingAhead
        let next = ahead.itemDidFinish()
        if case .transition(let transition, _) = next, transition.direction == .forward {
            add(current.landing?.item.lastFrame)
        }
        add(next)
        var swiped = lookingAhead
        if let landing = swiped.swipeToNextStory().landing { add(.item(story: landing.story, item: landing.item)) }
        var swipedBack = lookingAhead
        // On the first story's first item it is that item again, which is on screen.
        if let landing = swipedBack.swipeToPreviousStory().landing, landing.item != current.landing?.item {
            add(.item(story: landing.story, item: landing.item))
        }
        // A bounded walk: where items share files (reposts), fewer than `limit` distinct ones may
        // lie ahead, and the walk went to the end of the play order on every call (a QA pass:
        // 94 ms a call over 60,000 items sharing one clip).
        var steps = 0
        // Saturated: `Int.max` for "everything" trapped on the overflow (a re-check).
        let maximumSteps = limit > (Int.max - 64) / 8 ? Int.max : limit * 8 + 64
        while assets.count < limit, ahead.position != nil, steps < maximumSteps {
            add(ahead.itemDidFinish())
            steps += 1
        }
        return Array(assets.prefix(limit))
    }

    // MARK: - Moves

    private func story(atSlot slot: Int) -> Manifest.Story {
        manifest.stories[playOrder[slot]]
    }

    /// The first unseen item of the story in `slot`, or 0 when all are seen.
    private func startItem(ofSlot slot: Int) -> Int {
        story(atSlot: slot).items.firstIndex { !seen.contains($0.id) } ?? 0
    }

    /// The next item, or after a story's last item the next story.
    private mutating func advance() -> PlaybackStep {
        guard let position else { return .end }
        if position.item + 1 < story(atSlot: position.slot).items.count {
            current = land(slot: position.slot, item: position.item + 1)
        } else {
            current = moveForward(leavingLastItem: !isTurning)
        }
        markOnScreenItemSeen()
        return current
    }

    /// The transition from story `from` to story `to` turning `direction`, when the bundle has
    /// it: the first listed, as ``Manifest/transition(from:to:direction:)`` gives it, in constant time.
    private func transition(from: String, to: String, direction: Manifest.Transition.Direction)
        -> Manifest.Transition?
    {
        transitions[Manifest.Transition.ID(from: from, to: to, direction: direction)]
    }

    /// Puts playback on `item` of the story in `slot` and returns the step.
    private mutating func land(slot: Int, item: Int) -> PlaybackStep {
        position = (slot, item)
        let story = story(atSlot: slot)
        return .item(story: story, item: story.items[item])
    }

    /// Marks the current step's item seen as the step puts it on screen (a cut, not a
    /// transition's landing), unless ``marksSeenOnPresent`` waits for ``itemDidPresent(_:)``.
    private mutating func markOnScreenItemSeen() {
        if !marksSeenOnPresent { markCurrentItemSeen() }
    }

    /// Marks the current step's item seen; nothing while a transition is current.
    private mutating func markCurrentItemSeen() {
        if !isLookingAhead, case .item(_, let item) = current { seen.markSeen(item.id) }
    }

    /// To the next story in play order at its first unseen item, or the end.
    private mutating func moveForward(leavingLastItem: Bool) -> PlaybackStep {
        guard let position else { return .end }
        let from = story(atSlot: position.slot)
        let slot = position.slot + 1
        guard slot < playOrder.count else {
            self.position = nil
            return .end
        }
        let item = startItem(ofSlot: slot)
        let landing = land(slot: slot, item: item)
        if leavingLastItem, item == 0, !cutsOnly,
            let transition = transition(from: from.id, to: story(atSlot: slot).id, direction: .forward)
        {
            return .transition(transition, then: landing)
        }
        return landing
    }

    /// To the previous story in play order from its first item.
    private mutating func moveBack(leavingFirstItem: Bool) -> PlaybackStep {
        guard let position, position.slot > 0 else { return .end }
        let from = story(atSlot: position.slot)
        let landing = land(slot: position.slot - 1, item: 0)
        if leavingFirstItem, !cutsOnly,
            let transition = transition(from: from.id, to: story(atSlot: position.slot - 1).id, direction: .backward)
        {
            return .transition(transition, then: landing)
        }
        return landing
    }
}
