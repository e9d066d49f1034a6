import CFFmpeg
import CFFmpegOnDemand
import Foundation

/// An opened QuickTime/MP4 clip (or, when asked, a PNG/JPEG still): owns its `AVFormatContext`
/// and closes it with `avformat_close_input`.
///
/// Only local regular files are opened, through the `mov` demuxer alone with the `file`
/// protocol alone: libavformat never guesses the format, follows a playlist, or opens a
/// reference (`dref`) to another file or URL. Stills go through their own whitelist
/// (``ContainerFamily/stillImage``). The path is first opened as a ``RegularFile`` (so a FIFO,
/// a device or a symlink to one is refused at once, never waited on), and FFmpeg then opens
/// that same file through `/proc/self/fd`, not the path, which could have changed since.
public final class InputFile {
    /// The path the clip was opened from.
    public let path: String
    /// The file's size in bytes.
    public let fileSize: UInt64
    /// Warnings noticed while opening, for a person (e.g. a truncated upload).
    public private(set) var warnings: [String] = []
    /// A still's EXIF orientation, read from its own bytes before FFmpeg opened it
    /// (``ContainerFamily/Opening/exifOrientation``).
    let exifOrientation: ExifOrientation?
    /// What the clip's own `ftyp` atom says it is (``FileType/unknown`` for a still).
    public let fileType: FileType
    /// The video tracks' own picture headers, by stream index (``TrackPictureHeader``).
    let trackPictures: [Int: TrackPictureHeader]
    /// HDR light metadata a video track's first decoded frame gave (its SEI messages), by stream
    /// index, where the container gives none (``ClipProbe``).
    var decodedLightMetadata: [Int: HDRLightMetadata] = [:]
    /// The parts of the file not written yet, as the file system said when it was opened
    /// (``RegularFile/unwrittenRanges()``): an upload still being written into a preallocated file.
    let unwrittenRanges: [Range<UInt64>]
    /// True when the `moov` index is not all written yet (unwritten blocks in its sample tables,
    /// or zeros at its end where it cannot hold them): an upload still being written
    /// (``ContainerSniffer/Findings/indexNotWritten``).
    let indexNotWritten: Bool
    /// True when the clip has a segment index (a top-level `sidx`, as DASH packagers write),
    /// whose durations FFmpeg takes for its tracks' (``ClipProbe``'s check of them).
    let isSegmentIndexed: Bool

    var context: UnsafeMutablePointer<AVFormatContext>
    private let deadline: Deadline

    /// Opens `path`, giving up after `timeout` seconds (nil: no limit) for the whole life of
    /// this object; `family` says which kind of file is accepted (clips unless told otherwise).
    /// Throws a ``MediaError`` naming the path and the reason.
    public init(path: String, timeout: Double? = nil, family: ContainerFamily = .quickTime) throws {
        self.path = path
        let regularFile = try RegularFile(path: path, maxSize: family.maximumFileSize, timeout: timeout)
        fileSize = regularFile.size
        let opening = try family.sniff(regularFile)
        exifOrientation = opening.exifOrientation
        fileType = opening.fileType
        trackPictures = opening.trackPictures
        unwrittenRanges = opening.unwrittenRanges
        indexNotWritten = opening.indexNotWritten
        isSegmentIndexed = opening.segmentIndexed
        deadline = Deadline(seconds: timeout)
        // After the checks above, which need no FFmpeg: a missing or garbage file is refused
        // without loading it.
        try MediaLibraries.require(for: path)
        guard let allocated = avformat_alloc_context() else {
            throw MediaError(.ioFailure, path: path, "out of memory")
        }
        cff_install_deadline(allocated, deadline.storage)
        var options: OpaquePointer?
        av_dict_set(&options, "format_whitelist", family.formatWhitelist, 0)
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        av_dict_set(&options, "enable_drefs", "0", 0)
        av_dict_set(&options, "use_absolute_path", "0", 0)
        // storyreel reads no chapters, and the demuxer makes one, with its title, for each sample
        // of a chapter track: 2.9 million of them took 1.15 GB in every command (an audit).
        av_dict_set(&options, "ignore_chapters", "1", 0)
        defer { av_dict_free(&options) }
        var contextPointer: UnsafeMutablePointer<AVFormatContext>? = allocated
        // What the demuxer logs while it reads this file's header is noted afresh (FFmpegLog).
        cff_clear_index_fault()
        // On failure avformat_open_input frees the context and sets the pointer to NULL.
        // The checked descriptor stays open until FFmpeg has opened the same file by its fd link.
        let opened = withExtendedLifetime(regularFile) {
            avformat_open_input(
                &contextPointer, "file:" + regularFile.reopenablePath, av_find_input_format(opening.demuxer), &options)
        }
        // A file cut part-way through an atom (a fragment's, say) is said to look truncated, as
        // one that opens is warned (a QA pass: "Invalid data found" alone).
        let failure =
            opening.truncated
            ? family.openFailure + " (it ends part-way through an atom: it looks truncated)" : family.openFailure
        try InputFile.check(opened, failure, path: path, deadline: deadline)
        guard let openedContext = contextPointer else {
            throw MediaError(.invalidMedia, path: path, family.openFailure)
        }
        context = openedContext
        if opening.truncated {
            warnings.append("the file ends before its last atom: it looks truncated")
        }
        switch cff_take_index_fault() {
        case CFF_INDEX_WRONG_SAMPLE_COUNT: warnings.append(Self.sampleCountFault)
        case CFF_INDEX_SAMPLE_TOO_LARGE: warnings.append(Self.sampleSizeFault)
        case CFF_INDEX_CTTS_INVALID: warnings.append(Self.compositionOffsetFault)
        default: break
        }
        if opening.segmentIndexed { try readEveryFragmentHeader() }
        if let short = opening.shortChunkTables {
            // FFmpeg indexes what the chunks hold and says nothing, nor does ffprobe.
            warnings.append(
                "the video track's chunk tables (stsc, stco) hold \(short.held) samples, its size table (stsz) lists "
                    + "\(short.listed): the track is read \(short.held == 0 ? "not at all" : "only in part"), and players differ"
            )
        }
    }

    /// The warning for a track whose composition offsets (`ctts`) FFmpeg dropped, one being too
    /// large for it: the track is read mistimed, and frames its edit list then cuts are not shown
    /// (an inspect QA pass: 28 frames of 30 at a nanosecond timescale, with no word).
    static let compositionOffsetFault =
        "a track's composition offsets (ctts) are too large for FFmpeg, which drops them (ffprobe's \"CTTS invalid\"): "
        + "its frames are read mistimed and some not at all, and players differ; re-encode it from its source"

    /// Reads every fragment's header into the index. With a segment index (`sidx`) that covers
    /// the file, FFmpeg's demuxer reads a fragmented MP4's fragments only as it reaches them, so
    /// its index held the first fragment's samples alone: 30 frames of 300, and a variable frame
    /// rate missed (an inspect QA pass against ffprobe's packet count). With every stream
    /// discarded, one read walks the fragments' headers to the end of the file, reading no
    /// sample (about a tenth of a 20 MB file); then every stream is put back on its first sample.
    /// The sniffer has already bounded the samples and fragments that index can hold.
    private func readEveryFragmentHeader() throws {
        let all = streams
        let kept = all.map { $0.stream.pointee.discard }
        for stream in all { stream.stream.pointee.discard = AVDISCARD_ALL }
        let packet = try Packet()
        let result = av_read_frame(context, packet.pointer)
        av_packet_unref(packet.pointer)
        for (stream, discard) in zip(all, kept) { stream.stream.pointee.discard = discard }
        if result != cff_error_eof() { try check(result, "cannot read the fragments") }
        let indexed = ([bestStream(.video)].compactMap { $0 } + all).first {
            avformat_index_get_entries_count($0.stream) > 0
        }
        guard let indexed, let entry = avformat_index_get_entry(indexed.stream, 0) else { return }
        try seek(stream: indexed, toKeyframeBefore: entry.pointee.timestamp)
    }

    /// The warning for a track whose chunk tables hold more samples than its size table lists:
    /// FFmpeg's index, and so every reading of the clip, ends early with no error.
    static let sampleCountFault =
        "a track's sample tables disagree (its chunks hold more samples than its size table, stsz, lists; "
        + "ffprobe's \"wrong sample count\"): the track is read only in part, and players differ"

    /// The warning for a track whose size table gives a sample 2^30 bytes or more, more than
    /// FFmpeg's index holds: its index, and so every reading of the clip, ends before that sample
    /// with no error (a QA pass: a clip cut to 2 of its 75 frames was ingested and rendered).
    static let sampleSizeFault =
        "a track's size table (stsz) gives a sample 2^30 bytes or more (ffprobe's \"Sample size … is too large\"): "
        + "the track is read only up to that sample, and players differ"

    deinit {
        var contextPointer: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&contextPointer)
    }

    /// Returns the size of the regular file at `path`, or throws `.missingInput` /
    /// `.unreadableInput` (a folder, a FIFO, a device, a socket, no permission), at once: the
    /// file is opened as a ``RegularFile`` (`O_NONBLOCK`, then `fstat` on the descriptor).
    public static func checkRegularFile(_ path: String) throws -> UInt64 {
        try RegularFile(path: path).size
    }

    /// Reads codec details (profile, pixel format) that the container header alone does not
    /// give. Decodes at most a few packets.
    public func findStreamInfo() throws {
        context.pointee.max_analyze_duration = 500_000
        try check(avformat_find_stream_info(context, nil), "cannot read stream details")
    }

    /// All streams of the file, in container order.
    public var streams: [MediaStream] {
        (0..<Int(context.pointee.nb_streams)).map { MediaStream(file: self, index: $0) }
    }

    /// The stream of a kind players play, or nil when there is none: for audio
    /// ``playedAudioStream``; for video the first enabled track that is not cover art (a picture
    /// attached to an audio file or a clip), as Chromium and AVPlayer take it, else the one
    /// FFmpeg ranks best. Between two enabled video tracks `av_find_best_stream` took the higher
    /// bit rate, so a dashcam's second camera was reported and drawn (a QA pass).
    public func bestStream(_ kind: MediaStream.Kind) -> MediaStream? {
        if kind == .audio { return playedAudioStream }
        if let enabled = streams.first(where: {
            $0.kind == .video && !$0.isAttachedPicture && $0.stream.pointee.disposition & AV_DISPOSITION_DEFAULT != 0
        }) {
            return enabled
        }
        let index = av_find_best_stream(context, kind.mediaType, -1, -1, nil, 0)
        guard index >= 0 else { return nil }
        let best = MediaStream(file: self, index: Int(index))
        guard kind == .video, best.isAttachedPicture else { return best }
        return streams.first { $0.kind == .video && !$0.isAttachedPicture }
    }

    /// The audio track players play: the first one enabled (the mov demuxer marks a track whose
    /// header has the enabled flag as default), none when every audio track is disabled. Not
    /// `av_find_best_stream`'s: it skips a track whose header gives no channel count (AAC with
    /// its layout in a PCE: 2.1, quad, 6.1), falls back to a disabled track, which Chromium and
    /// AVPlayer leave silent, and between two enabled ones takes the higher bit rate, where
    /// players take the first (a QA pass).
    var playedAudioStream: MediaStream? {
        streams.first { $0.kind == .audio && $0.stream.pointee.disposition & AV_DISPOSITION_DEFAULT != 0 }
    }

    /// True when the file has an audio track, enabled or not.
    public var hasAudioTrack: Bool { streams.contains { $0.kind == .audio } }

    /// The container duration in seconds (ffprobe's `format.duration`, after edit lists), or
    /// nil when unknown.
    /// A fragmented MP4's header gives none (its `moov` holds no samples); the longest audio or
    /// video stream's duration, which the demuxer works out from the fragments when it opens
    /// the file, stands in for it, as it does in ffprobe once it has probed the streams.
    public var duration: Double? {
        // A header duration below zero (a 64-bit one that overflowed FFmpeg's) is none at all
        // (a QA pass: `inspect` reported -0.001 s, without a word).
        if let header = headerDuration { return header >= 0 ? header : nil }
        // In whole microseconds, as FFmpeg keeps a container's (a QA pass: 2.1333333333333333
        // where ffprobe says 2.133333).
        let longest = streams.filter { $0.kind != nil }.compactMap(\.duration).filter { $0 > 0 }.max()
        return longest.map { ($0 * 1_000_000).rounded() / 1_000_000 }
    }

    /// The header's duration in seconds when it is below zero, which ``duration`` reads as none.
    var negativeHeaderDuration: Double? { headerDuration.flatMap { $0 < 0 ? $0 : nil } }

    /// The container header's duration in seconds, as it is; nil when it has none.
    private var headerDuration: Double? {
        let value = context.pointee.duration
        return value != cff_nopts_value() ? Double(value) / Double(cff_time_base()) : nil
    }

    /// True when the header left the container's duration unset: a fragmented MP4.
    var lacksHeaderDuration: Bool { context.pointee.duration == cff_nopts_value() }

    /// The container start time in seconds (0 when unknown).
    public var startTime: Double {
        let value = context.pointee.start_time
        return value == cff_nopts_value() ? 0 : Double(value) / Double(cff_time_base())
    }

    /// The overall bit rate in bits per second (file size over duration, as ffprobe reports
    /// it), or nil when unknown.
    public var bitRate: Int? {
        let value = context.pointee.bit_rate
        if value > 0 { return Int(value) }
        guard let duration, duration > 0 else { return nil }
        // Unknown rather than 0 over a duration far longer than the file (as ffprobe's N/A); by
        // microseconds, as FFmpeg works it out, so that it is ffprobe's to the bit per second.
        let computed = Int(saturating: Double(fileSize) * 8 * 1_000_000 / (duration * 1_000_000).rounded())
        return computed > 0 ? computed : nil
    }

    /// The container's metadata tags, e.g. `major_brand`, `creation_time`,
    /// `com.apple.quicktime.model`.
    public var tags: [String: String] { MediaStream.dictionary(context.pointee.metadata) }

    /// Throws the timeout (`.timedOut`) once the file's deadline has passed.
    func checkDeadline() throws {
        if deadline.hasPassed { throw MediaError.deadlinePassed(path: path, seconds: deadline.seconds) }
    }

    /// Reads the next packet into `packet`. Returns false at the end of the file.
    public func readPacket(into packet: Packet) throws -> Bool {
        packet.unref()
        // The interrupt callback stops only reads from the file: packets FFmpeg has buffered
        // (a whole small clip) were read past the deadline, and a resource-exhaustion audit's
        // 203 KB 8192x8192 clip was decoded for 12 s at --timeout 5. A packet is the unit of
        // work every decode loop goes through.
        try checkDeadline()
        let result = av_read_frame(context, packet.pointer)
        if result == cff_error_eof() { return false }
        try check(result, "cannot read packet")
        return true
    }

    /// Lets libavformat fill in the stream start times a fragmented MP4's header leaves unset
    /// (`ffmpeg -ss` counts from them): it sets a stream's start from its first packet's
    /// presentation time, which the fragment index does not give, so this reads packets until
    /// every audio and video stream still read has one (at most 64), then seeks `stream` back to
    /// its first sample. Does nothing for a clip whose header gives its duration.
    public func readStartTimes(seekingBack stream: MediaStream) throws {
        guard lacksHeaderDuration else { return }
        func unset() -> [MediaStream] {
            streams.filter {
                $0.kind != nil && $0.stream.pointee.discard != AVDISCARD_ALL
                    && $0.stream.pointee.start_time == cff_nopts_value()
            }
        }
        guard !unset().isEmpty, let first = try stream.indexEntries.first else { return }
        let packet = try Packet()
        var packetsRead = 0
        while packetsRead < 64, !unset().isEmpty, try readPacket(into: packet) { packetsRead += 1 }
        try seek(stream: stream, toKeyframeBefore: first.timestamp)
    }

    /// Up to `count` bytes of the file from byte `offset`, read through the demuxer's own I/O
    /// context (the file it opened, not the path again), whose position is put back after.
    /// Fewer at the end of the file; none when it cannot be read there.
    func bytes(at offset: Int64, count: Int) -> [UInt8] {
        guard let io = context.pointee.pb, count > 0, offset >= 0 else { return [] }
        let saved = avio_tell(io)
        defer { avio_seek(io, saved, SEEK_SET) }
        guard avio_seek(io, offset, SEEK_SET) == offset else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBufferPointer { avio_read(io, $0.baseAddress, Int32(clamping: count)) }
        return read > 0 ? Array(buffer.prefix(Int(read))) : []
    }

    /// Seeks `stream` to the keyframe at or before `timestamp` (in the stream's time base), or,
    /// when there is none, to the first keyframe after it: a clip cut mid-GOP (a stream recording,
    /// a capture cut without re-encoding) starts on frames no keyframe precedes, and decoding can
    /// only start at its first keyframe, as ffmpeg's does (a QA pass: every frame of such a clip,
    /// its poster and stills, failed with "cannot seek").
    ///
    /// When the index marks no keyframe at all (a sync-sample table, `stss`, naming none of the
    /// clip's samples), it seeks to the first sample, as a player reading from the start does:
    /// such a clip, which the ffmpeg CLI decodes whole, was refused with "cannot seek: Operation
    /// not permitted", FFmpeg's generic failure read as an errno (a fuzzing pass).
    public func seek(stream: MediaStream, toKeyframeBefore timestamp: Int64) throws {
        let index = Int32(clamping: stream.index)
        if av_seek_frame(context, index, timestamp, AVSEEK_FLAG_BACKWARD) >= 0 { return }
        let forward = av_seek_frame(context, index, timestamp, 0)
        if forward >= 0 { return }
        if let first = avformat_index_get_entry(stream.stream, 0)?.pointee.timestamp,
            av_seek_frame(context, index, first, AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_ANY) >= 0
        {
            return
        }
        try check(forward, "cannot seek")
    }

    /// Like ``ffmpegCheck``, but a failure after the deadline is reported as a timeout, since an
    /// interrupted demuxer often returns "invalid data" rather than AVERROR_EXIT.
    func check(_ code: Int32, _ what: @autoclosure () -> String) throws {
        try InputFile.check(code, what(), path: path, deadline: deadline)
    }

    private static func check(_ code: Int32, _ what: String, path: String, deadline: Deadline) throws {
        if code < 0, deadline.hasPassed {
            // Not `what`: that says what the failure would mean ("not a readable QuickTime/MP4
            // file"), and a file cut off by its deadline may be perfectly good.
            throw MediaError.deadlinePassed(path: path, seconds: deadline.seconds)
        }
        try ffmpegCheck(code, what, path: path)
    }

    /// Discards every stream but `keep` (read again, if an earlier call discarded it), so the
    /// demuxer skips their packets cheaply.
    public func discardAllStreams(except keep: MediaStream) {
        for index in 0..<Int(context.pointee.nb_streams) {
            context.pointee.streams[index]!.pointee.discard = index == keep.index ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }
}
