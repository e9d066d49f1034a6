import Foundation

/// A fresh folder under the system temp directory, removed when the object goes away.
public final class TemporaryFolder: @unchecked Sendable {
    /// The folder.
    public let url: URL

    /// Creates the folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("storyreel-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `data` to `name` inside the folder and returns its path.
    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> String {
        let path = path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }
}
