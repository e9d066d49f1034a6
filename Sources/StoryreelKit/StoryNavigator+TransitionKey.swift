extension StoryNavigator {
    /// What a transition joins, as ``Manifest/transition(from:to:direction:)`` matches it: the
    /// key of the navigator's index of the manifest's transitions.
    struct TransitionKey: Hashable, Sendable {
        /// The story it leaves.
        var from: String
        /// The story it arrives at.
        var to: String
        /// Which way the cube turns.
        var direction: Manifest.Transition.Direction
    }
}
