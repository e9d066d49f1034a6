import Foundation

/// `samples/stories` rendered by the built binary at default settings, once per test process
/// and shared by every test that needs a real manifest: `demo` (`storyreel render
/// samples/stories OUT`) and `both-directions` (the same with `--both-directions`). The bundles
/// live in a temporary folder removed when the process exits.
public enum RenderedSamples {
    /// A rendered bundle of `samples/stories`.
    public enum Bundle: String, Sendable, CaseIterable {
        /// Default settings: forward transitions only.
        case demo
        /// With `--both-directions`.
        case bothDirections = "both-directions"

        var extraArguments: [String] { self == .demo ? [] : ["--both-directions"] }
    }

    /// The bundle folder of `bundle`, rendered on first use.
    public static func folder(_ bundle: Bundle) throws -> String {
        try store.folder(bundle)
    }

    /// The bytes of `bundle`'s `manifest.json`.
    public static func manifestData(_ bundle: Bundle) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: folder(bundle)).appendingPathComponent("manifest.json"))
    }

    private static let store = Store()

    /// The rendered folders, behind a lock: tests run in parallel.
    private final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var rendered: [Bundle: String] = [:]
        private let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("storyreel-rendered-samples-\(getpid())").path

        init() {
            atexit {
                let root = FileManager.default.temporaryDirectory
                    .appendingPathComponent("storyreel-rendered-samples-\(getpid())").path
                try? FileManager.default.removeItem(atPath: root)
            }
        }

        func folder(_ bundle: Bundle) throws -> String {
            lock.lock()
            defer { lock.unlock() }
            if let folder = rendered[bundle] { return folder }
            let folder = (root as NSString).appendingPathComponent(bundle.rawValue)
            try? FileManager.default.removeItem(atPath: folder)
            let stories = TestEnvironment.sample("stories")
            let result = try TestEnvironment.storyreel(
                ["render", stories, "-o", folder, "--quiet"] + bundle.extraArguments)
            guard result.status == 0 else {
                throw TestFailure("render of samples/stories (\(bundle.rawValue)) failed: \(result.stderr)")
            }
            rendered[bundle] = folder
            return folder
        }
    }
}
