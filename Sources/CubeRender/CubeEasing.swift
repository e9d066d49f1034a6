/// The easing curve that maps normalised time `t` in [0, 1] to turn progress `p` in [0, 1].
public enum CubeEasing: String, Sendable, CaseIterable {
    /// Smoothstep: `p = t²(3 − 2t)`. Starts and ends gently.
    case smooth
    /// Constant speed: `p = t`.
    case linear

    /// Returns the progress `p` for normalised time `t` (not clamped; callers pass `t` in [0, 1]).
    public func progress(at t: Double) -> Double {
        switch self {
        case .smooth:
            return t * t * (3 - 2 * t)
        case .linear:
            return t
        }
    }
}
