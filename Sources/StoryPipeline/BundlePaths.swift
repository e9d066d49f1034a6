import Foundation

/// The layout of a bundle folder.
public enum BundlePaths {
    /// The subfolders that hold outputs.
    public static let outputFolders = ["clips", "posters", "thumbs", "avatars", "transitions"]
    /// The manifest's name.
    public static let manifest = "manifest.json"
    /// storyreel's private folder inside a bundle (the stat cache).
    public static let privateFolder = ".storyreel"

    /// `bundle/relative`.
    public static func join(_ bundle: String, _ relative: String) -> String {
        (bundle as NSString).appendingPathComponent(relative)
    }

    /// Removes temp files (dot-prefixed) a killed render left in the output folders.
    public static func removeStaleTemporaries(in bundle: String) {
        for folder in outputFolders + [""] {
            let path = join(bundle, folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            where name.hasPrefix(".") && name != ".lock" && name != privateFolder {
                try? FileManager.default.removeItem(atPath: join(path, name))
            }
        }
    }

    /// `target` relative to folder `base` (both absolute, standardized), e.g. `../stories/a.mov`.
    public static func relative(_ target: String, from base: String) -> String {
        let targetParts = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        let baseParts = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
        var common = 0
        while common < min(targetParts.count, baseParts.count), targetParts[common] == baseParts[common] {
            common += 1
        }
        let ups = Array(repeating: "..", count: baseParts.count - common)
        return (ups + targetParts[common...]).joined(separator: "/")
    }
}
