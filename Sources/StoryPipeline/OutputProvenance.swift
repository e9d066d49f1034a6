import Foundation
import StoryMedia

/// What a bundle's image or transition says of itself in its own bytes: `storyreel OUTPUT
/// sha256:HASH`, its name in the bundle and the SHA-256 of the pictures it holds, in a JPEG
/// comment (`COM`, hashing the JPEG without that segment) or the MP4's comment tag (hashing the
/// samples, the `mdat` box's contents).
///
/// storyreel's mark (an extended attribute) does not survive most copies: `cp -r`, `rsync -a`,
/// tar and CI artifacts drop it. In a bundle with a ledger, a key-named file that the ledger does
/// not know and that has no mark was taken for someone else's, so the final pass over shards
/// merged that way, into a bundle restored from a cache, skipped every new clip's images and left
/// the clip out of the manifest (65), for good (a QA pass). A file whose bytes name it as that
/// very output, with the hash of the pictures it still holds, is a copy of storyreel's: a user's
/// own file at that name does not say so, nor does one edited or re-encoded by a tool that
/// keeps the comment (`jpegtran -copy all`, the ffmpeg CLI: a review).
enum OutputProvenance {
    /// `storyreel posters/27556d5310083f6f2341.jpg` for that output: what its comment says before
    /// the hash.
    static func text(naming output: String) -> String { "storyreel " + output }

    /// The largest image whose comment is checked: far above any image storyreel makes.
    static let maximumImageSize: UInt64 = 64 << 20

    /// `jpeg` with a comment segment naming `output` and the SHA-256 of `jpeg`, after its JFIF
    /// header (`APP0`), which readers expect first; the picture is unchanged.
    static func jpeg(_ jpeg: Data, naming output: String) throws -> Data {
        let text = Array((text(naming: output) + " sha256:" + (try ContentHasher.sha256(of: jpeg))).utf8)
        let bytes = [UInt8](jpeg)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8, text.count + 2 <= 0xFFFF else { return jpeg }
        var insertAt = 2
        if bytes.count >= 6, bytes[2] == 0xFF, bytes[3] == 0xE0 {
            insertAt = min(bytes.count, 4 + max(2, Int(bytes[4]) << 8 | Int(bytes[5])))
        }
        let length = text.count + 2
        var tagged = jpeg
        tagged.insert(contentsOf: [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text, at: insertAt)
        return tagged
    }

    /// What a file's own bytes say of it as a bundle output.
    enum Verdict: Equatable {
        /// They name it as the output, with the hash of the pictures it holds.
        case vouches
        /// They carry storyreel's comment, for another output or other pictures: a copy edited
        /// in place (a shell redirect, `ffmpeg -y`) keeps storyreel's mark, and was taken (a
        /// review).
        case contradicts
        /// They carry no storyreel comment: a user's file, or an output of a storyreel before
        /// the comment.
        case silent
    }

    /// What the JPEG at `path` says of itself as `output`: its first comment segment before its
    /// first scan that starts `storyreel `, and the SHA-256 of the file without that segment.
    static func jpegVerdict(_ path: String, output: String, timeout: Double) -> Verdict {
        guard let file = try? RegularFile(path: path, maxSize: maximumImageSize, timeout: timeout),
            let data = try? file.read(upTo: Int(file.size))
        else { return .contradicts }
        let head = [UInt8](data)
        guard let comment = storyreelComment(in: head) else { return .silent }
        let wanted = Array((text(naming: output) + " sha256:").utf8)
        guard comment.body.starts(with: wanted) else { return .contradicts }
        let rest = Data(head[..<comment.segment.lowerBound] + head[comment.segment.upperBound...])
        let digest = String(decoding: comment.body.dropFirst(wanted.count), as: UTF8.self)
        return (try? ContentHasher.sha256(of: rest)) == digest ? .vouches : .contradicts
    }

    /// The output the JPEG at `path` names itself as (`posters/….jpg`), or nil when it carries no
    /// storyreel comment or cannot be read. `validate` holds a manifest's images to it.
    static func jpegNamedOutput(_ path: String, timeout: Double) -> String? {
        guard let file = try? RegularFile(path: path, maxSize: maximumImageSize, timeout: timeout),
            let data = try? file.read(upTo: Int(file.size)), let comment = storyreelComment(in: [UInt8](data))
        else { return nil }
        return namedOutput(inComment: String(decoding: comment.body, as: UTF8.self))
    }

    /// True when the image or transition at `path` names itself as `output` in its own bytes
    /// (its JPEG comment, its MP4 comment tag), whatever hash the comment gives: storyreel's
    /// file for that output, perhaps cut short or edited since. A clip, which carries no
    /// comment, never does.
    static func namesItself(_ path: String, as output: String, timeout: Double) -> Bool {
        let named: String?
        if output.hasSuffix(".jpg") {
            named = jpegNamedOutput(path, timeout: timeout)
        } else if output.hasPrefix("transitions/") {
            // The container's tags alone: opening it, not probing and decoding it as `inspect` does.
            named = (try? InputFile(path: path, timeout: timeout))?.tags["comment"].flatMap(namedOutput(inComment:))
        } else {
            named = nil
        }
        return named == output
    }

    /// True when the clip copy at `path` holds the first bytes of its `source` and no more: a
    /// copy of that very clip cut short (a shard's artifact half downloaded, a copy a full disk
    /// stopped), which carries no comment to say so. Setting it aside loses nothing, as every
    /// byte of it is in the source (a QA pass: it was left, its item skipped on every run, 65,
    /// and the bundle validated without it).
    static func isCutShortCopy(_ path: String, of source: String, timeout: Double) -> Bool {
        guard let placed = try? RegularFile(path: path, timeout: timeout),
            let original = try? RegularFile(path: source, timeout: timeout),
            placed.size > 0, placed.size < original.size
        else { return false }
        do {
            var compared: UInt64 = 0
            while compared < placed.size {
                let chunk = try placed.read(upTo: 1 << 20)
                guard !chunk.isEmpty else { return false }
                var same = Data()
                while same.count < chunk.count {
                    let part = try original.read(upTo: chunk.count - same.count)
                    guard !part.isEmpty else { return false }
                    same.append(part)
                }
                guard same == chunk else { return false }
                compared += UInt64(chunk.count)
            }
            return compared == placed.size
        } catch {
            return false
        }
    }

    /// The output a comment `storyreel OUTPUT sha256:HASH` names, or nil for any other text.
    static func namedOutput(inComment comment: String) -> String? {
        guard comment.hasPrefix("storyreel "), let hash = comment.range(of: " sha256:", options: .backwards) else {
            return nil
        }
        let output = comment[comment.index(comment.startIndex, offsetBy: 10)..<hash.lowerBound]
        return output.isEmpty ? nil : String(output)
    }

    /// The JPEG `head`'s first comment segment before its first scan that starts `storyreel `:
    /// the segment's bytes (marker included) and its text.
    private static func storyreelComment(in head: [UInt8]) -> (segment: Range<Int>, body: ArraySlice<UInt8>)? {
        let ours = Array("storyreel ".utf8)
        var index = 2
        while index + 4 <= head.count, head[0] == 0xFF, head[1] == 0xD8, head[index] == 0xFF {
            let marker = head[index + 1]
            // Start of scan or end of image: no more header segments.
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(head[index + 2]) << 8 | Int(head[index + 3])
            guard length >= 2, index + 2 + length <= head.count else { break }
            let body = head[(index + 4)..<(index + 2 + length)]
            if marker == 0xFE, body.starts(with: ours) { return (index..<(index + 2 + length), body) }
            index += 2 + length
        }
        return nil
    }

    /// What the MP4 at `path`, whose comment tag is `comment`, says of itself as `output`: the
    /// comment, and the SHA-256 of the file's samples (its first top-level `mdat` box's contents).
    static func mp4Verdict(_ path: String, comment: String?, output: String, timeout: Double) -> Verdict {
        guard let comment, comment.hasPrefix("storyreel ") else { return .silent }
        let prefix = text(naming: output) + " sha256:"
        guard comment.hasPrefix(prefix), let file = try? RegularFile(path: path, timeout: timeout),
            let digest = try? ContentHasher.sha256(ofSamplesIn: file)
        else { return .contradicts }
        return digest == String(comment.dropFirst(prefix.count)) ? .vouches : .contradicts
    }
}
