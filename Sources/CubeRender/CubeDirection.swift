/// Which way the cube turns.
public enum CubeDirection: String, Sendable, CaseIterable {
    /// The outgoing face swings away to the left while the incoming face swings in from the right.
    case forward
    /// The reverse motion: the frames of `forward` with the faces swapped, played in reverse order.
    /// Frame `k` of `backward(A, B)` equals frame `N - 1 - k` of `forward(B, A)`.
    case backward
}
