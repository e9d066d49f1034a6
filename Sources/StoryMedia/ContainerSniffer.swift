import Foundation

/// A cheap look at a file's top-level QuickTime/MP4 atoms, read before FFmpeg opens it.
///
/// It lets storyreel refuse what is not a QuickTime/MP4 file with a reason a person understands
/// (empty, an HLS playlist, garbage, `moov` missing) and notice a truncated upload.
struct ContainerSniffer {
    /// What the top-level atoms say about a file.
    struct Findings {
        /// Top-level atom types in file order, e.g. `["ftyp", "moov", "mdat"]`.
        var atoms: [String] = []
        /// True when an atom claims to run past the end of the file.
        var truncated = false
        /// Where the first `moov` atom's children are: their offset and the end of the atom.
        var moov: (start: UInt64, end: UInt64)?
    }

    /// The most edits an edit list (`elst`) may hold. FFmpeg's demuxer expands each edit into
    /// index entries back to its keyframe: a 4 MB upload of 300,000 edits of 3 ms took 2 GB and
    /// 10 s to inspect (ffprobe: 528 MB), and as much in every command (a QA pass). A real clip
    /// has one to a few; 10,000 is far past any editor's.
    static let maximumEdits: UInt64 = 10_000

    /// Atom types that may start a QuickTime/MP4 file.
    private static let leadingAtoms: Set<String> = [
        "ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "uuid", "junk",
    ]

    /// Reads the atom headers of `file`, or throws a ``MediaError`` of kind `.invalidMedia`
    /// saying why it is not a QuickTime/MP4 file.
    static func sniff(_ file: RegularFile) throws -> Findings {
        let path = file.path
        let fileSize = file.size
        guard fileSize > 0 else { throw MediaError(.invalidMedia, path: path, "empty file (0 bytes)") }
        let head = try file.read(upTo: 16)
        if head.starts(with: Array("#EXTM3U".utf8)) {
            throw MediaError(
                .invalidMedia, path: path,
                "an HLS playlist, not a QuickTime/MP4 file (storyreel never follows playlists)")
        }
        var findings = Findings()
        var offset: UInt64 = 0
        while fileSize >= 8, offset <= fileSize - 8, findings.atoms.count < 4096 {
            try file.seek(to: offset)
            let header = try file.read(upTo: 16)
            guard header.count >= 8 else { break }
            let bytes = [UInt8](header)
            var size = bytes[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            guard bytes[4..<8].allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                if findings.atoms.isEmpty {
                    throw MediaError(
                        .invalidMedia, path: path, "not a QuickTime/MP4 file (no ftyp or moov atom at the start)")
                }
                break
            }
            if findings.atoms.isEmpty && !leadingAtoms.contains(type) {
                throw MediaError(
                    .invalidMedia, path: path, "not a QuickTime/MP4 file (no ftyp or moov atom at the start)")
            }
            if size == 1, bytes.count >= 16 {
                size = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            } else if size == 0 {
                size = fileSize - offset
            }
            findings.atoms.append(type)
            guard size >= 8 else { break }
            if type == "moov", findings.moov == nil, size <= fileSize - offset {
                findings.moov = (offset + (bytes[0..<4] == [0, 0, 0, 1] ? 16 : 8), offset + size)
            }
            // `size` comes from the file (up to 2^64 − 1): compare without a sum that could overflow.
            if size > fileSize - offset {
                findings.truncated = true
                break
            }
            offset += size
        }
        if findings.atoms.isEmpty {
            throw MediaError(.invalidMedia, path: path, "not a QuickTime/MP4 file (no ftyp or moov atom at the start)")
        }
        if !findings.atoms.contains("moov") {
            throw MediaError(
                .invalidMedia, path: path,
                "moov atom not found: the file is truncated or still uploading (the index is written last)")
        }
        // An index cut short lists only some of the streams, or none (FFmpeg then opens the file
        // with no video and no audio): what it says cannot be trusted, wherever the moov sits.
        if findings.truncated, findings.atoms.last == "moov" {
            throw MediaError(
                .invalidMedia, path: path,
                "the moov atom (the index) is cut short: the file is truncated or still uploading")
        }
        if let moov = findings.moov, let edits = try largestEditList(in: file, moov: moov), edits > maximumEdits {
            throw MediaError(
                .invalidMedia, path: path,
                "its edit list (elst) has \(edits) entries, more than the \(maximumEdits) storyreel reads "
                    + "(a real clip has a few; each costs memory when the index is read)")
        }
        return findings
    }

    /// The largest entry count of the edit lists (`moov/trak/edts/elst`) in the `moov` atom
    /// whose children lie from `start` to `end`, read from the atoms' headers; nil when it has none.
    private static func largestEditList(in file: RegularFile, moov: (start: UInt64, end: UInt64)) throws -> UInt64? {
        var largest: UInt64?
        for track in try children(of: moov, in: file) where track.type == "trak" {
            for edits in try children(of: track.body, in: file) where edits.type == "edts" {
                for list in try children(of: edits.body, in: file) where list.type == "elst" {
                    // Version and flags (4 bytes), then the entry count (4 bytes).
                    guard list.body.end - list.body.start >= 8 else { continue }
                    try file.seek(to: list.body.start + 4)
                    let count = [UInt8](try file.read(upTo: 4))
                    guard count.count == 4 else { continue }
                    let entries = count.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    largest = max(largest ?? 0, entries)
                }
            }
        }
        return largest
    }

    /// The atoms from `range.start` to `range.end` (at most 4096 of them): each one's type and
    /// where its body is. An atom that runs past the range ends the list.
    private static func children(of range: (start: UInt64, end: UInt64), in file: RegularFile) throws -> [(
        type: String, body: (start: UInt64, end: UInt64)
    )] {
        var found: [(type: String, body: (start: UInt64, end: UInt64))] = []
        var offset = range.start
        while range.end >= 8, offset <= range.end - 8, found.count < 4096 {
            try file.seek(to: offset)
            let bytes = [UInt8](try file.read(upTo: 16))
            guard bytes.count >= 8 else { break }
            var size = bytes[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            var headerSize: UInt64 = 8
            if size == 1, bytes.count >= 16 {
                size = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                headerSize = 16
            } else if size == 0 {
                size = range.end - offset
            }
            guard size >= headerSize, size <= range.end - offset else { break }
            found.append((String(decoding: bytes[4..<8], as: UTF8.self), (offset + headerSize, offset + size)))
            offset += size
        }
        return found
    }
}
