import CFFmpeg
import Foundation

/// SHA-256 with libavutil's hash API: owns an `AVHashContext`, freed with `av_hash_freep`.
/// Used for clip identities and for the content keys that name bundle outputs (and, with
/// `CRC32`, for a PNG chunk's check: ``hex(of:algorithm:)``).
public final class ContentHasher {
    private var context: OpaquePointer?

    /// A fresh state of libavutil's hash `algorithm` (`SHA256`, or `CRC32`: a PNG chunk's).
    public init(algorithm: String = "SHA256") throws {
        try ffmpegCheck(
            av_hash_alloc(&context, algorithm), "libavutil cannot hash \(algorithm)", kind: .unsupported)
        av_hash_init(context)
    }

    /// The `algorithm` digest of `bytes`, as lowercase hex.
    static func hex(of bytes: ArraySlice<UInt8>, algorithm: String) throws -> String {
        let hasher = try ContentHasher(algorithm: algorithm)
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finalHex()
    }

    deinit { av_hash_freep(&context) }

    /// Adds bytes to the hash.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        av_hash_update(context, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// Adds a string's UTF-8 bytes to the hash.
    public func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The digest as 64 lowercase hex digits. The hasher is spent afterwards.
    public func finalHex() -> String {
        var buffer = [UInt8](repeating: 0, count: 65)
        av_hash_final_hex(context, &buffer, Int32(clamping: buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// SHA-256 of a string, as hex.
    public static func sha256(of text: String) throws -> String {
        let hasher = try ContentHasher()
        hasher.update(text)
        return hasher.finalHex()
    }

    /// SHA-256 of bytes, as hex.
    public static func sha256(of data: Data) throws -> String {
        let hasher = try ContentHasher()
        data.withUnsafeBytes { hasher.update($0) }
        return hasher.finalHex()
    }

    /// SHA-256 of a file's contents, as hex, read in 1 MiB chunks.
    ///
    /// Only a regular file is read (a FIFO, a device or a symlink to one is refused at once
    /// with `.unreadableInput`); one larger than `maxSize` bytes is refused with `.invalidMedia`
    /// before any byte is read; reading gives up with `.timedOut` after `timeout` seconds (nil:
    /// no limit). Every error names `path`.
    public static func sha256(ofFileAt path: String, timeout: Double? = nil, maxSize: UInt64? = nil) throws
        -> String
    {
        try MediaError.naming(path) {
            try sha256(of: try RegularFile(path: path, maxSize: maxSize, timeout: timeout), maxSize: maxSize)
        }
    }

    /// SHA-256 of an MP4's samples (its first top-level `mdat` atom's contents), as hex, or nil
    /// when it has no such atom (``ContainerSniffer/samples(in:)``).
    public static func sha256(ofSamplesIn file: RegularFile) throws -> String? {
        guard let samples = try ContainerSniffer.samples(in: file) else { return nil }
        return try sha256(of: file, from: samples.lowerBound, count: samples.upperBound - samples.lowerBound)
    }

    /// SHA-256 of `count` bytes of an opened regular file from `offset`, as hex, read in 1 MiB
    /// chunks; `.invalidMedia` when the file ends before them.
    static func sha256(of file: RegularFile, from offset: UInt64, count: UInt64) throws -> String {
        let hasher = try ContentHasher()
        try file.seek(to: offset)
        var left = count
        while left > 0 {
            let chunk = try file.read(upTo: Int(min(left, 1 << 20)))
            guard !chunk.isEmpty else { throw MediaError(.invalidMedia, path: file.path, "it ends too soon") }
            chunk.withUnsafeBytes { hasher.update($0) }
            left -= UInt64(chunk.count)
        }
        return hasher.finalHex()
    }

    /// SHA-256 of an opened regular file's contents from its current position, as hex, within
    /// the file's deadline; a file that grows past `maxSize` bytes while it is read throws
    /// `.invalidMedia`.
    public static func sha256(of file: RegularFile, maxSize: UInt64? = nil) throws -> String {
        let hasher = try ContentHasher()
        let total = try file.forEachChunk { chunk in chunk.withUnsafeBytes { hasher.update($0) } }
        if let maxSize, total > maxSize {
            throw MediaError(.invalidMedia, path: file.path, "it grew past the \(maxSize) byte limit while it was read")
        }
        return hasher.finalHex()
    }
}
