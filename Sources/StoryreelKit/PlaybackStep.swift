/// What a player shows next, as ``StoryNavigator`` decides it.
public indirect enum PlaybackStep: Sendable, Equatable {
    /// Play `item` of `story`.
    case item(story: Manifest.Story, item: Manifest.Item)
    /// Play the transition clip, then the step it lands on (always an ``item(story:item:)``).
    case transition(Manifest.Transition, then: PlaybackStep)
    /// Nothing more to play.
    case end

    /// The story and item this step plays or lands on; nil at the end.
    public var landing: (story: Manifest.Story, item: Manifest.Item)? {
        switch self {
        case .item(let story, let item): return (story, item)
        case .transition(_, let then): return then.landing
        case .end: return nil
        }
    }
}
