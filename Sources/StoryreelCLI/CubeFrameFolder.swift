import Foundation
import StoryMedia
import StoryPipeline

/// `cube --frames-dir DIR`'s folder: which `frame_*.png` in it storyreel wrote. A run records
/// the frames it wrote, each with its size and SHA-256, in `DIR/.storyreel-frames`; the next run
/// replaces them and removes those it does not write again (a shorter transition), and refuses a
/// folder holding a `frame_*` file that no run recorded, or one changed since, rather than leave
/// a mix of two transitions or replace or delete a stranger's work (a QA pass: a frame a user
/// had edited was written over, and one past the new run's end removed, with exit 0).
/// Two runs into one folder take turns (`flock` on the folder itself, so no lock file is left
/// there): the folder is created when missing, locked, and only then read. The frames are
/// staged under temporary names and take theirs only once the whole run has succeeded, so an
/// interrupted or failed run leaves the earlier run's frames as they were.
struct CubeFrameFolder {
    /// The folder.
    let path: String
    /// The frames an earlier run recorded that are still there, as it wrote them (see
    /// ``checkEarlierFrames()``), with what the record says each holds: nil for a frame recorded
    /// without its contents, one about to take its name when a run stopped (or a record an
    /// older storyreel wrote), storyreel's whatever it holds.
    private(set) var earlierFrames: [String: FileContents?] = [:]
    /// Held for the whole run.
    private let lock: BundleLock
    /// The folder (and parents) this run created, removed again if it fails while they are empty.
    private let created: CreatedOutputs

    /// The record's name inside the folder.
    static let recordName = ".storyreel-frames"

    /// True for a name the folder keeps for frames (`frame_*`): a run's own, or one it refuses.
    static func isFrameName(_ name: String) -> Bool { name.hasPrefix("frame_") }

    /// The names of the `frame_*` files in `path` (none when it is missing), sorted.
    static func frameNames(in path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter(isFrameName).sorted()
    }

    /// Throws 64 when one of `outputs` (path by option) is a frame's name in the frames folder
    /// `folder`, which exists by now (the folder is compared by device and inode, however
    /// spelled). A QA pass found `--filmstrip DIR/frame_0100.png` written, and then every later
    /// run into DIR refused (73) as holding a frame storyreel did not write, until it was removed
    /// by hand.
    static func checkNoFrameNames(_ outputs: [String: String?], in folder: String) throws {
        let frames = FileIdentity(path: folder)
        for (option, path) in outputs.sorted(by: { $0.key < $1.key }) {
            guard let path, isFrameName((path as NSString).lastPathComponent), frames != nil else { continue }
            let parent = (path as NSString).deletingLastPathComponent
            guard FileIdentity(path: parent.isEmpty ? "." : parent) == frames else { continue }
            throw UsageError(
                "\(option) '\(path)': a frame's name (frame_*) in --frames-dir's folder, which holds only frames; "
                    + "name it otherwise or put it elsewhere")
        }
    }

    /// Creates `path` when missing and takes its lock, waiting up to `lockTimeout` seconds for
    /// another run (`--timeout`) and telling `waiting` once when it has to wait; then removes the
    /// temporary files a killed run left there.
    init(locking path: String, lockTimeout: Double, waiting: (Int32?) -> Void) throws {
        self.path = path
        var created = CreatedOutputs()
        try created.createFolder(path)
        do {
            lock = try BundleLock(
                folderItself: path, timeout: lockTimeout, option: "--timeout", waiting: waiting,
                remake: { try created.createFolder(path) })
        } catch {
            created.removeAll()
            throw error
        }
        self.created = created
        TemporaryFile.removeStale(in: path)
    }

    /// Reads the earlier run's frames; throws 73 when the folder holds a `frame_*` file that no
    /// run of storyreel recorded, that is not a regular file, or that has changed since.
    mutating func checkEarlierFrames() throws {
        earlierFrames = try Self.checkedFrames(in: path)
    }

    /// Removes the folder (and the parents) this run created, each only while it is empty: after
    /// a run that failed.
    func removeIfCreated() {
        created.removeAll()
    }

    /// The `frame_*` files in `path` with their recorded contents; throws 73 when one is not
    /// recorded, not a regular file, or not what the record says it holds.
    private static func checkedFrames(in path: String) throws -> [String: FileContents?] {
        let frames = Set(Self.frameNames(in: path))
        let recordPath = (path as NSString).appendingPathComponent(Self.recordName)
        let recorded = try Self.recordedFrames(at: recordPath)
        let strangers = frames.subtracting(recorded.keys).sorted(by: NaturalOrder.areInIncreasingOrder)
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
        let changed = frames.sorted(by: NaturalOrder.areInIncreasingOrder).filter { name in
            guard case .some(.some(let contents)) = recorded[name] else { return false }
            return !contents.isHeld(at: (path as NSString).appendingPathComponent(name))
        }
        if let first = changed.first {
            let more = changed.count > 1 ? " and \(changed.count - 1) more" : ""
            throw MediaError(
                .cannotCreateOutput, path: path,
                "holds \(first)\(more), changed since storyreel wrote it; move it away or give another --frames-dir")
        }
        return recorded.filter { frames.contains($0.key) }
    }

    /// Before a run's `frameCount` frames take their names: checks the folder again, then
    /// records them (without contents: any of them may be replaced when the run stops) with the
    /// earlier run's, so the record lists every frame whatever happens next. Throws 73 when a
    /// frame changed, or a stranger's `frame_*` file came, while the run rendered (a re-check: a
    /// frame edited mid-run was written over, one past the new run's end removed), and when the
    /// record cannot be written: either way before any frame is replaced.
    func recordPlannedRun(frameCount: Int) throws {
        _ = try Self.checkedFrames(in: path)
        var planned = earlierFrames
        for name in Self.names(frameCount: frameCount) { planned[name] = .some(nil) }
        try record(planned)
    }

    /// After a run whose `frameCount` frames have their names: removes the earlier run's frames
    /// past them and records exactly the new ones, with their contents. A record that cannot be
    /// written now leaves the one ``recordPlannedRun(frameCount:)`` wrote, which still lists
    /// every frame there.
    func recordRun(frameCount: Int) {
        let written = Self.names(frameCount: frameCount)
        for stale in Set(earlierFrames.keys).subtracting(written) {
            try? FileManager.default.removeItem(atPath: (path as NSString).appendingPathComponent(stale))
        }
        let contents = written.map { FileContents(ofFileAt: (path as NSString).appendingPathComponent($0)) }
        try? record(Dictionary(uniqueKeysWithValues: zip(written, contents)))
    }

    /// `frame_0000.png` … for `frameCount` frames.
    static func names(frameCount: Int) -> [String] {
        (0..<frameCount).map { (CubeTransitionJob.framePath(in: "", index: $0) as NSString).lastPathComponent }
    }

    /// The frames the record at `recordPath` lists, none when there is none. Throws 73 when
    /// something else has the record's name (a QA pass: a user's file there was written over
    /// with exit 0, as `thumbnail --out-dir` refuses its own record's name).
    private static func recordedFrames(at recordPath: String) throws -> [String: FileContents?] {
        guard let entry = FileStamp(path: recordPath, followingLinks: false) else { return [:] }
        let refusal = MediaError(
            .cannotCreateOutput, path: recordPath, "is not a record of frames storyreel wrote; move it away")
        guard entry.isRegularFile else { throw refusal }
        let data: Data
        do {
            data = try RegularFile.contents(of: recordPath, maxSize: 1 << 20)
        } catch let error as MediaError where error.kind == .missingInput {
            return [:]
        } catch let error as MediaError where error.kind == .systemLimit {
            throw error
        } catch {
            throw refusal
        }
        // One frame a line, each line ended (the record is written whole, atomically): a name a
        // run writes (`frame_0003.png`), then its size and SHA-256 when known. Lines that only
        // began with `frame_`, or only newlines, were taken for a record and written over (a
        // re-check).
        guard let text = String(data: data, encoding: .utf8), text.isEmpty || text.hasSuffix("\n") else {
            throw refusal
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        if lines == [""] { return [:] }
        var frames: [String: FileContents?] = [:]
        for line in lines {
            guard let (name, contents) = parsedLine(line) else { throw refusal }
            frames[name] = .some(contents)
        }
        return frames
    }

    /// A record's line: `frame_0003.png`, or `frame_0003.png 81234 <64 hex digits>`.
    private static func parsedLine(_ line: Substring) -> (String, FileContents?)? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard let name = fields.first, isWrittenFrameName(name) else { return nil }
        if fields.count == 1 { return (String(name), nil) }
        let hex = Set("0123456789abcdef")
        guard fields.count == 3, fields[1].allSatisfy(\.isASCII),
            let size = UInt64(fields[1]).flatMap(Int.init(exactly:)),
            fields[2].count == 64, fields[2].allSatisfy(hex.contains)
        else { return nil }
        return (String(name), FileContents(size: size, sha256: String(fields[2])))
    }

    /// True for a name a run writes: `frame_` and at least four digits, then `.png`.
    private static func isWrittenFrameName(_ name: Substring) -> Bool {
        guard name.hasPrefix("frame_"), name.hasSuffix(".png") else { return false }
        let digits = name.dropFirst("frame_".count).dropLast(".png".count)
        return digits.count >= 4 && digits.allSatisfy { ("0"..."9").contains($0) }
    }

    /// Writes `frames` as the folder's record, in frame order.
    private func record(_ frames: [String: FileContents?]) throws {
        let recordPath = (path as NSString).appendingPathComponent(Self.recordName)
        let lines = frames.keys.sorted(by: NaturalOrder.areInIncreasingOrder).map { name in
            guard case .some(.some(let contents)) = frames[name] else { return name }
            return "\(name) \(contents.size) \(contents.sha256)"
        }
        try AtomicFile.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: recordPath)
    }
}
