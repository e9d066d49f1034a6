/// An error raised when a cube transition cannot be set up: an invalid spec, a face of the wrong size,
/// or a pixel buffer whose length does not match its dimensions.
public struct CubeRenderError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A human-readable explanation of what is wrong, suitable for printing to a user.
    public let message: String

    /// Creates an error carrying a human-readable message.
    public init(_ message: String) {
        self.message = message
    }

    /// The human-readable message.
    public var description: String { message }
}
