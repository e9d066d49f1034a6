import Foundation
import StoryMedia
import StoryPipeline

/// `cube --frames-dir DIR`'s folder: which `frame_*.png` in it storyreel wrote. A run records
/// the frames it wrote in `DIR/.storyreel-frames`; the next run replaces them and removes those
/// it does not write again (a shorter transition), and refuses a folder holding a `frame_*`
/// file that no run recorded, rather than leave a mix of two transitions or delete a stranger's.
struct CubeFrameFolder {
    /// The folder.
    let path: String
    /// The frame names an earlier run recorded, that are still there.
    let earlierFrames: Set<String>

    /// The record's name inside the folder.
    static let recordName = ".storyreel-frames"

    /// The names of the `frame_*` files in `path` (none when it is missing), sorted.
    static func frameNames(in path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasPrefix("frame_") }.sorted()
    }

    /// Reads `path` (missing: nothing to replace); throws 73 when it holds frames no run of
    /// storyreel recorded.
    init(checking path: String) throws {
        self.path = path
        let frames = Set(Self.frameNames(in: path))
        let recordPath = (path as NSString).appendingPathComponent(Self.recordName)
        let recorded =
            (try? RegularFile.contents(of: recordPath, maxSize: 1 << 20))
            .flatMap { String(data: $0, encoding: .utf8) }
            .map { Set($0.split(separator: "\n").map(String.init)) } ?? []
        let strangers = frames.subtracting(recorded).sorted(by: NaturalOrder.areInIncreasingOrder)
        if let first = strangers.first {
            let more = strangers.count > 1 ? " and \(strangers.count - 1) more" : ""
            throw MediaError(
                .cannotCreateOutput, path: path,
                "holds \(first)\(more), which storyreel did not write; give an empty or new folder to --frames-dir")
        }
        // A frame name holding a symlink or a folder would stop the run part-way, after it had
        // replaced (and, failing, removed) the frames before it: refused before any work.
        if let odd = frames.sorted(by: NaturalOrder.areInIncreasingOrder).first(where: {
            FileStamp(path: (path as NSString).appendingPathComponent($0), followingLinks: false)?.isRegularFile != true
        }) {
            throw MediaError(
                .cannotCreateOutput, path: path,
                "holds \(odd), which is not a regular file; storyreel replaces only regular files")
        }
        earlierFrames = frames
    }

    /// After a run that wrote `frameCount` frames: removes the earlier run's frames past them
    /// and records the new ones.
    func recordRun(frameCount: Int) throws {
        let written = (0..<frameCount).map {
            (CubeTransitionJob.framePath(in: path, index: $0) as NSString).lastPathComponent
        }
        for stale in earlierFrames.subtracting(written) {
            try? FileManager.default.removeItem(atPath: (path as NSString).appendingPathComponent(stale))
        }
        let recordPath = (path as NSString).appendingPathComponent(Self.recordName)
        try AtomicFile.write(Data((written.joined(separator: "\n") + "\n").utf8), to: recordPath)
    }
}
