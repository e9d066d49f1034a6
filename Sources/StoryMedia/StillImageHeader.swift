import Foundation

/// The picture size a PNG or JPEG still declares in its header, read from the file's own bytes
/// before any decoder sees it, so that the ``PixelBudget`` is checked before anything is
/// decoded. (FFmpeg's `png_pipe` and `jpeg_pipe` demuxers leave the size unset until a frame
/// has been decoded.)
public enum StillImageHeader {
    /// Most JPEG marker segments walked before the frame header: far more than any camera writes.
    static let jpegSegmentLimit = 1024

    /// The width and height in a PNG's `IHDR` chunk, which the format puts first: 4 bytes each,
    /// big-endian, from byte 16. Throws `.invalidMedia` when there is none.
    static func pngSize(of file: RegularFile) throws -> (width: Int, height: Int) {
        let header = try bytes(of: file, at: 8, count: 16)
        guard header.count == 16, header[4..<8].elementsEqual("IHDR".utf8) else {
            throw MediaError(.invalidMedia, path: file.path, "not a readable PNG image (no IHDR header)")
        }
        return (bigEndian(header[8..<12]), bigEndian(header[12..<16]))
    }

    /// Most PNG chunks walked before the first `IDAT`, looking for `eXIf`.
    static let pngChunkLimit = 1024
    /// The largest `eXIf` chunk read, in bytes (the orientation is in its first entries).
    static let pngExifLimit = 65_536

    /// The EXIF orientation in a PNG's `eXIf` chunk, found by walking the chunks after the
    /// signature up to the first `IDAT` (where browsers stop looking too), or nil when there is
    /// none, it is malformed, fails its CRC (libpng drops an ancillary chunk that does: a cube QA
    /// pass found a corrupt avatar turned in the transition and upright in the page), is larger
    /// than ``pngExifLimit``, or more than ``pngChunkLimit`` chunks come first.
    static func pngExifOrientation(of file: RegularFile) throws -> ExifOrientation? {
        var offset: UInt64 = 8  // after the signature
        for _ in 0..<pngChunkLimit {
            let header = try bytes(of: file, at: offset, count: 8)
            guard header.count == 8 else { return nil }
            let length = UInt64(bigEndian(header[0..<4]))
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "IDAT" || type == "IEND" { return nil }
            if type == "eXIf" {
                guard length <= UInt64(pngExifLimit) else { return nil }
                // Type, data and CRC.
                let chunk = try bytes(of: file, at: offset + 4, count: Int(length) + 8)
                guard chunk.count == Int(length) + 8 else { return nil }
                let crc = try ContentHasher.hex(of: chunk.dropLast(4), algorithm: "CRC32")
                guard crc == chunk.suffix(4).map({ String(format: "%02x", $0) }).joined() else { return nil }
                return ExifOrientation(tiff: Array(chunk.dropFirst(4).dropLast(4)))
            }
            // Length, type, data and CRC; a 32-bit length cannot overflow 64 bits.
            offset += 12 + length
        }
        return nil
    }

    /// The width and height in a JPEG's first frame header (SOF0 … SOF15, not DHT, JPG or DAC),
    /// found by walking the marker segments from the start. Throws `.invalidMedia` when the
    /// image data or the end of the file comes first.
    public static func jpegSize(of file: RegularFile) throws -> (width: Int, height: Int) {
        let noFrameHeader = MediaError(.invalidMedia, path: file.path, "not a readable JPEG image (no frame header)")
        let size: (width: Int, height: Int)? = try firstInJPEGSegments(of: file) { code, _, fields in
            if code == 0xD9 || code == 0xDA {
                throw MediaError(
                    .invalidMedia, path: file.path, "not a readable JPEG image (no frame header before the image data)")
            }
            guard isStartOfFrame(code) else { return nil }
            guard fields.count == 7, bigEndian(fields[0..<2]) >= 7 else { throw noFrameHeader }
            return (width: bigEndian(fields[5..<7]), height: bigEndian(fields[3..<5]))
        }
        guard let size else { throw noFrameHeader }
        return size
    }

    /// The EXIF orientation in a JPEG's first `Exif` APP1 segment, read from its IFD0 as browsers
    /// read it (Chromium takes the first such segment, and IFD0's tag alone), or nil when there
    /// is none before the image data or it gives none. libavcodec's decoder took the last such
    /// segment's, and an orientation in the Exif sub-IFD, where a PNG with the same EXIF came out
    /// upright (a cube QA pass).
    static func jpegExifOrientation(of file: RegularFile) throws -> ExifOrientation? {
        let exif = Array("Exif".utf8) + [0, 0]
        let found: ExifOrientation?? = try firstInJPEGSegments(of: file) { code, segment, fields in
            guard code == 0xE1, fields.count >= 2 else { return nil }
            let length = bigEndian(fields[0..<2])
            guard length >= 2 + exif.count else { return nil }
            let data = try bytes(of: file, at: segment + 2, count: length - 2)
            guard data.starts(with: exif) else { return nil }
            return .some(ExifOrientation(tiff: Array(data.dropFirst(exif.count))))
        }
        return found ?? nil
    }

    /// Walks a JPEG's marker segments from its start, through at most ``jpegSegmentLimit``,
    /// calling `visit` with each marker's code, the offset of its length field and up to its
    /// first 7 bytes (none for the start of the image data, SOS, or its end, EOI, which end the
    /// walk); the first value `visit` returns ends the walk. Nil when none does, or the segments
    /// are malformed.
    private static func firstInJPEGSegments<Found>(
        of file: RegularFile, _ visit: (_ code: UInt8, _ segment: UInt64, _ fields: [UInt8]) throws -> Found?
    ) throws -> Found? {
        var offset: UInt64 = 2  // after SOI
        for _ in 0..<jpegSegmentLimit {
            // A marker is 0xFF, any number of 0xFF fill bytes, then its code.
            let head = try bytes(of: file, at: offset, count: 64)
            guard let start = head.firstIndex(of: 0xFF) else {
                if head.isEmpty { return nil }
                offset += UInt64(head.count)
                continue
            }
            guard let codeIndex = head[start...].firstIndex(where: { $0 != 0xFF }) else {
                offset += UInt64(head.count)
                continue
            }
            let code = head[codeIndex]
            let segment = offset + UInt64(codeIndex) + 1  // the length field, when the marker has one
            switch code {
            case 0x00, 0x01, 0xD0...0xD8:
                // A stuffed byte, TEM, RSTn or SOI: no length field.
                offset = segment
            case 0xD9, 0xDA:
                return try visit(code, segment, [])
            default:
                let fields = try bytes(of: file, at: segment, count: 7)
                guard fields.count >= 2 else { return nil }
                if let found = try visit(code, segment, fields) { return found }
                let length = UInt64(bigEndian(fields[0..<2]))
                guard length >= 2 else { return nil }
                offset = segment + length
            }
        }
        return nil
    }

    /// The most scans (SOS segments) a JPEG may hold. Each scan of a progressive JPEG is decoded
    /// over the whole picture, and no deadline reaches the decoder: an audit's 1.1 MB avatar of
    /// 10,000 empty scans at 8192x8192 took 119 s to render at `--timeout 5`. Encoders write 1
    /// (baseline) to about 10 (libjpeg's progressive script; mozjpeg's up to about 20).
    static let maximumJPEGScans = 100

    /// Throws `.invalidMedia` when `file`, a JPEG, holds more than ``maximumJPEGScans`` scans
    /// before its end (EOI), counted as the decoder meets them: marker segments skipped by their
    /// lengths, each scan's entropy-coded data to the next marker (an FF there is followed by 00
    /// or a restart code). What follows the end is not read: a phone's Motion Photo appends an
    /// MP4, whose bytes hold an FF DA pair every 64 KB (a review: counting every pair refused a
    /// 6 MB one).
    static func checkJPEGScans(of file: RegularFile) throws {
        try file.seek(to: 0)
        let data = [UInt8](try file.read(upTo: Int(clamping: file.size)))
        if let problem = data.withUnsafeBytes({ jpegScanProblem(in: $0, throughEnd: false) }) {
            throw MediaError(.invalidMedia, path: file.path, problem)
        }
    }

    /// Why the JPEG `bytes` (from its SOI) are not decoded, or nil: more than
    /// ``maximumJPEGScans`` scans, found as FFmpeg's decoder finds markers (only FF C0 to FF FE;
    /// the segments it skips by their lengths skipped so, any other marker stepped over, so a
    /// scan inside a segment it does not skip is counted: a review hid 149 in an FF F0 one).
    /// A still's count ends at its first EOI after a frame header, as the decoder's does (a
    /// Motion Photo's MP4 follows it); an MJPEG packet's (`throughEnd`) runs to the packet's
    /// end, as the decoder goes on past an EOI before any frame and into a second field. Also
    /// for each frame of an MJPEG clip, before it reaches the decoder (a re-audit: a 2.1 MB
    /// MJPEG clip of one 20,000-scan frame took 38 s at `--timeout 5`).
    static func jpegScanProblem(in bytes: UnsafeRawBufferPointer, throughEnd: Bool) -> String? {
        var scans = 0
        var sawFrame = false
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF, bytes[index + 1] >= 0xC0, bytes[index + 1] != 0xFF else {
                index += 1  // entropy-coded data, stuffing, restarts, fill, or bytes between segments
                continue
            }
            let code = bytes[index + 1]
            if code == 0xD9 {
                if !throughEnd, sawFrame { return nil }  // what follows is no part of the picture
                index += 2
                continue
            }
            // The segments FFmpeg's decoder reads by their length: frame headers (SOF0 to SOF3,
            // SOF48), DHT, DQT, DRI, SOS's header, LSE, APPn and COM.
            let lengthed: Bool
            switch code {
            case 0xC0...0xC3, 0xF7, 0xC4, 0xDB, 0xDD, 0xDA, 0xF8, 0xE0...0xEF, 0xFE: lengthed = true
            default: lengthed = false
            }
            guard lengthed, index + 3 < bytes.count else {
                index += 2
                continue
            }
            if (0xC0...0xC3).contains(code) || code == 0xF7 { sawFrame = true }
            if code == 0xDA {
                scans += 1
                if scans > maximumJPEGScans {
                    return "a JPEG of more than \(maximumJPEGScans) scans (an encoder writes 1 to about 10, and each "
                        + "is decoded over the whole picture)"
                }
            }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            // A scan's entropy-coded data follows its header; the loop above walks it.
            index += 2 + max(2, length)
        }
        return nil
    }

    /// SOF0 … SOF15, leaving out DHT (C4), JPG (C8) and DAC (CC).
    private static func isStartOfFrame(_ code: UInt8) -> Bool {
        (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
    }

    /// Up to `count` bytes of `file` from `offset`; fewer at the end of the file.
    private static func bytes(of file: RegularFile, at offset: UInt64, count: Int) throws -> [UInt8] {
        guard offset < file.size else { return [] }
        try file.seek(to: offset)
        var result: [UInt8] = []
        while result.count < count {
            let chunk = try file.read(upTo: count - result.count)
            if chunk.isEmpty { break }
            result += chunk
        }
        return result
    }

    /// An unsigned big-endian number of up to 4 bytes.
    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }
}
