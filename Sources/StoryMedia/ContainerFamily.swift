import Foundation

/// The kinds of file ``InputFile`` accepts, each through its own libavformat whitelist.
///
/// Clips and stills are separate families so a clip path never reaches an image demuxer and a
/// still path never reaches the QuickTime demuxer: the file's first bytes pick the one demuxer
/// that is forced, and the whitelist holds only that family's demuxers.
public enum ContainerFamily: Sendable, Equatable {
    /// QuickTime/MP4 clips (`.mov`, `.mp4`, `.m4v`), through the `mov` demuxer.
    case quickTime
    /// PNG and JPEG stills, through `png_pipe` and `jpeg_pipe` (never `image2`, which expands
    /// `%d` patterns in file names into sequences).
    case stillImage

    /// What FFmpeg is told to open, decided before it opens anything.
    struct Opening {
        /// The demuxer forced on the file, e.g. `mov` or `png_pipe`.
        var demuxer: String
        /// True when the file ends before its last QuickTime atom.
        var truncated = false
        /// A video track whose chunks hold fewer samples than its size table lists
        /// (``ContainerSniffer/Findings/shortChunkTables``).
        var shortChunkTables: (held: UInt64, listed: UInt64)?
        /// A still's EXIF orientation, read as browsers read it: a PNG's `eXIf` chunk, which
        /// FFmpeg 5.1's png decoder ignores, or a JPEG's first `Exif` APP1 segment's IFD0
        /// (``StillImageHeader/jpegExifOrientation(of:)``).
        var exifOrientation: ExifOrientation?
        /// A clip's file type as its own first atom gives it (``InputFile/fileType``).
        var fileType: InputFile.FileType = .unknown
        /// The video tracks' picture headers (``ContainerSniffer/Findings/trackPictures``).
        var trackPictures: [Int: TrackPictureHeader] = [:]
        /// The parts of a clip not written yet (``ContainerSniffer/Findings/unwrittenRanges``).
        var unwrittenRanges: [Range<UInt64>] = []
        /// True when a clip's index is not all written (``ContainerSniffer/Findings/indexNotWritten``).
        var indexNotWritten = false
        /// True when a clip has a segment index (a top-level `sidx`, as DASH packagers write):
        /// FFmpeg then reads its fragments only as it plays them (``InputFile``).
        var segmentIndexed = false
    }

    /// The demuxers libavformat may use for this family (`format_whitelist`).
    var formatWhitelist: String {
        switch self {
        case .quickTime: return "mov,mp4,m4a,3gp,3g2,mj2"
        case .stillImage: return "png_pipe,jpeg_pipe"
        }
    }

    /// What an open failure says, e.g. "not a readable QuickTime/MP4 file".
    var openFailure: String {
        switch self {
        case .quickTime: return "not a readable QuickTime/MP4 file"
        case .stillImage: return "not a readable PNG or JPEG image"
        }
    }

    /// The largest file of this family that is opened, in bytes, or nil for no limit: stills
    /// are capped at ``StillImage/maximumFileSize``.
    var maximumFileSize: UInt64? {
        switch self {
        case .quickTime: return nil
        case .stillImage: return StillImage.maximumFileSize
        }
    }

    /// Why a file named as a still is not one: it starts as an MP4 or QuickTime video does.
    public static let videoNotStill = "an MP4 or QuickTime video, not a PNG or JPEG image"

    /// Looks at the first bytes of `file` and picks the demuxer, or throws `.invalidMedia`
    /// saying why the file is not of this family. A still's header must declare a picture
    /// within the ``PixelBudget``.
    func sniff(_ file: RegularFile) throws -> Opening {
        switch self {
        case .quickTime:
            let findings = try ContainerSniffer.sniff(file)
            let fileType: InputFile.FileType =
                findings.majorBrand.map { .brand($0) } ?? (findings.atoms.contains("ftyp") ? .unknown : .none)
            return Opening(
                demuxer: "mov", truncated: findings.truncated, shortChunkTables: findings.shortChunkTables,
                fileType: fileType, trackPictures: findings.trackPictures, unwrittenRanges: findings.unwrittenRanges,
                indexNotWritten: findings.indexNotWritten, segmentIndexed: findings.atoms.contains("sidx"))
        case .stillImage:
            guard file.size > 0 else { throw MediaError(.invalidMedia, path: file.path, file.zeroSizeReason()) }
            let head = [UInt8](try file.read(upTo: 8))
            let opening: Opening
            let size: (width: Int, height: Int)
            if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
                size = try StillImageHeader.pngSize(of: file)
                opening = Opening(
                    demuxer: "png_pipe", exifOrientation: try StillImageHeader.pngExifOrientation(of: file))
            } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
                opening = Opening(
                    demuxer: "jpeg_pipe", exifOrientation: try StillImageHeader.jpegExifOrientation(of: file))
                size = try StillImageHeader.jpegSize(of: file)
                try StillImageHeader.checkJPEGScans(of: file)
            } else if head.count == 8,
                ["ftyp", "moov", "mdat", "wide", "free"].contains(String(decoding: head[4...], as: UTF8.self))
            {
                // A QA pass: an MP4 named `.jpg` was "unknown signature", where a JPEG named
                // `.mp4` is named for what it is.
                throw MediaError(.invalidMedia, path: file.path, Self.videoNotStill)
            } else {
                throw MediaError(.invalidMedia, path: file.path, "not a PNG or JPEG image (unknown signature)")
            }
            try PixelBudget.check(width: size.width, height: size.height, path: file.path)
            return opening
        }
    }
}
