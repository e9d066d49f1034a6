/// An option's value, or `auto`: storyreel chooses.
public enum OrAutomatic<Wrapped: Sendable>: Sendable {
    /// `auto` was given, or the option was not: storyreel chooses.
    case automatic
    /// The value given.
    case fixed(Wrapped)
}
