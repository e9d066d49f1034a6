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
        /// The major brand of an `ftyp` atom that opens the file (`isom`, `qt  `), as the file
        /// says it: FFmpeg's `major_brand` tag is overwritten by a metadata item of that name,
        /// which a remux with `-movflags use_metadata_tags` copies from another file (a QA pass:
        /// an `isom` file was reported as QuickTime).
        var majorBrand: String?
        /// True when an atom claims to run past the end of the file.
        var truncated = false
        /// Where the first `moov` atom's children are: their offset and the end of the atom.
        var moov: (start: UInt64, end: UInt64)?
        /// A video track whose chunks hold fewer samples than its size table lists: how many
        /// they hold, and how many the table lists (the first such track).
        var shortChunkTables: (held: UInt64, listed: UInt64)?
        /// The picture headers of the video tracks, by the track's place among the `moov`'s
        /// tracks (FFmpeg's stream index).
        var trackPictures: [Int: TrackPictureHeader] = [:]
        /// The parts of the file not written yet (``RegularFile/unwrittenRanges()``).
        var unwrittenRanges: [Range<UInt64>] = []
        /// True when the `moov` is not all written yet: a sample table of it overlaps one of
        /// ``unwrittenRanges``, or it ends in zeros where it cannot hold them
        /// (``indexEndsInZeros(_:in:)``).
        var indexNotWritten = false
    }

    /// The most edits an edit list (`elst`) may hold. FFmpeg's demuxer expands each edit into
    /// index entries back to its keyframe: a 4 MB upload of 300,000 edits of 3 ms took 2 GB and
    /// 10 s to inspect (ffprobe: 528 MB), and as much in every command (a QA pass). A real clip
    /// has one to a few; 10,000 is far past any editor's.
    static let maximumEdits: UInt64 = 10_000

    /// The most samples storyreel lets FFmpeg index in a file, its tracks' and its fragments'
    /// (`moof`/`traf`/`trun`) together: 11 hours of video at 30 frames a second with AAC audio.
    /// FFmpeg builds an index entry per sample, and storyreel reads each (about 150 bytes a
    /// sample in all), so a 7.5 KB upload whose size table claimed 50,000,000 one-byte samples
    /// took 8 GB and half a minute, and ended in a failed allocation under a memory limit, and
    /// 100 tracks of 1,000,000 each took 6 GB (two audits).
    static let maximumIndexedSamples: UInt64 = 3_000_000

    /// Why FFmpeg should not index `samples` samples (its tracks' and fragments' together) of a
    /// file of `fileSize` bytes, or nil: more than the file has bytes (each sample takes at
    /// least one), or more than ``maximumIndexedSamples``.
    static func sampleCountProblem(samples: UInt64, fileSize: UInt64) -> String? {
        if samples > fileSize {
            return "its index lists \(samples) samples in a file of \(fileSize) bytes (each sample takes at least "
                + "one): the index is corrupt or forged"
        }
        return samples > maximumIndexedSamples ? tooManySamples(samples) : nil
    }

    /// The reason for an index of `samples` samples, over ``maximumIndexedSamples``.
    static func tooManySamples(_ samples: UInt64) -> String {
        "its index lists \(samples) samples in all, over the \(maximumIndexedSamples) storyreel reads (11 hours of "
            + "30 fps video with AAC audio; uncompressed audio stored a frame a sample reaches it in a minute, and a "
            + "remux stores it by chunk: ffmpeg -i IN -c copy OUT.mov)"
    }

    /// The top-level atoms read for fragments (`moof`), at most: a fragmented recording has one
    /// a fragment (9,540 in a QA pass's 5-hour file); one with more is refused, so no fragment
    /// FFmpeg reads later escapes the count.
    static let maximumTopLevelAtoms = 100_000

    /// The atoms read at one level, at most: the top level of a real clip has a few (`ftyp`,
    /// `moov`, `mdat`, `free`), and so has each atom inside its index.
    static let maximumAtomsPerLevel = 4096

    /// Atom types that may start a QuickTime/MP4 file.
    private static let leadingAtoms: Set<String> = [
        "ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "uuid", "junk",
    ]

    /// Why `file` is not a QuickTime/MP4 file: what it is instead when its first bytes say
    /// (a WebM named `.mp4`, as Chrome's MediaRecorder makes, an MPEG transport stream, an
    /// image), so a person need not run ffprobe to learn it (a QA pass); else that it has no
    /// `ftyp` or `moov` atom at the start.
    static func notQuickTime(_ file: RegularFile) -> String {
        let generic = "not a QuickTime/MP4 file (no ftyp or moov atom at the start)"
        guard (try? file.seek(to: 0)) != nil, let head = try? [UInt8](file.read(upTo: 189)) else { return generic }
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
        let convert = ", not a QuickTime/MP4 file: convert it to MP4"
        return
            if starts([0x1A, 0x45, 0xDF, 0xA3])
        {
            "a WebM/Matroska file" + convert
        } else if head.count == 189, head[0] == 0x47, head[188] == 0x47 {
            "an MPEG transport stream" + convert
        } else if starts([0x00, 0x00, 0x01, 0xBA]) {
            "an MPEG program stream" + convert
        } else if starts(ascii("RIFF")), starts(ascii("AVI "), at: 8) {
            "an AVI file" + convert
        } else if starts(ascii("FLV")) {
            "an FLV file" + convert
        } else if starts(ascii("OggS")), starts(ascii("OpusHead"), at: 28) {
            "an Ogg Opus file (audio), not a video"
        } else if starts(ascii("OggS")), starts(ascii("vorbis"), at: 29) {
            "an Ogg Vorbis file (audio), not a video"
        } else if starts(ascii("OggS")) {
            "an Ogg file" + convert
        } else if starts(ascii("RIFF")), starts(ascii("WAVE"), at: 8) {
            "a WAV file (audio), not a video"
        } else if starts(ascii("fLaC")) {
            "a FLAC file (audio), not a video"
        } else if starts(ascii("caff")) {
            "a CAF file (audio), not a video"
        } else if starts(ascii("#!AMR")) {
            "an AMR file (audio), not a video"
        } else if starts([0xFF, 0xD8, 0xFF]) {
            "a JPEG image, not a video"
        } else if head.count >= 2, head[0] == 0xFF, head[1] & 0xF6 == 0xF0 {
            // 12 sync bits, then layer 0: AAC's ADTS framing.
            "an AAC (ADTS) file (audio), not a video"
        } else if starts(ascii("ID3"))
            || (head.count >= 2 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0 && (head[1] >> 1) & 3 != 0)
        {
            // A tag, or the 11 sync bits of an MPEG audio frame and a layer (a bare MP3, as
            // encoders without tags write it).
            "an MP3 file (audio), not a video"
        } else if starts([0x89, 0x50, 0x4E, 0x47]) {
            "a PNG image, not a video"
        } else if starts(ascii("GIF8")) {
            "a GIF image, not a video"
        } else if starts(ascii("RIFF")), starts(ascii("WEBP"), at: 8) {
            "a WebP image, not a video"
        } else if starts(ascii("II*\u{0}")) || starts(ascii("MM\u{0}*")) {
            "a TIFF image, not a video"
        } else if starts(ascii("BM")), head.count >= 18, [12, 40, 52, 56, 64, 108, 124].contains(head[14]),
            head[15..<18].allSatisfy({ $0 == 0 })
        {
            // "BM", then the size of the header that follows, one of the sizes BMP versions have.
            "a BMP image, not a video"
        } else {
            generic
        }
    }

    /// What a file in the ISO base media format without a `moov` is, when its `ftyp` names a
    /// HEIF image brand: an iPhone photo (HEIC) or an AVIF image, complete files that a QA pass
    /// saw called truncated uploads, which invites a retry that can never succeed.
    static func heifImage(_ file: RegularFile) -> String? {
        guard (try? file.seek(to: 0)) != nil, let head = try? [UInt8](file.read(upTo: 64)), head.count >= 12,
            Array(head[4..<8]) == Array("ftyp".utf8)
        else { return nil }
        let size = head[0..<4].reduce(0) { $0 << 8 | Int($1) }
        // The major brand, then (past the minor version) the compatible ones, as far as read.
        let end = min(max(size, 12), head.count)
        let brands = stride(from: 8, to: end - 3, by: 4).filter { $0 != 12 }.map {
            String(decoding: head[$0..<$0 + 4], as: UTF8.self)
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) {
            return "an AVIF image, not a video"
        }
        let heif: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
        if brands.contains(where: heif.contains) { return "a HEIC (HEIF) image, not a video" }
        return nil
    }

    /// Reads the atom headers of `file`, or throws a ``MediaError`` of kind `.invalidMedia`
    /// saying why it is not a QuickTime/MP4 file.
    static func sniff(_ file: RegularFile) throws -> Findings {
        let path = file.path
        let fileSize = file.size
        guard fileSize > 0 else { throw MediaError(.invalidMedia, path: path, file.zeroSizeReason()) }
        // Before the first read, which would make the block look written: an upload preallocated
        // at its final size before its first bytes came was "not a QuickTime/MP4 file", which a
        // backend throws away as garbage (an ingest QA pass). A clip starts with its ftyp.
        if file.startsUnwritten {
            throw MediaError(
                .invalidMedia, path: path,
                "its start is not written yet (blocks preallocated, not written): the file looks preallocated and "
                    + "still being written")
        }
        let head = try file.read(upTo: 16)
        if head.starts(with: Array("#EXTM3U".utf8)) {
            throw MediaError(
                .invalidMedia, path: path,
                "an HLS playlist, not a QuickTime/MP4 file (storyreel never follows playlists)")
        }
        var findings = Findings()
        if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8),
            head[8..<12].allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        {
            findings.majorBrand = String(decoding: head[8..<12], as: UTF8.self)
        }
        var offset: UInt64 = 0
        while fileSize >= 8, offset <= fileSize - 8, findings.atoms.count < maximumAtomsPerLevel {
            guard let header = try atomHeader(at: offset, end: fileSize, in: file) else { break }
            let type = String(decoding: header.type, as: UTF8.self)
            guard header.type.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                if findings.atoms.isEmpty {
                    throw MediaError(.invalidMedia, path: path, notQuickTime(file))
                }
                break
            }
            if findings.atoms.isEmpty && !leadingAtoms.contains(type) {
                throw MediaError(.invalidMedia, path: path, notQuickTime(file))
            }
            let size = header.size
            findings.atoms.append(type)
            guard size >= 8 else { break }
            if type == "hoov" {
                // FFmpeg reads a hoov whose first atom is mvhd as the moov, and skips the moov after
                // it: an index the sniffer would not have read (a re-audit). No writer makes one.
                throw MediaError(.invalidMedia, path: path, "a hoov atom, which FFmpeg would read in place of the moov")
            }
            if type == "moov", findings.moov == nil, size <= fileSize - offset {
                findings.moov = (offset + header.headerSize, offset + size)
            }
            // `size` comes from the file (up to 2^64 − 1): compare without a sum that could overflow.
            if size > fileSize - offset {
                findings.truncated = true
                break
            }
            offset += size
        }
        if findings.atoms.isEmpty {
            throw MediaError(.invalidMedia, path: path, notQuickTime(file))
        }
        if !findings.atoms.contains("moov"), findings.atoms.count >= maximumAtomsPerLevel, fileSize >= 8,
            offset <= fileSize - 8
        {
            // Not "truncated": the file goes on (a QA pass: 4096 `free` atoms before the moov).
            throw MediaError(
                .invalidMedia, path: path,
                "no moov atom (the index) among its first \(maximumAtomsPerLevel) top-level atoms, which is as far as "
                    + "storyreel reads (a real clip has a few)")
        }
        if !findings.atoms.contains("moov") {
            if let image = heifImage(file) { throw MediaError(.invalidMedia, path: path, image) }
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
        do {
            var samples: UInt64 = 0
            var trackCount = 0
            if let moov = findings.moov {
                let tracks = try tracks(in: file, moov: moov)
                trackCount = tracks.count
                for (index, track) in tracks.enumerated() {
                    if let picture = track.picture { findings.trackPictures[index] = picture }
                    if let problem = editListProblem(edits: track.edits, keyframeGap: track.keyframeGap) {
                        throw MediaError(.invalidMedia, path: path, problem)
                    }
                    samples = samples.saturatingAdd(track.indexedSamples)
                    findings.shortChunkTables = findings.shortChunkTables ?? track.shortChunkTables
                }
            }
            let fragments = try fragmentSamples(in: file)
            samples = samples.saturatingAdd(fragments.samples)
            let (streams, overflow) = fragments.fragments.multipliedReportingOverflow(by: UInt64(max(1, trackCount)))
            if overflow || streams > maximumFragmentStreams {
                throw MediaError(
                    .invalidMedia, path: path,
                    "its \(fragments.fragments) fragments of \(trackCount) tracks are more than storyreel reads "
                        + "(\(maximumFragmentStreams) fragments × tracks; a real clip has a few tracks)")
            }
            if let problem = sampleCountProblem(samples: samples, fileSize: fileSize) {
                throw MediaError(.invalidMedia, path: path, problem)
            }
            findings.unwrittenRanges = file.unwrittenRanges()
            if let moov = findings.moov {
                let holes = findings.unwrittenRanges.filter { $0.overlaps(moov.start..<moov.end) }
                findings.indexNotWritten =
                    try indexEndsInZeros(moov, in: file)
                    || (!holes.isEmpty
                        && sampleTables(in: moov, file: file).contains { table in
                            holes.contains { $0.overlaps(table.start..<table.end) }
                        })
            }
        } catch let refusal as IndexRefusal {
            throw MediaError(.invalidMedia, path: path, refusal.reason)
        }
        return findings
    }

    /// The zero bytes at the end of a `moov` that say it is not written yet
    /// (``indexEndsInZeros(_:in:)``).
    static let unwrittenIndexTail = 64

    /// Atoms whose body is a list of atoms, as the index nests them (`meta` is one too).
    private static let containerAtoms: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "udta", "edts", "dinf"]

    /// The sample tables no finished file holds a run of zeros in (chunk offsets, sizes,
    /// chunks, sync samples, times): zeros there are bytes not written yet.
    private static let sampleTableAtoms: Set<String> = ["stco", "co64", "stsz", "stsc", "stss", "stts", "ctts"]

    /// Where the bodies of the sample tables (``sampleTableAtoms``) of `moov`'s tracks lie.
    static func sampleTables(in moov: (start: UInt64, end: UInt64), file: RegularFile) throws -> [(
        start: UInt64, end: UInt64
    )] {
        try descend(children(of: moov, in: file), ["trak", "mdia", "minf", "stbl"], in: file)
            .filter { sampleTableAtoms.contains($0.type) }.map(\.body)
    }

    /// True when the `moov` (its children from `moov.start` to `moov.end`) ends in
    /// ``unwrittenIndexTail`` zero bytes or more in a sample table (``sampleTableAtoms``) or
    /// where an atom's header should be. An uploader that preallocates its file at the final size
    /// (`fallocate`, aria2, `rsync --preallocate`) and stalls in the index written last leaves its
    /// end zeros, and FFmpeg reads the rest without a word: a QA pass ingested such an upload with
    /// the second half of its audio read from byte 0, then the finished file beside it. Zeros in
    /// other atoms are content (a re-check: a BMP cover's black rows, at the end of its `covr`).
    static func indexEndsInZeros(_ moov: (start: UInt64, end: UInt64), in file: RegularFile) throws -> Bool {
        let tail = UInt64(unwrittenIndexTail)
        guard moov.end - moov.start >= tail else { return false }
        try file.seek(to: moov.end - tail)
        let bytes = [UInt8](try file.read(upTo: unwrittenIndexTail))
        guard bytes.count == unwrittenIndexTail, bytes.allSatisfy({ $0 == 0 }) else { return false }
        // The atom the zeros end, nested as deep as the index goes: a sample table, or a header
        // of zeros (type "\0\0\0\0"), was not written; any other atom holds them as content.
        var range = moov
        var depth = 0
        while depth < 16 {
            depth += 1
            guard let last = try children(of: range, in: file).last, last.body.end == range.end else { return true }
            if last.type.utf8.allSatisfy({ $0 == 0 }) { return true }
            if containerAtoms.contains(last.type) {
                range = last.body
            } else if last.type == "meta" {
                // An MP4 `meta` is a full atom (4 bytes of version and flags, zeros, before its
                // children); a QuickTime one starts with its first child's size, never 0.
                guard let first = try field(at: 0, of: last.body, in: file) else { return true }
                range = first == 0 ? (last.body.start + 4, last.body.end) : last.body
            } else {
                return sampleTableAtoms.contains(last.type)
            }
            guard range.end - range.start >= tail else { return false }
        }
        return true
    }

    /// The largest index FFmpeg is let to build from an edit list, in entries: about 145 bytes
    /// each in storyreel (150 MB), where it builds up to edits × the longest run of frames
    /// between keyframes (each edit from the keyframe before its start).
    static let maximumEditExpansion: UInt64 = 1_000_000

    /// Why an edit list of `edits` entries over keyframes up to `keyframeGap` frames apart is
    /// refused, or nil. A QA pass: 3,000 edits into a clip with one keyframe a minute took 763 MB
    /// (ffprobe: 178 MB); 300,000 edits of 3 ms into a 3 s clip took 2 GB and 10 s.
    static func editListProblem(edits: UInt64, keyframeGap: UInt64) -> String? {
        if edits > maximumEdits {
            return "its edit list (elst) has \(edits) entries, more than the \(maximumEdits) storyreel reads "
                + "(a real clip has a few; each costs memory when the index is read)"
        }
        let (expansion, overflow) = edits.multipliedReportingOverflow(by: max(1, keyframeGap))
        guard overflow || expansion > maximumEditExpansion else { return nil }
        return "its edit list (elst) has \(edits) entries over keyframes up to \(keyframeGap) frames apart, "
            + "which FFmpeg would expand into more than \(maximumEditExpansion) index entries"
    }

    /// For each track (`moov/trak`) in the `moov` atom whose children lie from `start` to `end`,
    /// read from the atoms: the entry count of its edit list (`edts/elst`; 0 without one); with
    /// more than one edit, the longest run of frames from one keyframe to the next (`stss`; 1
    /// when every frame is a keyframe, and with one edit or none); and for a video track whose
    /// chunks hold fewer samples than its size table lists, how many each says; and how many
    /// index entries FFmpeg makes of its samples (``indexedSamples(in:handler:file:)``).
    private static func tracks(in file: RegularFile, moov: (start: UInt64, end: UInt64)) throws -> [(
        edits: UInt64, keyframeGap: UInt64, shortChunkTables: (held: UInt64, listed: UInt64)?, indexedSamples: UInt64,
        picture: TrackPictureHeader?
    )] {
        var tracks:
            [(
                edits: UInt64, keyframeGap: UInt64, shortChunkTables: (held: UInt64, listed: UInt64)?,
                indexedSamples: UInt64, picture: TrackPictureHeader?
            )] = []
        try checkPlacement(in: moov, of: "moov", in: file)
        let traks = try children(of: moov, in: file).filter { $0.type == "trak" }
        // FFmpeg opens no more streams than its max_streams (1000), and said "Cannot allocate
        // memory" of a file with more (an audit).
        guard traks.count <= maximumTracks else {
            throw IndexRefusal(
                reason: "its index lists \(traks.count) tracks, more than the \(maximumTracks) FFmpeg reads "
                    + "(a real clip has a few)")
        }
        // Run totals over every track, as FFmpeg's lists of them all are in memory at once.
        var unrolledOffsets: UInt64 = 0
        var unrolledGroups: UInt64 = 0
        for track in traks {
            let parts = try children(of: track.body, in: file)
            var edits: UInt64 = 0
            for list in try parts.filter({ $0.type == "edts" }).flatMap({ try children(of: $0.body, in: file) })
            where list.type == "elst" {
                edits = max(edits, try field(at: 4, of: list.body, in: file) ?? 0)  // after version and flags
            }
            let media = try descend(parts, ["mdia"], in: file)
            // hdlr: version and flags, a predefined 0, then the handler type. FFmpeg keeps the
            // last of an atom given twice, so the sniffer reads the last too.
            let handler = try media.last { $0.type == "hdlr" }.flatMap { try field(at: 8, of: $0.body, in: file) }
            let isVideo = handler == videoHandler
            let table = try descend(media, ["minf", "stbl"], in: file)
            try checkTableAllocations(table, in: file)
            let runs = try unrolledRuns(in: table, file: file)
            unrolledOffsets = unrolledOffsets.saturatingAdd(runs.offsets)
            unrolledGroups = unrolledGroups.saturatingAdd(runs.groups)
            for (total, what) in [
                (unrolledOffsets, "composition offset (ctts)"), (unrolledGroups, "sample group (sbgp)"),
            ]
            where total > maximumIndexedSamples {
                throw IndexRefusal(
                    reason: "its \(what) runs add up to more than \(maximumIndexedSamples) samples, which FFmpeg "
                        + "would list one by one (a real clip's add up to its samples)")
            }
            let indexed = try indexedSamples(in: table, handler: handler, file: file)
            let picture = isVideo ? try pictureHeader(of: parts, table: table, in: file) : nil
            guard edits > 1 || isVideo else {
                tracks.append((edits, 1, nil, indexed, picture))
                continue
            }
            // stsz: version and flags, a constant size, then the sample count.
            let samples = try table.last { $0.type == "stsz" }.flatMap { try field(at: 8, of: $0.body, in: file) } ?? 0
            let gap =
                edits > 1
                ? try table.last { $0.type == "stss" }.map { try keyframeGap(of: $0.body, samples: samples, in: file) }
                : nil
            let held = isVideo ? try chunkCapacity(of: table, in: file) : nil
            tracks.append((edits, gap ?? 1, held.flatMap { $0 < samples ? ($0, samples) : nil }, indexed, picture))
        }
        return tracks
    }

    /// The track header's picture size and whether the first sample description entry has a
    /// `pasp` box, for a video track whose atoms are `parts` and sample table `table`; nil when
    /// its `tkhd` is cut short.
    private static func pictureHeader(
        of parts: [(type: String, body: (start: UInt64, end: UInt64))],
        table: [(type: String, body: (start: UInt64, end: UInt64))], in file: RegularFile
    ) throws -> TrackPictureHeader? {
        // tkhd: version and flags, then times, id and duration (20 bytes in version 0, 32 in
        // version 1), 8 reserved, layer, group, volume, 2 reserved, the matrix (36), then the
        // width and the height in 16.16 fixed point. FFmpeg reads the last tkhd.
        guard let header = parts.last(where: { $0.type == "tkhd" }),
            let versionAndFlags = try field(at: 0, of: header.body, in: file)
        else { return nil }
        let sizeOffset: UInt64 = (versionAndFlags >> 24 == 1 ? 32 : 20) + 4 + 52
        guard let width = try field(at: sizeOffset, of: header.body, in: file),
            let height = try field(at: sizeOffset + 4, of: header.body, in: file)
        else { return nil }
        // stsd: version and flags, the entry count, then the first entry: its size and format,
        // 6 reserved, a data reference index, 70 bytes of a visual entry's fields, then its atoms.
        var hasPixelAspectBox = false
        var vp9Configuration: [UInt8]?
        if let description = table.last(where: { $0.type == "stsd" }),
            let entrySize = try field(at: 8, of: description.body, in: file)
        {
            let entryStart = description.body.start + 8
            let entryEnd = min(description.body.end, entryStart + entrySize)
            if entryEnd > entryStart + 86 {
                let boxes = try children(of: (entryStart + 86, entryEnd), in: file)
                hasPixelAspectBox = boxes.contains { $0.type == "pasp" }
                // VP9's record: version and flags, profile, level, bit depth, chroma and range.
                if let record = boxes.first(where: { $0.type == "vpcC" }), record.body.end - record.body.start >= 8 {
                    try file.seek(to: record.body.start)
                    let bytes = [UInt8](try file.read(upTo: 8))
                    vp9Configuration = bytes.count == 8 ? bytes : nil
                }
            }
        }
        return TrackPictureHeader(
            width: width >> 16, height: height >> 16, hasPixelAspectBox: hasPixelAspectBox,
            vp9Configuration: vp9Configuration)
    }

    /// The first entry count of each sample table FFmpeg's demuxer cannot allocate, which it
    /// fails with "Cannot allocate memory": past 2^31 − 1 bytes of entries, each kept in 8 bytes
    /// (chunk offsets as 64-bit values, `stco`'s too; times and offsets), 4 (`stss`, `stps`) or
    /// 12 (`stsc`); `stts` refuses one entry earlier, by its own check. (`stsz`'s count is checked
    /// as samples, ``sampleCountProblem(samples:fileSize:)``.)
    private static let unallocatableCounts: [String: UInt64] = [
        "stco": 268_435_456, "co64": 268_435_456, "stts": 268_435_455, "ctts": 268_435_456, "stss": 536_870_912,
        "stps": 536_870_912, "stsc": 178_956_971,
    ]

    /// Throws ``IndexRefusal`` when a table of the sample table `table` lists more entries than
    /// FFmpeg allocates memory for (``unallocatableCounts``), which blamed the machine for a
    /// forged count (a QA pass: an `stco` or `stts` count of 2^31 − 1 in a 200 KB clip).
    private static func checkTableAllocations(
        _ table: [(type: String, body: (start: UInt64, end: UInt64))], in file: RegularFile
    ) throws {
        for atom in table {
            guard let limit = unallocatableCounts[atom.type],
                let count = try field(at: 4, of: atom.body, in: file),  // after version and flags
                count >= limit
            else { continue }
            throw IndexRefusal(
                reason: "its \(atom.type) table lists \(count) entries in its \(atom.body.end - atom.body.start) bytes"
                    + ": the index is corrupt or forged")
        }
    }

    /// The most tracks FFmpeg's demuxer opens (its `max_streams`).
    static let maximumTracks = 1000

    /// Why the sniffer refuses an index it would otherwise read on: an atom holds more atoms
    /// than it reads, or an atom sits where FFmpeg would take it for another's.
    struct IndexRefusal: Error {
        let reason: String
    }

    /// The parent each atom that shapes a track's index must have. FFmpeg's demuxer parses an
    /// atom by its type wherever a container it reads holds it, and applies a sample table to
    /// the track being read: a forged `stsz` in `trak/udta` made it index 80,000,000 samples of
    /// a 36 KB clip, 0.7 GB, past the checks of the tables in `stbl` (a review).
    ///
    /// Sample groups (`sbgp`, `sgpd`) go in a table or a fragment's track: FFmpeg applies one
    /// anywhere to the last track read.
    private static let requiredParents: [String: [String]] = [
        "trak": ["moov"], "stsz": ["stbl"], "stz2": ["stbl"], "stsc": ["stbl"], "stts": ["stbl"], "stco": ["stbl"],
        "co64": ["stbl"], "ctts": ["stbl"], "stss": ["stbl"], "elst": ["edts"], "traf": ["moof"], "trun": ["traf"],
        "sbgp": ["stbl", "traf"], "sgpd": ["stbl", "traf"], "moof": [topLevel], "moov": [topLevel],
        "hoov": [topLevel], "sidx": [topLevel],
    ]
    /// How ``requiredParents`` names the file itself.
    private static let topLevel = "the top level"
    /// Atom types nothing but a forged index puts in a sample description (`stsd`), whose
    /// entries FFmpeg reads on past their fixed fields as atoms (a review: a size table there
    /// was read as the track's): the tables, tracks, fragments and encryption records above.
    private static let foreignInSampleDescription = Set(
        Set(requiredParents.keys).union(refusedAtoms.keys).map { Array($0.utf8) })
    /// Atoms refused wherever FFmpeg would read them, with why: a compressed index is inflated
    /// in one call no deadline reaches (a 2 MB clip inflated to 2 GB), and common-encryption
    /// records are read one a claimed sample however few bytes they have (a 16 KB clip's
    /// `senc` took 2 GB; a re-audit). storyreel decodes no encrypted clip.
    private static let refusedAtoms: [String: String] = [
        "cmov": "a compressed index (cmov), which storyreel does not read",
        "senc": "encryption records (senc): storyreel does not decrypt clips",
        "saiz": "encryption records (saiz): storyreel does not decrypt clips",
        "saio": "encryption records (saio): storyreel does not decrypt clips",
        "tenc": "encryption records (tenc): storyreel does not decrypt clips",
        "pssh": "encryption records (pssh): storyreel does not decrypt clips",
    ]
    /// The atoms FFmpeg's demuxer reads as containers of atoms inside `moov` (`mov_read_default`).
    private static let containers: Set<String> = [
        "trak", "mdia", "minf", "stbl", "dinf", "edts", "udta", "tref", "meta", "mvex", "sinf", "schi", "wave",
        "moof", "traf", "stsd",
    ]

    /// Where the first 4-byte-aligned `tag` in `body` starts, or nil: as FFmpeg's
    /// `mov_read_meta` looks for its `hdlr`.
    private static func alignedTag(_ tag: String, in body: (start: UInt64, end: UInt64), in file: RegularFile)
        throws -> UInt64?
    {
        let wanted = Array(tag.utf8)
        var offset = body.start
        while offset < body.end {
            try file.seek(to: offset)
            let chunk = [UInt8](try file.read(upTo: Int(min(body.end - offset, 1 << 16))))
            guard chunk.count >= 4 else { return nil }
            for index in stride(from: 0, through: chunk.count - 4, by: 4)
            where Array(chunk[index..<index + 4]) == wanted {
                return offset + UInt64(index)
            }
            offset += UInt64(chunk.count / 4 * 4)
        }
        return nil
    }

    /// Throws ``IndexRefusal`` when the sample description `body` (the entries of an `stsd`)
    /// holds, anywhere, an atom header of a type in ``foreignInSampleDescription``: a size that
    /// fits, then the type. FFmpeg reads each entry's trailing atoms from where its fixed fields
    /// end, which differs by kind and version; a description of real codec records holds none.
    private static func checkSampleDescription(_ body: (start: UInt64, end: UInt64), in file: RegularFile) throws {
        guard body.end > body.start, body.end - body.start <= 1 << 20 else {
            if body.end > body.start { throw IndexRefusal(reason: "its sample description is over 1 MB") }
            return
        }
        try file.seek(to: body.start)
        let bytes = [UInt8](try file.read(upTo: Int(body.end - body.start)))
        guard bytes.count >= 8 else { return }
        for index in 0...(bytes.count - 8)
        where foreignInSampleDescription.contains(Array(bytes[index + 4..<index + 8])) {
            let size = bigEndian(bytes[index..<index + 4])
            if size >= 8, size <= UInt64(bytes.count - index) {
                let type = String(decoding: bytes[index + 4..<index + 8], as: UTF8.self)
                throw IndexRefusal(
                    reason: refusedAtoms[type]
                        ?? "its sample description holds a \(type) atom, which FFmpeg would read as the track's: "
                        + "a forged index")
            }
        }
    }

    /// Throws ``IndexRefusal`` when an atom below `parent` (of type `parentType`), down through
    /// the ``containers`` FFmpeg reads, sits under another parent than ``requiredParents`` gives.
    private static func checkPlacement(
        in parent: (start: UInt64, end: UInt64), of parentType: String, in file: RegularFile, depth: Int = 0
    ) throws {
        guard depth < 16 else { throw IndexRefusal(reason: "its index nests atoms more than 16 deep") }
        var body = parent
        if parentType == "meta" {
            // FFmpeg reads a meta's atoms from the first `hdlr` it finds 4 bytes at a time (an ISO
            // one starts with a version and flags, a QuickTime one with its atoms), and none
            // without one (a review hid a table in a `free` before it).
            guard let handler = try alignedTag("hdlr", in: body, in: file), handler >= body.start + 4 else { return }
            body.start = handler - 4
        }
        if parentType == "stsd" {
            try checkSampleDescription(body, in: file)
            return
        }
        for child in try children(of: body, in: file) {
            if let reason = refusedAtoms[child.type] { throw IndexRefusal(reason: reason) }
            if let required = requiredParents[child.type], !required.contains(parentType) {
                throw IndexRefusal(
                    reason: "its index holds a \(child.type) atom in \(parentType), which FFmpeg would read as a "
                        + "track's (a real clip has it only in \(required.joined(separator: " or "))): a forged index")
            }
            if child.type == "sgpd" { try checkSampleGroupDescription(child.body, in: file) }
            if containers.contains(child.type) {
                try checkPlacement(in: child.body, of: child.type, in: file, depth: depth + 1)
            }
        }
    }

    /// Throws ``IndexRefusal`` for a sync sample group description (`sgpd` of grouping type
    /// `sync`) that lists more entries than it has bytes: FFmpeg zeroes a byte for each before it
    /// reads one (an audit: 2.1 GB from a 237 KB clip, wherever the atom sat). Each entry takes
    /// a byte at least.
    private static func checkSampleGroupDescription(_ body: (start: UInt64, end: UInt64), in file: RegularFile)
        throws
    {
        guard let versionAndFlags = try field(at: 0, of: body, in: file),
            try field(at: 4, of: body, in: file) == syncGrouping
        else { return }
        // After the grouping type: a default length (version 1 on), a default index (2 on).
        let version = versionAndFlags >> 24
        let countOffset: UInt64 = 8 + (version >= 1 ? 4 : 0) + (version >= 2 ? 4 : 0)
        guard let entries = try field(at: countOffset, of: body, in: file) else { return }
        if entries > body.end - body.start {
            throw IndexRefusal(
                reason: "its sync sample group description (sgpd) lists \(entries) entries in "
                    + "\(body.end - body.start) bytes, which FFmpeg would make room for at once: a forged index")
        }
    }

    /// `sync`, the grouping type of HEVC's sync sample groups.
    private static let syncGrouping: UInt64 = 0x7379_6E63
    /// `rap `, the grouping type of random access point sample groups.
    private static let randomAccessGrouping: UInt64 = 0x7261_7020

    /// The sum of the run lengths of the table atom `body` whose entry count is the 32-bit field
    /// `countOffset` bytes into it and whose entries of `entrySize` bytes follow it, each a run
    /// length first (`ctts`: a signed one, and FFmpeg skips those below 1), read as FFmpeg reads
    /// them: on past the atom's end (up to the file's), as many as the count says. Stops once
    /// over `limit`; more entries than `limit` are over it.
    private static func runTotal(
        of body: (start: UInt64, end: UInt64), countOffset: UInt64, entrySize: UInt64, signed: Bool, limit: UInt64,
        in file: RegularFile
    ) throws -> UInt64 {
        guard let count = try field(at: countOffset, of: body, in: file) else { return 0 }
        guard count <= limit else { return count }
        var total: UInt64 = 0
        var offset = body.start + countOffset + 4
        var left = count
        while left > 0, total <= limit, offset < file.size {
            let batch = min(left, 65_536)
            try file.seek(to: offset)
            let bytes = [UInt8](try file.read(upTo: Int(batch * entrySize)))
            let whole = UInt64(bytes.count) / entrySize
            guard whole > 0 else { break }
            for index in 0..<Int(whole) {
                let run = bigEndian(bytes[index * Int(entrySize)..<index * Int(entrySize) + 4])
                if signed && run >= 0x8000_0000 { continue }
                total += run
            }
            left -= whole
            offset += whole * entrySize
        }
        return total
    }

    /// The samples FFmpeg unrolls from the composition offset runs (`ctts`) and the sample group
    /// runs (`sbgp` of type `sync` or `rap `) of the sample table `table`: up to their sums (4
    /// bytes each) for an HEVC track of open GOPs, which 1 run of 536,870,896 samples, in a
    /// 237 KB clip, made 2.1 GB (an audit). A real clip's runs add up to its samples.
    private static func unrolledRuns(
        in table: [(type: String, body: (start: UInt64, end: UInt64))], file: RegularFile
    ) throws -> (offsets: UInt64, groups: UInt64) {
        let limit = maximumIndexedSamples
        var offsets: UInt64 = 0
        var groups: UInt64 = 0
        for atom in table {
            switch atom.type {
            case "ctts":
                let total = try runTotal(
                    of: atom.body, countOffset: 4, entrySize: 8, signed: true, limit: limit, in: file)
                offsets = offsets.saturatingAdd(total)
            case "sbgp":
                guard let versionAndFlags = try field(at: 0, of: atom.body, in: file),
                    let grouping = try field(at: 4, of: atom.body, in: file),
                    grouping == syncGrouping || grouping == randomAccessGrouping
                else { continue }
                // After the grouping type: its parameter in version 1.
                let countOffset: UInt64 = versionAndFlags >> 24 == 1 ? 12 : 8
                let total = try runTotal(
                    of: atom.body, countOffset: countOffset, entrySize: 8, signed: false, limit: limit, in: file)
                groups = groups.saturatingAdd(total)
            default:
                continue
            }
        }
        return (offsets, groups)
    }

    /// `vide`, the handler type (`hdlr`) of a video track.
    private static let videoHandler: UInt64 = 0x7669_6465
    /// `soun`, the handler type (`hdlr`) of an audio track.
    private static let audioHandler: UInt64 = 0x736F_756E

    /// How many index entries FFmpeg's demuxer makes of the samples of the sample table `table`
    /// (the children of an `stbl`) of a track whose handler type is `handler`, as its
    /// `mov_build_index` does: one per sample its size table (`stsz` or `stz2`) lists, but for
    /// audio whose time table (`stts`) is one run of one tick a sample, entries per chunk
    /// (below). Throws ``IndexRefusal`` when that audio's chunk runs are malformed.
    private static func indexedSamples(
        in table: [(type: String, body: (start: UInt64, end: UInt64))], handler: UInt64?, file: RegularFile
    ) throws -> UInt64 {
        let samples =
            try table.last { $0.type == "stsz" || $0.type == "stz2" }
            .flatMap { try field(at: 8, of: $0.body, in: file) } ?? 0  // after version, flags and a size
        guard let times = table.last(where: { $0.type == "stts" }),
            try field(at: 4, of: times.body, in: file) == 1, try field(at: 12, of: times.body, in: file) == 1,
            handler != videoHandler
        else { return samples }
        // Audio timed one tick a sample is indexed by chunk, whatever its size table says: an
        // entry for up to 1024 samples of a chunk (160 for GSM), counted at 160 from the chunks
        // and their runs (a re-audit's 20 chunks of 2,147,483,647 samples: 42,000,000 entries,
        // 1 GB). Runs FFmpeg would mend, it is refused for (a review). A track of another kind
        // may still be audio to FFmpeg (from its sample entry): the larger count.
        guard let chunked = try chunkCapacity(of: table, in: file, entriesPerChunk: { ($0 + 159) / 160 }) else {
            throw IndexRefusal(
                reason: "its audio's sample-to-chunk table (stsc) is malformed, which FFmpeg mends and indexes chunk "
                    + "by chunk: a forged index")
        }
        return handler == audioHandler ? chunked : max(samples, chunked)
    }

    /// How many samples the track runs (`trun`) of the fragments (`moof`) of `file` list, in
    /// all: FFmpeg makes an index entry of each, and a run's count costs its file no byte a
    /// sample (without per-sample fields). Read as FFmpeg reads them: an atom longer than its
    /// parent is cut to it (``children(of:in:)``), and counts the fragments: each
    /// `moof`, and each reference of a `sidx`. Throws ``IndexRefusal`` past
    /// ``maximumTopLevelAtoms`` top-level atoms.
    private static func fragmentSamples(in file: RegularFile) throws -> (samples: UInt64, fragments: UInt64) {
        var total: UInt64 = 0
        var fragments: UInt64 = 0
        var offset: UInt64 = 0
        for count in 0... {
            guard file.size >= 8, offset <= file.size - 8,
                let header = try atomHeader(at: offset, end: file.size, in: file),
                header.size >= header.headerSize
            else { break }
            guard count < maximumTopLevelAtoms else {
                throw IndexRefusal(
                    reason: "more than \(maximumTopLevelAtoms) top-level atoms (fragments), which is as many as "
                        + "storyreel reads (a real clip has a few, a fragmented recording one a fragment)")
            }
            let end = offset + min(header.size, file.size - offset)
            let type = String(decoding: header.type, as: UTF8.self)
            if let required = requiredParents[type], !required.contains(topLevel) {
                // FFmpeg reads a top-level trak as a track of its own (a review).
                throw IndexRefusal(
                    reason: "a \(type) atom at the top level, which FFmpeg would read as a track's (a real clip has it "
                        + "only in \(required.joined(separator: " or "))): a forged index")
            }
            if header.type.elementsEqual("sidx".utf8) {
                // FFmpeg keeps per-stream information for each fragment a sidx references: its
                // reference count, the low 16 bits of the 32 after 20 bytes of its body (version
                // 0; 28 for version 1).
                let body = (offset + header.headerSize, end)
                let version = try field(at: 0, of: body, in: file).map { $0 >> 24 } ?? 0
                fragments += (try field(at: version == 0 ? 20 : 28, of: body, in: file) ?? 0) & 0xFFFF
            }
            if header.type.elementsEqual("moof".utf8) {
                fragments += 1
                let body = (offset + header.headerSize, end)
                try checkPlacement(in: body, of: "moof", in: file)
                for fragment in try children(of: body, in: file) where fragment.type == "traf" {
                    for run in try children(of: fragment.body, in: file) where run.type == "trun" {
                        // trun: version and flags, then the sample count.
                        total = total.saturatingAdd(try field(at: 4, of: run.body, in: file) ?? 0)
                    }
                }
            }
            guard header.size <= file.size - offset else { break }
            offset += header.size
        }
        return (total, fragments)
    }

    /// The most fragments (each `moof`, each reference of a `sidx`) times tracks: FFmpeg keeps
    /// 56 bytes for each stream at each fragment, so 30,000 empty `moof`s in a 356 KB clip of
    /// 999 tracks took 1.7 GB (a re-audit). A real fragmented clip has a few tracks.
    static let maximumFragmentStreams: UInt64 = 5_000_000

    /// How many samples the chunks of the sample table `table` (the children of an `stbl`) hold:
    /// its sample-to-chunk runs (`stsc`) over its chunks (`stco` or `co64`, as many as the atom
    /// holds), as FFmpeg's demuxer counts them. nil when a table is missing, cut short or has
    /// over 1,000,000 runs, or when its runs are out of order, empty or of no sample description,
    /// which FFmpeg mends its own way. The other way round, chunks that hold more samples than
    /// the size table lists, FFmpeg reports itself ("wrong sample count", ``FFmpegLog``).
    /// `entriesPerChunk` counts something else of each chunk, from its samples: FFmpeg's index
    /// entries for uncompressed audio.
    private static func chunkCapacity(
        of table: [(type: String, body: (start: UInt64, end: UInt64))], in file: RegularFile,
        entriesPerChunk: (UInt64) -> UInt64 = { $0 }
    ) throws -> UInt64? {
        // FFmpeg keeps the first chunk table ("Ignoring duplicated STCO atom"), the last of the others.
        guard let offsets = table.first(where: { $0.type == "stco" || $0.type == "co64" }),
            let listedChunks = try field(at: 4, of: offsets.body, in: file),  // after version and flags
            let runs = table.last(where: { $0.type == "stsc" }),
            let (runCount, bytes) = try entries(of: runs.body, size: 12, in: file)
        else { return nil }
        // FFmpeg reads as many chunk offsets as the atom holds (past its 8 bytes read above), up
        // to its count.
        let offsetSize: UInt64 = offsets.type == "co64" ? 8 : 4
        let chunks = min(listedChunks, (offsets.body.end - offsets.body.start - 8) / offsetSize)
        // Each run: its first chunk (from 1), samples per chunk, sample description (from 1).
        let run = { (index: Int, field: Int) in
            bigEndian(bytes[(index * 12 + field * 4)..<(index * 12 + field * 4 + 4)])
        }
        var held: UInt64 = 0
        for index in 0..<runCount {
            let first = run(index, 0)
            guard first > (index > 0 ? run(index - 1, 0) : 0), run(index, 1) > 0, run(index, 2) > 0 else { return nil }
            let end = min(index + 1 < runCount ? run(index + 1, 0) : chunks + 1, chunks + 1)
            guard end > first else { continue }
            let (samples, overflow) = (end - first).multipliedReportingOverflow(by: entriesPerChunk(run(index, 1)))
            guard !overflow, held <= UInt64.max - samples else { return nil }
            held += samples
        }
        return held
    }

    /// The children of the atoms at `path` below `atoms`: of every atom of each type, in file
    /// order, as FFmpeg reads an atom given twice (its tables from the last).
    private static func descend(
        _ atoms: [(type: String, body: (start: UInt64, end: UInt64))], _ path: [String], in file: RegularFile
    ) throws -> [(type: String, body: (start: UInt64, end: UInt64))] {
        var level = atoms
        for type in path {
            level = try level.filter { $0.type == type }.flatMap { try children(of: $0.body, in: file) }
        }
        return level
    }

    /// The entries of the table atom `body` (version and flags, an entry count, then the entries,
    /// `size` bytes each): their count and bytes, read at once; nil when the table is cut short
    /// or has over 1,000,000 entries.
    private static func entries(of body: (start: UInt64, end: UInt64), size: UInt64, in file: RegularFile) throws
        -> (count: Int, bytes: [UInt8])?
    {
        guard let count = try field(at: 4, of: body, in: file), count <= 1_000_000,
            body.end - body.start >= 8 + count * size
        else { return nil }
        try file.seek(to: body.start + 8)
        let bytes = [UInt8](try file.read(upTo: Int(count * size)))
        guard UInt64(bytes.count) == count * size else { return nil }
        return (Int(count), bytes)
    }

    /// The longest run of frames from one keyframe to the next (or to the end, of `samples`) in
    /// the sync sample table `body`; `samples` when the table is cut short or over 1,000,000
    /// entries (4 MB, read at once).
    private static func keyframeGap(of body: (start: UInt64, end: UInt64), samples: UInt64, in file: RegularFile)
        throws -> UInt64
    {
        guard let (count, bytes) = try entries(of: body, size: 4, in: file) else { return max(1, samples) }
        var previous: UInt64 = 1
        var gap: UInt64 = 0
        for index in 0..<count {
            let sample = bigEndian(bytes[index * 4..<index * 4 + 4])
            if sample > previous { gap = max(gap, sample - previous) }
            previous = max(previous, sample)
        }
        if samples > previous { gap = max(gap, samples - previous + 1) }
        return max(1, gap)
    }

    /// The 32-bit big-endian field `offset` bytes into `body`, or nil when the body is shorter.
    private static func field(at offset: UInt64, of body: (start: UInt64, end: UInt64), in file: RegularFile)
        throws -> UInt64?
    {
        guard body.end - body.start >= offset + 4 else { return nil }
        try file.seek(to: body.start + offset)
        let bytes = [UInt8](try file.read(upTo: 4))
        guard bytes.count == 4 else { return nil }
        return bigEndian(bytes[...])
    }

    /// The atoms from `range.start` to `range.end`: each one's type and where its body is. An
    /// atom that runs past the range is cut to it and is the last, as FFmpeg's demuxer reads it
    /// (`mov_read_default`). Throws ``IndexRefusal`` when
    /// there are more than ``maximumAtomsPerLevel``: FFmpeg reads them all, and an audit hid a
    /// forged size table behind 4096 `free` atoms.
    private static func children(
        of range: (start: UInt64, end: UInt64), in file: RegularFile
    ) throws -> [(type: String, body: (start: UInt64, end: UInt64))] {
        var found: [(type: String, body: (start: UInt64, end: UInt64))] = []
        var offset = range.start
        while range.end >= 8, offset <= range.end - 8,
            let header = try atomHeader(at: offset, end: range.end, in: file),
            header.size >= header.headerSize
        {
            guard found.count < maximumAtomsPerLevel else {
                throw IndexRefusal(
                    reason: "an atom of its index holds more than \(maximumAtomsPerLevel) atoms, which is as many as "
                        + "storyreel reads (a real clip's hold a few)")
            }
            let size = min(header.size, range.end - offset)
            guard size >= header.headerSize else { break }
            found.append((String(decoding: header.type, as: UTF8.self), (offset + header.headerSize, offset + size)))
            offset += size
        }
        return found
    }

    /// The header of the atom at `offset`, in a range (the file, or its parent atom) ending at
    /// `end`: its type's four bytes, its whole size (the 64-bit one after a size of 1; a size of
    /// 0 runs to `end`) and the header's own size; nil when fewer than 8 bytes are left.
    /// Where the contents of the first top-level `mdat` atom of `file` lie (the samples), or nil
    /// when there is none among the first ``maximumAtomsPerLevel`` or an atom before it does not
    /// fit in the file.
    static func samples(in file: RegularFile) throws -> Range<UInt64>? {
        var offset: UInt64 = 0
        for _ in 0..<maximumAtomsPerLevel {
            guard file.size >= 8, offset <= file.size - 8,
                let header = try atomHeader(at: offset, end: file.size, in: file),
                header.size >= header.headerSize, header.size <= file.size - offset
            else { return nil }
            if header.type.elementsEqual("mdat".utf8) { return (offset + header.headerSize)..<(offset + header.size) }
            offset += header.size
        }
        return nil
    }

    private static func atomHeader(at offset: UInt64, end: UInt64, in file: RegularFile) throws -> (
        type: [UInt8], size: UInt64, headerSize: UInt64
    )? {
        try file.seek(to: offset)
        let bytes = [UInt8](try file.read(upTo: 16))
        guard bytes.count >= 8 else { return nil }
        let size = bigEndian(bytes[0..<4])
        if size == 1, bytes.count >= 16 { return (Array(bytes[4..<8]), bigEndian(bytes[8..<16]), 16) }
        return (Array(bytes[4..<8]), size == 0 ? end - offset : size, 8)
    }

    /// The unsigned big-endian number `bytes` spell (at most 8 of them).
    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
