import Foundation

/// The Unicode encoding of JSON text, as Foundation's parser detects it (RFC 4627's rule): a
/// byte-order mark, else where the zero bytes of the first two ASCII characters fall.
enum JSONTextEncoding {
    /// `data` as UTF-8: text in UTF-16 or UTF-32 re-encoded, without its byte-order mark; UTF-8
    /// as it is. Nil when the text is not valid in the encoding its first bytes announce.
    ///
    /// Byte counts (``JSONShape``), duplicate keys and syntax faults are read from UTF-8 bytes:
    /// in UTF-16, the bytes of a character like U+2200 hold a quote that hid 2,500,000 values
    /// of a `story.json` from the count (488 MB; an audit).
    static func utf8(_ data: Data) -> Data? {
        let head = [UInt8](data.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - data.count))
        let marked: (encoding: String.Encoding, markLength: Int)? =
            switch (head[0], head[1], head[2], head[3]) {
            case (0x00, 0x00, 0xFE, 0xFF): (.utf32BigEndian, 4)
            case (0xFF, 0xFE, 0x00, 0x00): (.utf32LittleEndian, 4)
            case (0xFE, 0xFF, _, _): (.utf16BigEndian, 2)
            case (0xFF, 0xFE, _, _): (.utf16LittleEndian, 2)
            case (0x00, 0x00, 0x00, _): (.utf32BigEndian, 0)
            case (_, 0x00, 0x00, 0x00): (.utf32LittleEndian, 0)
            case (0x00, _, _, _): (.utf16BigEndian, 0)
            case (_, 0x00, _, _): (.utf16LittleEndian, 0)
            default: nil
            }
        guard let (encoding, markLength) = marked else { return data }
        return String(data: data.dropFirst(markLength), encoding: encoding).map { Data($0.utf8) }
    }
}
