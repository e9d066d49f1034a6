import Foundation

/// Hostile inputs for the safety tests, made from the samples or with the ffmpeg CLI: a clip
/// with one corrupt sample size, pixel bombs, a clip whose bitstream is larger than its
/// container says, FIFOs and links to devices.
public enum HostileFiles {
    /// A good sample clip: `samples/portrait-h264.mp4` (720x1280, 3 s).
    public static var goodClip: String { TestEnvironment.sample("portrait-h264.mp4") }
    /// Another good sample clip: `samples/sixty-fps.mp4`.
    public static var otherClip: String { TestEnvironment.sample("sixty-fps.mp4") }

    /// Copies `source` to `destination` with the size of sample `entry` (0-based) in the first
    /// `stsz` table set to `value`: one 4-byte change, found by scanning the bytes for the atom.
    public static func corruptSampleSize(of source: String, to destination: String, entry: Int = 2, value: UInt32)
        throws
    {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        guard let atom = find(Array("stsz".utf8), in: bytes) else { throw TestFailure("no stsz atom in \(source)") }
        // 'stsz', version and flags (4), one size for all samples (4, 0 when there is a table),
        // the sample count (4), then one 4-byte size per sample.
        let uniformSize = bigEndian(bytes[(atom + 8)..<(atom + 12)])
        let count = bigEndian(bytes[(atom + 12)..<(atom + 16)])
        guard uniformSize == 0, entry < count else { throw TestFailure("\(source) has no per-sample size table") }
        put([value], at: atom + 16 + 4 * entry, in: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: destination))
    }

    /// Copies `source` to `destination` with the sample count of its first `stsz` (the first
    /// track's size table) set to `count`, fewer than its chunk tables hold: FFmpeg logs "wrong
    /// sample count" and its index of the track ends after `count` samples.
    public static func shortenSampleSizeTable(of source: String, to destination: String, count: UInt32) throws {
        // 'stsz', version and flags (4), one size for all samples (4), then the sample count.
        try shortenTable("stsz", countAt: 12, of: source, to: destination, count: count)
    }

    /// Copies `source` to `destination` with the entry count of its first `stco` (the first
    /// track's chunk offsets) set to `count`: its chunks then hold fewer samples than its time
    /// table lists, and FFmpeg indexes only those, without a word.
    public static func shortenChunkOffsetTable(of source: String, to destination: String, count: UInt32) throws {
        // 'stco', version and flags (4), then the entry count.
        try shortenTable("stco", countAt: 8, of: source, to: destination, count: count)
    }

    /// Copies `source` to `destination` with the count `countAt` bytes into the first `table`
    /// atom (from its type) lowered to `count`.
    private static func shortenTable(
        _ table: String, countAt offset: Int, of source: String, to destination: String, count: UInt32
    ) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        guard let atom = find(Array(table.utf8), in: bytes) else { throw TestFailure("no \(table) atom in \(source)") }
        guard UInt32(bigEndian(bytes[(atom + offset)..<(atom + offset + 4)])) > count else {
            throw TestFailure("\(source)'s first \(table) lists \(count) entries or fewer")
        }
        put([count], at: atom + offset, in: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: destination))
    }

    /// Copies `source` to `destination` with the timescale of its first `mdhd` (the first
    /// track's media header) set to 0, which FFmpeg reads as 1 tick per second.
    public static func zeroMediaTimescale(of source: String, to destination: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        guard let atom = find(Array("mdhd".utf8), in: bytes) else { throw TestFailure("no mdhd atom in \(source)") }
        // 'mdhd', version (1) and flags (3), creation and modification times (4 each in version
        // 0, 8 each in version 1), then the timescale (4).
        let offset = atom + 4 + 4 + (bytes[atom + 4] == 1 ? 16 : 8)
        for index in 0..<4 { bytes[offset + index] = 0 }
        try Data(bytes).write(to: URL(fileURLWithPath: destination))
    }

    /// Copies `source` to `destination` with the arrays of its first `hvcC` record (an HEVC
    /// track's configuration) that hold sequence parameter sets labelled as picture parameter
    /// sets (type 34). FFmpeg's decoder takes each unit's type from the unit's own header.
    public static func relabelledSequenceParameterSets(of source: String, to destination: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        guard let atom = find(Array("hvcC".utf8), in: bytes) else { throw TestFailure("no hvcC atom in \(source)") }
        let record = Array(bytes[(atom + 4)...])
        let sets = configurationUnits(of: record).filter { ($0.unit.first! >> 1) & 0x3F == 33 }
        guard !sets.isEmpty else { throw TestFailure("no sequence parameter set in \(source)'s hvcC") }
        for set in sets { bytes[atom + 4 + set.label] = bytes[atom + 4 + set.label] & 0xC0 | 34 }
        try Data(bytes).write(to: URL(fileURLWithPath: destination))
    }

    /// The NAL units of the `hvcC` record at the start of `record`, each with the offset of its
    /// array's label byte: after 22 bytes of header a byte counts the arrays, each a label, a
    /// 16-bit count of units and the units, each after its 16-bit length.
    public static func configurationUnits(of record: [UInt8]) -> [(label: Int, unit: ArraySlice<UInt8>)] {
        var units: [(label: Int, unit: ArraySlice<UInt8>)] = []
        var offset = 23
        for _ in 0..<Int(record[22]) {
            let label = offset
            let count = bigEndian(record[offset + 1...offset + 2])
            offset += 3
            for _ in 0..<count {
                let length = bigEndian(record[offset...offset + 1])
                units.append((label, record[offset + 2..<offset + 2 + length]))
                offset += 2 + length
            }
        }
        return units
    }

    /// Copies `source` to `destination` with the sample delta of the first entry of its first
    /// `stts` (the first track's time table; in the samples, one entry for every frame) set to
    /// `delta` ticks.
    public static func timeTableDelta(of source: String, to destination: String, delta: UInt32) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        guard let atom = find(Array("stts".utf8), in: bytes) else { throw TestFailure("no stts atom in \(source)") }
        // 'stts', version and flags (4), the entry count (4), then each entry's sample count
        // and delta (4 each).
        put([delta], at: atom + 16, in: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: destination))
    }

    /// Copies `source` (H.264, `avc1`) to `destination` with its sample description (`stsd`)
    /// saying the picture is `width` × `height`, whatever its bitstream says.
    public static func sampleDescriptionSize(of source: String, to destination: String, width: UInt16, height: UInt16)
        throws
    {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        guard let table = find(Array("stsd".utf8), in: bytes),
            let entry = find(Array("avc1".utf8), in: bytes, from: table)
        else { throw TestFailure("no avc1 sample description in \(source)") }
        // 'avc1', reserved (6), data reference index (2), pre-defined and reserved (16), then
        // the width and the height (2 each).
        let offset = entry + 4 + 24
        (bytes[offset], bytes[offset + 1]) = (UInt8(width >> 8), UInt8(width & 0xFF))
        (bytes[offset + 2], bytes[offset + 3]) = (UInt8(height >> 8), UInt8(height & 0xFF))
        try Data(bytes).write(to: URL(fileURLWithPath: destination))
    }

    /// Writes a copy of the good clip to `path` whose video stream FFmpeg reports at about
    /// 5 × 10^18 bit/s, more than half of `Int.max`, and which still decodes without a warning.
    /// Its `btrt` is renamed `free`, so FFmpeg works the rate out from the sample sizes over the
    /// track's duration: the first `mdhd` says 2^31 − 1 ticks a second and a duration of 1 tick,
    /// and sample 2 (0-based, the start of chunk 1) is 288 MiB, moved to the file's end, where
    /// its real bytes are followed by a hole: the file is 288 MiB long but under 1 MB on disk.
    public static func hugeVideoBitRateClip(at path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: goodClip)))
        let originalLength = bytes.count
        let hugeSample = 0x1200_0000
        func atom(_ type: String) throws -> Int {
            guard let found = find(Array(type.utf8), in: bytes) else { throw TestFailure("no \(type) in \(goodClip)") }
            return found
        }
        func put(_ value: Int, at offset: Int) {
            HostileFiles.put([UInt32(truncatingIfNeeded: value)], at: offset, in: &bytes)
        }
        bytes.replaceSubrange(try atom("btrt")..<(try atom("btrt") + 4), with: Array("free".utf8))
        // 'mdhd', version 0 and flags (4), creation and modification times (4 each), the
        // timescale (4), the duration (4).
        let header = try atom("mdhd")
        guard bytes[header + 4] == 0 else { throw TestFailure("\(goodClip)'s mdhd is not version 0") }
        put(0x7FFF_FFFF, at: header + 16)
        put(1, at: header + 20)
        // 'stsz', version and flags, one size for all (0), the count, then the sizes; 'stco',
        // version and flags, the count, then the offsets.
        let sizes = try atom("stsz")
        let offsets = try atom("stco")
        let (sampleOffset, sampleSize) = (
            bigEndian(bytes[(offsets + 16)..<(offsets + 20)]), bigEndian(bytes[(sizes + 24)..<(sizes + 28)])
        )
        put(hugeSample, at: sizes + 24)
        put(originalLength, at: offsets + 16)
        let data = try atom("mdat") - 4
        put(bigEndian(bytes[data..<(data + 4)]) + hugeSample, at: data)
        let sample = Array(bytes[sampleOffset..<(sampleOffset + sampleSize)])
        try Data(bytes + sample).write(to: URL(fileURLWithPath: path))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        try file.truncate(atOffset: UInt64(originalLength + hugeSample))
        // The sample's last byte is not 0: one ending in zeros is an upload still being written,
        // which `cube` refuses (a cube QA pass), and this clip is a claim of a bit rate, whole.
        try file.seek(toOffset: UInt64(originalLength + hugeSample - 1))
        try file.write(contentsOf: Data([0x80]))
    }

    /// The good clip's bytes with its pictures made zeros from `fraction` of its `mdat` on: its
    /// index is intact, so it probes, but those pictures do not decode (0: none does; 0.6: its
    /// end, as a preallocated upload cut short leaves it); `filler` another byte than zero. Only
    /// the video's samples are overwritten: the audio between them still decodes, so what fails
    /// is the pictures (audio that does not decode is a probe warning of its own). `sparing`
    /// bytes at the start of each sample are kept: with 8, each picture's length and NAL and
    /// slice headers, so the parser still finds its pixel format and the clip probes without a
    /// warning, while no picture decodes (with 0, `inspect` warns that the video does not decode).
    public static func goodClipWithPicturesZeroed(
        from fraction: Double, filler: UInt8 = 0, sparing: Int = 0
    ) throws -> Data {
        var data = try Data(contentsOf: URL(fileURLWithPath: goodClip))
        guard let marker = data.range(of: Data("mdat".utf8))?.lowerBound, marker >= 4 else {
            throw TestFailure("no mdat atom in \(goodClip)")
        }
        let size = bigEndian(ArraySlice(data[(marker - 4)..<marker]))
        let (first, end) = (marker + 4, marker - 4 + size)
        let cut = first + Int(Double(end - first) * fraction)
        let packets = try TestEnvironment.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pos,size", "-of", "csv=p=0", goodClip])
        guard packets.status == 0 else { throw TestFailure("ffprobe could not list \(goodClip)'s packets") }
        for line in packets.stdout.split(separator: "\n") {
            let fields = line.split(separator: ",").compactMap { Int($0) }
            guard fields.count == 2 else { continue }
            let (start, stop) = (max(fields[1] + sparing, cut), min(fields[1] + fields[0], end))
            guard start < stop else { continue }
            data.replaceSubrange(start..<stop, with: Data(repeating: filler, count: stop - start))
        }
        return data
    }

    /// Writes a `side` × `side` PNG of one colour, 1 bit per pixel, to `path`: a few dozen KB for
    /// 16000 × 16000, which decodes to gigabytes of RGBA.
    public static func pixelBombPNG(at path: String, width: Int = 16000, height: Int = 16000) throws {
        try ffmpeg([
            "-f", "lavfi", "-i", "color=c=gray:s=\(width)x\(height)", "-frames:v", "1", "-pix_fmt", "monob", path,
        ])
    }

    /// Writes a one-frame 16000 × 16000 QuickTime clip of a PNG (1 bit per pixel, made with
    /// ``pixelBombPNG(at:width:height:)``) to `path`.
    public static func pngPixelBombClip(at path: String) throws {
        let still = path + ".png"
        try pixelBombPNG(at: still)
        defer { try? FileManager.default.removeItem(atPath: still) }
        try ffmpeg(["-i", still, "-c:v", "copy", "-f", "mov", path])
    }

    /// Writes a one-frame MJPEG QuickTime clip to `path` whose container (the `stsd` sample
    /// entry) and JPEG frame header (SOF0) both say 16000 × 16000, over a 64 × 64 picture's
    /// scan: a decoder that trusted the header would allocate the whole picture. (Encoding a
    /// real 16000 × 16000 picture took ffmpeg 10 s, nearly all of it faulting in memory.)
    public static func mjpegPixelBombClip(at path: String) throws {
        let small = path + ".64x64.mov"
        try ffmpeg([
            "-f", "lavfi", "-i", "color=c=gray:s=64x64:r=1", "-frames:v", "1", "-c:v", "mjpeg", "-pix_fmt", "yuvj420p",
            "-f", "mov", small,
        ])
        defer { try? FileManager.default.removeItem(atPath: small) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: small)))
        let side: [UInt8] = [0x3E, 0x80]  // 16000
        guard let stsd = find(Array("stsd".utf8), in: bytes),
            let entry = find(Array("jpeg".utf8), in: bytes, from: stsd),
            let frameHeader = find([0xFF, 0xC0], in: bytes)
        else { throw TestFailure("no jpeg sample entry or SOF0 in \(small)") }
        // The sample entry's width and height (see lyingPixelBombClip), and SOF0's height and
        // width after its marker (2), length (2) and sample precision (1).
        for field in [entry + 4 + 24, frameHeader + 5] {
            guard bigEndian(bytes[field..<(field + 4)]) == 64 << 16 | 64 else {
                throw TestFailure("unexpected \(small)")
            }
            bytes.replaceSubrange(field..<(field + 4), with: side + side)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Copies the PNG clip `source` (from ``pngPixelBombClip(at:)``) to `path` with its container
    /// (the `stsd` sample entry) saying 64 × 64 while the PNG inside is still 16000 × 16000:
    /// only the decoder's own limit can catch it.
    public static func lyingPixelBombClip(from source: String, at path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        guard let stsd = find(Array("stsd".utf8), in: bytes),
            let entry = find(Array("png ".utf8), in: bytes, from: stsd)
        else { throw TestFailure("no png sample entry in \(source)") }
        // The visual sample entry: type, 6 reserved, data reference (2), version (2), revision
        // (2), vendor (4), temporal and spatial quality (4 + 4), then width and height (2 + 2).
        let width = entry + 4 + 24
        guard bigEndian(bytes[width..<(width + 2)]) == 16000 else { throw TestFailure("unexpected stsd in \(source)") }
        bytes.replaceSubrange(width..<(width + 4), with: [0, 64, 0, 64])
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Makes a FIFO at `path` (nothing ever writes to it: opening it for reading blocks forever).
    public static func fifo(at path: String) throws {
        let made = try TestEnvironment.run("mkfifo", [path])
        guard made.status == 0 else { throw TestFailure("mkfifo failed: \(made.stderr)") }
    }

    /// Makes a UNIX socket at `path` (bound by Debian's Python, which then exits: the socket
    /// file stays, and opening it fails with ENXIO).
    public static func socket(at path: String) throws {
        let made = try TestEnvironment.run(
            "/usr/bin/python3", ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path])
        guard made.status == 0 else { throw TestFailure("binding a socket failed: \(made.stderr)") }
    }

    /// Makes a symlink at `path` to `target`, e.g. `/dev/zero`.
    public static func link(at path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    /// Writes a 1 s 10-bit HEVC clip (hvc1) to `path` that says it is Dolby Vision of `profile`
    /// with base-layer compatibility `compatibility`: the ffmpeg CLI's `btrt` box in the sample
    /// entry (20 bytes) is turned into a `dvvC` of the same size (version 1.0, level 6, RPU and
    /// base layer present), which FFmpeg reads as its DOVI configuration record. Only the label
    /// changes: the pictures are ordinary HEVC. `sampleEntry` renames the sample entry (`dvh1`,
    /// `dvhe`: Dolby Vision's own).
    public static func dolbyVisionClip(
        at path: String, profile: Int, compatibility: Int, transfer: String = "bt709", sampleEntry: String = "hvc1"
    ) throws {
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=180x320:r=30:d=1", "-c:v", "libx265", "-x265-params", "log-level=error",
            "-tag:v", "hvc1", "-pix_fmt", "yuv420p10le", "-color_trc", transfer, path,
        ])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard let type = find(Array("btrt".utf8), in: bytes), type >= 4, bigEndian(bytes[(type - 4)..<type]) == 20
        else { throw TestFailure("no 20-byte btrt box in \(path)") }
        let fields = profile << 9 | 6 << 3 | 1 << 2 | 1
        let record: [UInt8] = [1, 0, UInt8(fields >> 8), UInt8(fields & 0xFF), UInt8(compatibility << 4)]
        bytes.replaceSubrange(type..<(type + 16), with: Array("dvvC".utf8) + record + [UInt8](repeating: 0, count: 7))
        if sampleEntry != "hvc1" {
            guard let stsd = find(Array("stsd".utf8), in: bytes),
                let entry = find(Array("hvc1".utf8), in: bytes, from: stsd)
            else { throw TestFailure("no hvc1 sample entry in \(path)") }
            bytes.replaceSubrange(entry..<(entry + 4), with: Array(sampleEntry.utf8))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Copies `source` to `destination` with its first track's index forged to list `count`
    /// one-byte samples: its size table (`stsz`) one size of 1 for `count` samples, and its
    /// chunk (`stsc`) and time (`stts`) tables each one run of them, then `padding` bytes in a
    /// `free` atom at the end. A few bytes make FFmpeg index every sample (an audit's 7.5 KB
    /// file of 50,000,000).
    public static func forgedSampleCount(of source: String, to destination: String, count: UInt32, padding: Int = 0)
        throws
    {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        for (type, values) in [("stsz", [1, count]), ("stsc", [1, 1, count, 1]), ("stts", [1, count, 1])] {
            guard let atom = find(Array(type.utf8), in: bytes) else { throw TestFailure("no \(type) in \(source)") }
            put(values, at: atom + 8, in: &bytes)  // after the type, its version and flags
        }
        if padding > 0 {
            bytes += atom("free", containing: [UInt8](repeating: 0, count: padding))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: destination))
    }

    /// Remuxes `source` to a fragmented MP4 at `destination` whose first track run (`trun`)
    /// lists `count` samples with no per-sample fields (flags 0): a few bytes that make FFmpeg
    /// index `count` samples.
    public static func forgedFragmentSampleCount(of source: String, to destination: String, count: UInt32) throws {
        try ffmpeg(["-i", source, "-c", "copy", "-movflags", "frag_keyframe+empty_moov+default_base_moof", destination])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: destination)))
        guard let atom = find(Array("trun".utf8), in: bytes) else { throw TestFailure("no trun in \(destination)") }
        put([0, count], at: atom + 4, in: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: destination))
    }

    /// Remuxes `source` to `destination` with its index (`moov`) at the end, then inserts
    /// `atoms` (whole atoms, their headers included) right after the first track's first atom
    /// of type `type` (`stsz`, its size table; `mdia`, to add a child to the `trak`), growing
    /// the atoms around it: its samples keep their offsets. An audit's ways past the sniffer: a
    /// second, forged `stsz` (FFmpeg keeps the last), one behind 4096 `free` atoms, or one in
    /// the track's `udta` (FFmpeg reads a table wherever it is).
    public static func insert(_ atoms: [UInt8], after type: String, of source: String, to destination: String)
        throws
    {
        try ffmpeg(["-i", source, "-c", "copy", "-map", "0", destination])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: destination)))
        let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl"]
        var ancestors: [Int] = []
        var offset = 0
        var end = bytes.count
        while offset + 8 <= end {
            let size = bigEndian(bytes[offset..<offset + 4])
            let atomType = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if atomType == type {
                bytes.insert(contentsOf: atoms, at: offset + size)
                for ancestor in ancestors {
                    put([UInt32(bigEndian(bytes[ancestor..<ancestor + 4]) + atoms.count)], at: ancestor, in: &bytes)
                }
                try Data(bytes).write(to: URL(fileURLWithPath: destination))
                return
            }
            if containers.contains(atomType) {
                ancestors.append(offset)
                end = offset + size
                offset += 8
            } else {
                offset += size
            }
        }
        throw TestFailure("no \(type) in \(destination)")
    }

    /// An atom of `type` whose body is `values`, 32-bit big-endian each.
    public static func atom(_ type: String, _ values: [UInt32]) -> [UInt8] {
        var body = [UInt8](repeating: 0, count: 4 * values.count)
        put(values, at: 0, in: &body)
        return atom(type, containing: body)
    }

    /// An atom of `type` whose body is `body` (other atoms, for a container).
    public static func atom(_ type: String, containing body: [UInt8]) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 4) + Array(type.utf8)
        put([UInt32(8 + body.count)], at: 0, in: &header)
        return header + body
    }

    /// Writes `values` into `bytes` from `offset`, 32-bit big-endian each.
    static func put(_ values: [UInt32], at offset: Int, in bytes: inout [UInt8]) {
        for (number, value) in values.enumerated() {
            for index in 0..<4 {
                bytes[offset + 4 * number + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index)))
            }
        }
    }

    /// A grey 504x8 progressive JPEG: its DC scan, then `acScans` AC scans each skipping all 63
    /// blocks with one end-of-band run (an audit's scan bomb, small: each scan costs about 20
    /// bytes and a walk over every block of the picture).
    public static func progressiveJPEG(acScans: Int) -> Data {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        /// Bits, most significant first, padded with ones, an FF byte stuffed with 00.
        func entropy(_ bits: [Int]) -> [UInt8] {
            let padded = bits + Array(repeating: 1, count: (8 - bits.count % 8) % 8)
            return stride(from: 0, to: padded.count, by: 8).flatMap { start -> [UInt8] in
                let byte = UInt8(padded[start..<start + 8].reduce(0) { $0 << 1 | $1 })
                return byte == 0xFF ? [0xFF, 0x00] : [byte]
            }
        }
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xDB, [0x00] + Array(repeating: 1, count: 64))
        bytes += segment(0xC2, [8, 0, 8, 0x01, 0xF8, 1, 0x01, 0x11, 0x00])  // 8 bits, 8 high, 504 wide, 1 component
        bytes += segment(0xC4, [0x00, 1] + Array(repeating: 0, count: 15) + [0x00])  // DC: '0' is a difference of 0
        bytes += segment(0xC4, [0x10, 1, 1] + Array(repeating: 0, count: 14) + [0xE0, 0x50])  // AC: '10' is EOB5
        bytes += segment(0xDA, [0x01, 0x01, 0x00, 0x00, 0x00, 0x00]) + entropy(Array(repeating: 0, count: 63))
        // One run of 63 blocks: EOB5 ('10'), then 63 − 32 in 5 bits.
        let scan = segment(0xDA, [0x01, 0x01, 0x00, 0x01, 0x3F, 0x00]) + entropy([1, 0, 1, 1, 1, 1, 1])
        for _ in 0..<acScans { bytes += scan }
        return Data(bytes + [0xFF, 0xD9])
    }

    /// Runs the ffmpeg CLI quietly with `arguments`, overwriting its output.
    public static func ffmpeg(_ arguments: [String]) throws {
        let made = try TestEnvironment.run("ffmpeg", ["-v", "error", "-y"] + arguments)
        guard made.status == 0 else { throw TestFailure("ffmpeg failed: \(made.stderr)") }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        let haystack = Data(bytes)
        guard start <= haystack.count else { return nil }
        return haystack.range(of: Data(needle), in: start..<haystack.count)?.lowerBound
    }

    /// The unsigned big-endian number `bytes` hold (an MP4 atom's size, for one).
    public static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $0 << 8 | Int($1) } }
}
