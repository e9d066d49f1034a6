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
    }

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
        return findings
    }
}
