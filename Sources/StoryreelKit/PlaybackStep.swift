/// What a player shows next, as ``StoryNavigator`` decides it.
public indirect enum PlaybackStep: Sendable, Hashable {
    /// Play `item` of `story`.
    case item(story: Manifest.Story, item: Manifest.Item)
    /// Play the transition clip, then the step it lands on (always an ``item(story:item:)``).
    case transition(Manifest.Transition, then: PlaybackStep)
    /// Nothing more to play.
    case end

    /// The clip this step plays, relative to the manifest: the item's `src`, or the transition's;
    /// nil at the end.
    public var src: String? {
        switch self {
        case .item(_, let item): return item.src
        case .transition(let transition, _): return transition.src
        case .end: return nil
        }
    }

    /// The story and item this step plays or lands on; nil at the end.
    public var landing: (story: Manifest.Story, item: Manifest.Item)? {
        switch self {
        case .item(let story, let item): return (story, item)
        case .transition(_, let then): return then.landing
        case .end: return nil
        }
    }
}
