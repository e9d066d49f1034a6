import CFFmpeg

/// An EXIF orientation (TIFF tag 0x0112 of IFD0): how a stored picture is turned and mirrored to
/// display upright, 1 (as stored) to 8.
///
/// ``StillImageHeader`` finds a PNG's `eXIf` chunk (which FFmpeg 5.1's png decoder ignores) and
/// a JPEG's first `Exif` APP1 segment (whose orientation libavcodec's mjpeg decoder reads from
/// the last such segment, and from sub-IFDs too, where browsers do not), and this type reads it
/// into the display matrix the mjpeg decoder makes of it.
struct ExifOrientation: Equatable, Sendable {
    /// The tag's value, 1 to 8.
    let value: Int

    /// Most IFD0 entries looked at: far more than any camera writes.
    static let entryLimit = 256

    /// Wraps a tag value; nil outside 1...8.
    init?(value: Int) {
        guard (1...8).contains(value) else { return nil }
        self.value = value
    }

    /// Reads the orientation from a TIFF structure (an `eXIf` chunk's data, or an APP1 segment's
    /// after `Exif\0\0`): byte order `II` or `MM`, 42, the offset of IFD0, then its 12-byte
    /// entries. Nil when the data is malformed or has no valid Orientation entry. Every offset is
    /// checked against the data's length before it is read.
    init?(tiff bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func number(at offset: Int, size: Int) -> Int? {
            guard offset >= 0, size <= bytes.count, offset <= bytes.count - size else { return nil }
            let slice = bytes[offset..<(offset + size)]
            return (littleEndian ? slice.reversed() : Array(slice)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard number(at: 2, size: 2) == 42, let directory = number(at: 4, size: 4),
            let count = number(at: directory, size: 2)
        else { return nil }
        for entry in 0..<min(count, ExifOrientation.entryLimit) {
            let start = directory + 2 + 12 * entry
            guard let tag = number(at: start, size: 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT (3), one value, left-justified in the 4-byte value field.
            guard number(at: start + 2, size: 2) == 3, number(at: start + 4, size: 4) == 1,
                let value = number(at: start + 8, size: 2)
            else { return nil }
            self.init(value: value)
            return
        }
        return nil
    }

    /// The display matrix libavcodec's mjpeg decoder attaches for this orientation (nil for 1,
    /// which needs none), as 9 fixed-point values.
    var displayMatrix: [Int32]? {
        guard value != 1 else { return nil }
        var matrix = [Int32](repeating: 0, count: 9)
        matrix.withUnsafeMutableBufferPointer { buffer in
            let pointer = buffer.baseAddress!
            switch value {
            case 2:
                av_display_rotation_set(pointer, 0)
                av_display_matrix_flip(pointer, 1, 0)
            case 3: av_display_rotation_set(pointer, 180)
            case 4:
                av_display_rotation_set(pointer, 180)
                av_display_matrix_flip(pointer, 1, 0)
            case 5:
                av_display_rotation_set(pointer, -90)
                av_display_matrix_flip(pointer, 0, 1)
            case 6: av_display_rotation_set(pointer, 90)
            case 7:
                av_display_rotation_set(pointer, 90)
                av_display_matrix_flip(pointer, 0, 1)
            default: av_display_rotation_set(pointer, -90)
            }
        }
        return matrix
    }
}
