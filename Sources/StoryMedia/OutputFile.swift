import CFFmpeg
import Foundation

/// An MP4 (or QuickTime) file being written: owns the muxer's `AVFormatContext`, closed with
/// `avio_closep` + `avformat_free_context`, and the ``StagedFile`` it writes to.
///
/// The file is written to a ``StagedFile`` (`.NAME.XXXXXX.storyreel-tmp` next to the final one,
/// or in a staging folder of storyreel's own on the same file system, so the rename is atomic),
/// flushed to disk and renamed into place by ``finish()``; until then, and if anything fails, the
/// final path is untouched and the temporary file is removed when the object goes away. The `moov` index is moved to the front (`+faststart`) so players can start
/// before the download ends. A full disk (ENOSPC, or EFBIG past a file size limit) while writing,
/// flushing or closing is `.ioFailure`, naming the final path.
public final class OutputFile {
    /// The path the finished file will have.
    public let path: String
    /// Where the file is written until it is finished.
    var temporaryPath: String { staged.temporaryPath }

    private let context: UnsafeMutablePointer<AVFormatContext>
    /// The temporary file, kept open to flush it to disk before the rename.
    private let staged: StagedFile
    private var stream: UnsafeMutablePointer<AVStream>?
    private var streamSourceTimeBase = AVRational(num: 1, den: 1)
    private var headerWritten = false
    private var finished = false
    /// The finished file takes its name only when nothing has it.
    private let exclusively: Bool
    /// ``finish()`` leaves the finished file under its temporary name, for ``takeName()``: a
    /// command writing several outputs names them together once all are written.
    public var defersNaming = false
    /// When set, the container's comment tag (MP4: `©cmt`) is this text, ` sha256:` and the
    /// SHA-256 of the file's samples (its `mdat` box's contents, which the index written by
    /// ``finish()`` and moved to the front leaves as they are): the comment then vouches for these
    /// very pictures, and a copy re-encoded or edited by a tool that keeps the tag no longer
    /// agrees with it (a review).
    public var commentNamingSamples: String?
    /// Where the samples start: just after the header.
    private var samplesStart: Int64 = 0

    /// Creates the temporary file for `path` (in `stagingFolder` when given, else next to
    /// `path`). The container is QuickTime for a `.mov` path and MP4 otherwise. Throws
    /// `.cannotCreateOutput` when the folder cannot be written. `exclusively`: ``finish()``
    /// gives the file its name only when nothing has it (else ``StagedFile/NameTaken``).
    public init(path: String, stagingFolder: String? = nil, exclusively: Bool = false) throws {
        try MediaLibraries.require(for: path)
        self.path = path
        self.exclusively = exclusively
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let stamp = FileStamp(path: folder)
        guard stamp?.isFolder == true else {
            // A file where a folder should be is not "no such folder" (QA passes), and the folder
            // is named as given.
            if stamp != nil {
                throw MediaError(
                    .cannotCreateOutput, path: path, "not a folder: \(PathDisplay.asGiven(folder, given: path))")
            }
            let reason =
                PathDisplay.fileInPlaceOfFolder(above: path)
                ?? "no such folder: \(PathDisplay.asGiven(folder, given: path))"
            throw MediaError(.cannotCreateOutput, path: path, reason)
        }
        let formatName = url.pathExtension.lowercased() == "mov" ? "mov" : "mp4"
        // 0666 less the umask, as when FFmpeg created the file itself.
        let staged = try StagedFile(
            for: path, stagingFolder: stagingFolder, permissions: 0o666, replacing: !exclusively)
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        let result = avformat_alloc_output_context2(&allocated, nil, formatName, "file:" + staged.temporaryPath)
        guard result >= 0, let allocated else {
            try ffmpegCheck(result, "cannot set up the \(formatName) muxer", kind: .cannotCreateOutput, path: path)
            throw MediaError(.ioFailure, path: path, "out of memory (muxer)")
        }
        self.staged = staged
        context = allocated
        // From here on a throw runs deinit, which frees the context; the staged file goes with it.
        try ffmpegCheck(
            avio_open(&context.pointee.pb, "file:" + staged.temporaryPath, AVIO_FLAG_WRITE),
            "cannot create the file", kind: .cannotCreateOutput, path: path)
    }

    deinit {
        avio_closep(&context.pointee.pb)
        avformat_free_context(context)
    }

    /// True when the container wants codec parameter sets out of band (MP4 does).
    public var needsGlobalHeader: Bool { context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    /// Adds the one video stream, described by `encoder` (which must already be open).
    public func addVideoStream(for encoder: VideoEncoder) throws {
        precondition(stream == nil, "OutputFile writes one video stream")
        guard let created = avformat_new_stream(context, nil) else {
            throw MediaError(.ioFailure, path: path, "out of memory (stream)")
        }
        try ffmpegCheck(
            avcodec_parameters_from_context(created.pointee.codecpar, encoder.context), "bad encoder parameters",
            kind: .ioFailure, path: path)
        if encoder.settings.codec == .hevc {
            // QuickTime and AVPlayer play HEVC only when tagged hvc1 (parameter sets in the sample entry).
            created.pointee.codecpar.pointee.codec_tag = OutputFile.fourCharacterCode("hvc1")
        }
        created.pointee.time_base = encoder.timeBase
        created.pointee.avg_frame_rate = encoder.context.pointee.framerate
        stream = created
        streamSourceTimeBase = encoder.timeBase
    }

    /// Writes the container header (`+faststart`: the index goes to the front at the end).
    public func writeHeader() throws {
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "movflags", "+faststart", 0)
        try ffmpegCheck(
            avformat_write_header(context, &options), "cannot write the header", kind: .ioFailure, path: path)
        headerWritten = true
        samplesStart = avio_tell(context.pointee.pb)
    }

    /// Writes an encoded packet, rescaling its timestamps from the encoder's time base to the
    /// stream's (which the muxer may have changed in ``writeHeader()``).
    public func write(_ packet: Packet) throws {
        guard let stream, headerWritten else {
            throw MediaError(.ioFailure, path: path, "a packet came before the header was written")
        }
        packet.pointer.pointee.stream_index = stream.pointee.index
        av_packet_rescale_ts(packet.pointer, streamSourceTimeBase, stream.pointee.time_base)
        try ffmpegCheck(
            av_interleaved_write_frame(context, packet.pointer), "cannot write a packet", kind: .ioFailure,
            path: path)
    }

    /// Writes the trailer, closes the file, flushes it to disk and renames it to ``path``.
    /// Throws `.ioFailure` when any of that fails part-way (a full disk), and
    /// `.cannotCreateOutput` when the rename fails; the temporary file is then removed with
    /// the object.
    public func finish() throws {
        guard headerWritten, !finished else {
            throw MediaError(.ioFailure, path: path, "the file was never started, or is finished already")
        }
        if let prefix = commentNamingSamples {
            // The MP4 muxer writes its tags with the index, in the trailer.
            avio_flush(context.pointee.pb)
            // A write the flush failed (a full disk) is this file's failure, not its source's: the
            // hash of the short file said "it ends too soon", and a render skipped a good clip
            // for it (a QA pass).
            try ffmpegCheck(context.pointee.pb.pointee.error, "cannot write the file", kind: .ioFailure, path: path)
            let end = avio_tell(context.pointee.pb)
            let digest: String
            do {
                let file = try RegularFile(path: staged.temporaryPath)
                digest = try ContentHasher.sha256(
                    of: file, from: UInt64(clamping: samplesStart), count: UInt64(clamping: end - samplesStart))
            } catch let error as MediaError where error.kind == .systemLimit {
                throw error  // out of open files: the system's limit, said as such (a review)
            } catch {
                throw MediaError(
                    .ioFailure, path: path, "cannot read back what was written: \(MediaError.reason(of: error))")
            }
            av_dict_set(&context.pointee.metadata, "comment", "\(prefix) sha256:\(digest)", 0)
        }
        try ffmpegCheck(av_write_trailer(context), "cannot finish writing the file", kind: .ioFailure, path: path)
        try ffmpegCheck(avio_closep(&context.pointee.pb), "cannot close the file", kind: .ioFailure, path: path)
        finished = true
        if defersNaming {
            try staged.finish()
        } else {
            try staged.commit(exclusively: exclusively)
        }
    }

    /// Gives the file ``finish()`` finished with ``defersNaming`` its name (as ``finish()``
    /// does otherwise).
    public func takeName() throws {
        guard finished else { throw MediaError(.ioFailure, path: path, "the file is not finished") }
        try staged.commit(exclusively: exclusively)
    }

    /// MKTAG: a four-character code as FFmpeg stores it (first character in the low byte).
    static func fourCharacterCode(_ text: String) -> UInt32 {
        text.utf8.prefix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
}
