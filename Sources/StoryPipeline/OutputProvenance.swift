import Foundation
import StoryMedia

/// What a bundle's image or transition says of itself in its own bytes: `storyreel OUTPUT`, its
/// name in the bundle, in a JPEG comment (`COM`) or the MP4's comment tag.
///
/// storyreel's mark (an extended attribute) does not survive most copies: `cp -r`, `rsync -a`,
/// tar and CI artifacts drop it. In a bundle with a ledger, a key-named file that the ledger does
/// not know and that has no mark was taken for someone else's, so the final pass over shards
/// merged that way, into a bundle restored from a cache, skipped every new clip's images and left
/// the clip out of the manifest (65), for good (a QA pass). A file whose bytes name it as that
/// very output is a copy of storyreel's: a user's own file at that name does not say so.
enum OutputProvenance {
    /// `storyreel posters/27556d5310083f6f2341.jpg` for that output.
    static func text(naming output: String) -> String { "storyreel " + output }

    /// `jpeg` with a comment segment naming `output`, after its JFIF header (`APP0`), which
    /// readers expect first; the picture is unchanged.
    static func jpeg(_ jpeg: Data, naming output: String) -> Data {
        let text = Array(text(naming: output).utf8)
        let bytes = [UInt8](jpeg)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8, text.count + 2 <= 0xFFFF else { return jpeg }
        var insertAt = 2
        if bytes.count >= 6, bytes[2] == 0xFF, bytes[3] == 0xE0 {
            insertAt = min(bytes.count, 4 + (Int(bytes[4]) << 8 | Int(bytes[5])))
        }
        let length = text.count + 2
        let segment: [UInt8] = [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text
        return Data(bytes[..<insertAt] + segment + bytes[insertAt...])
    }

    /// True when the JPEG `head` (its first bytes) has a comment segment naming `output` before
    /// its first scan.
    static func jpegNames(_ head: [UInt8], output: String) -> Bool {
        let wanted = Array(text(naming: output).utf8)
        var index = 2
        while index + 4 <= head.count, head[index] == 0xFF {
            let marker = head[index + 1]
            // Start of scan or end of image: no more header segments.
            if marker == 0xDA || marker == 0xD9 { return false }
            let length = Int(head[index + 2]) << 8 | Int(head[index + 3])
            guard length >= 2 else { return false }
            if marker == 0xFE, head.count >= index + 2 + length,
                head[(index + 4)..<(index + 2 + length)].elementsEqual(wanted)
            {
                return true
            }
            index += 2 + length
        }
        return false
    }
}
