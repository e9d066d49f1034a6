import Foundation
import StoryMedia

/// Whether an output file is whole and of the kind its name says, read cheaply: a JPEG from
/// its first and last bytes (a cut one lacks its end marker), a transition from its header and
/// sample index (``ClipProbe``: its frame count and size, and an index that points past the end
/// of a cut one). `validate` reports what this finds, and `render` adopts a file it did not
/// record writing (shards merged without their ledgers) only when this finds nothing.
enum OutputIntegrity {
    /// Why the image at `path` is not a whole JPEG (of `size` within `tolerance` pixels a side,
    /// when given: ``ImageSize``), or nil when it is one. Every image a bundle holds is a JPEG,
    /// whatever its name: an image checked only under a `.jpg` name let a manifest pointing a
    /// poster at a text file, the page or the lock file pass `validate` (a QA pass). `naming`:
    /// the output its bytes must not name otherwise (``OutputProvenance``), nor say nothing of
    /// when `required`.
    static func imageProblem(
        at path: String, size: Manifest.Size? = nil, tolerance: Int = 0, naming: Naming? = nil
    ) -> String? {
        do {
            let file = try RegularFile(path: path, timeout: 5)
            let head = try file.read(upTo: 3)
            guard head.elementsEqual([0xFF, 0xD8, 0xFF]) else { return "is not a JPEG" }
            // Cut short, or with bytes after its end (a QA pass: "cut" said of one with its end
            // marker and something appended).
            let unended =
                "is not a whole JPEG: it does not end with its end marker (cut short, or bytes added after it)"
            // Its start and end markers alone (4 bytes) end as they should, and hold no picture
            // (a QA pass: it was said not to end with its end marker).
            guard file.size > 4 else { return "is not a whole JPEG: it holds its start and end markers only" }
            try file.seek(to: file.size - 2)
            guard try file.read(upTo: 2).elementsEqual([0xFF, 0xD9]) else { return unended }
            let found = try StillImageHeader.jpegSize(of: file)
            // Its bytes against the most a JPEG of its size can hold: a real one's start and
            // end around gigabytes of anything passed (a QA pass: 3 GB, a hole between them, in
            // place of a 270x480 poster, which every player would then download).
            if let most = mostBytes(width: found.width, height: found.height), file.size > most {
                return "is \(file.size) bytes, more than a \(found.width)x\(found.height) JPEG can hold (\(most))"
            }
            if let size {
                if !within(found.width, size.width, tolerance) || !within(found.height, size.height, tolerance) {
                    return "is \(found.width)x\(found.height), not \(size.width)x\(size.height)"
                }
            }
            if let naming {
                let verdict = OutputProvenance.jpegVerdict(path, output: naming.output, timeout: naming.timeout)
                if let problem = naming.problem(verdict) { return problem }
            }
            return nil
        } catch {
            return "cannot be read: \(MediaError.reason(of: error))"
        }
    }

    /// Why `validate` refuses an image or transition that names itself as its output but whose
    /// pictures are not the ones its comment's SHA-256 is of: a byte flipped in a poster's scan
    /// or a transition's `mdat` passed (a QA pass), where `render` would set the file aside.
    static let changedSinceWritten =
        "has changed since storyreel wrote it: its pictures are not the ones the SHA-256 in its own comment is of "
        + "(damaged in a copy, or edited)"

    /// The most bytes a baseline JPEG of `width` × `height` can hold, with room to spare: 12 a
    /// pixel (three full-resolution components of 64 coefficients a block, each at most a
    /// 16-bit code and 11 bits of value, is 10.1) and 1 MiB of headers. The sides are a JPEG
    /// header's 16-bit fields, so the product cannot overflow; nil for a side of 0 (a height
    /// left to a later marker) or one no header holds.
    static func mostBytes(width: Int, height: Int) -> UInt64? {
        guard (1...0xFFFF).contains(width), (1...0xFFFF).contains(height) else { return nil }
        return UInt64(width) * UInt64(height) * 12 + (1 << 20)
    }

    /// True when `found` is within `tolerance` of `expected`. The manifest gives `expected`, so
    /// the difference is taken without trapping (a width of `Int.min` in a hand-edited manifest
    /// crashed `validate`).
    private static func within(_ found: Int, _ expected: Int, _ tolerance: Int) -> Bool {
        let (difference, overflow) = found.subtractingReportingOverflow(expected)
        return !overflow && difference.magnitude <= tolerance.magnitude
    }

    /// Why the transition clip at `path` is not a whole clip of `frames` frames of `width` ×
    /// `height` (and of the RFC 6381 `codecs`, when given, lasting `fps` frames a second, when
    /// given, and, when `naming` is given, upright and not named otherwise by its own bytes:
    /// ``OutputProvenance``), or nil when it is one.
    static func transitionProblem(
        at path: String, frames: Int, width: Int, height: Int, codecs: String? = nil, fps: Double? = nil,
        naming: Naming? = nil, named output: String? = nil, timeout: Double?
    ) -> String? {
        let info: ClipInfo
        do {
            info = try ClipProbe.inspect(path: path, timeout: timeout)
        } catch {
            return "cannot be read: \(MediaError.reason(of: error))"
        }
        // Read on from the path, as the other reasons do (a QA pass: `x.mp4 the moov index …`).
        if let warning = info.warnings.first { return "cannot be trusted: \(warning)" }
        guard let video = info.video else { return "has no video stream" }
        if video.frameCount != frames { return "has \(video.frameCount) frames, not \(frames)" }
        // Its frames at their rate, within half a frame: a copy retimed by a remux (`ffmpeg
        // -itsscale 2 -c copy`) keeps its samples, and so its comment's hash, and was adopted,
        // the manifest saying 0.5 s of a clip of 0.97 s (a review).
        if let fps, fps > 0, let seconds = video.duration ?? info.duration,
            abs(seconds - Double(frames) / fps) > 0.5 / fps
        {
            return "lasts \(String(format: "%.3f", seconds)) s, not \(String(format: "%.3f", Double(frames) / fps)) s"
        }
        if (video.displayWidth, video.displayHeight) != (width, height) {
            return "is \(video.displayWidth)x\(video.displayHeight), not \(width)x\(height)"
        }
        if let codecs, video.codecs != codecs { return "has codecs \(video.codecs), not '\(codecs)'" }
        if let padding = paddingProblem(at: path, size: info.size, timeout: timeout) { return padding }
        // Another transition's file under this one's name (`validate`): its comment says so; and
        // one that names itself holds the samples its comment's hash is of.
        if let output, let named = info.tags["comment"].flatMap(OutputProvenance.namedOutput(inComment:)) {
            guard named == output else { return "names itself \(named.shortened(to: 160)): another transition's clip" }
            let verdict = OutputProvenance.mp4Verdict(
                path, comment: info.tags["comment"], output: output, timeout: timeout ?? 30)
            if verdict == .contradicts { return changedSinceWritten }
        }
        if let naming {
            // The hash covers the samples, not the index: a copy remuxed with a turn in its
            // display matrix kept them (a review); storyreel writes none.
            if video.rotation != 0 || video.mirrored { return "is turned by its display matrix" }
            let verdict = OutputProvenance.mp4Verdict(
                path, comment: info.tags["comment"], output: naming.output, timeout: naming.timeout)
            if let problem = naming.problem(verdict) { return problem }
        }
        return nil
    }

    /// Why the clip at `path` (`size` bytes) holds far more than its samples, or nil: a real
    /// transition's index and headers take a few kilobytes beside them. A QA pass padded one
    /// with a 10 GB hole (`truncate`), 50 MB of bytes after its end, or a `free` atom of 10 GB,
    /// each of which `validate` passed, and every sync of the bundle would upload.
    static func paddingProblem(at path: String, size: UInt64, timeout: Double?) -> String? {
        guard let file = try? InputFile(path: path, timeout: timeout),
            let samples = try? file.streams.reduce(
                UInt64(0),
                { total, stream in
                    try stream.indexEntries.reduce(total) { $0 &+ UInt64(clamping: $1.size) }
                }),
            size > samples &+ paddingAllowance
        else { return nil }
        return "is \(size) bytes, while its samples hold \(samples): bytes added to it (padding, a hole), which "
            + "every player and sync would download"
    }

    /// What a transition may hold beside its samples (``paddingProblem(at:size:timeout:)``): its
    /// index, headers and tags, with room to spare (15 frames take about 2 KB, 1000 about 20 KB).
    static let paddingAllowance: UInt64 = 1 << 20

    /// The output a file's own bytes are checked against (``OutputProvenance``), whether they
    /// must name it (a file without storyreel's mark), and the seconds the check may take.
    struct Naming {
        let output: String
        let required: Bool
        let timeout: Double

        /// Why `verdict` does not do, or nil.
        func problem(_ verdict: OutputProvenance.Verdict) -> String? {
            switch verdict {
            case .vouches: return nil
            case .contradicts: return "names another output or other pictures than its own"
            case .silent: return required ? "does not name itself \(output)" : nil
            }
        }
    }
}
