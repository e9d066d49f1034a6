/// A typed option declaration (``Option`` or ``Flag``) as a command lists it.
public protocol OptionDeclaration: Sendable {
    /// How the parser and `--help` see it.
    var spec: OptionSpec { get }
}
