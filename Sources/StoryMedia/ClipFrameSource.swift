import CFFmpeg

/// One open clip and its video decoder, handing out upright, 8-bit, full-range RGBA pictures:
/// the frame shown at a time, the first and the last frame, and a smart poster.
///
/// Every picture is turned upright by the display matrix (90/180/270° and mirroring), scaled
/// with libswscale honouring the clip's colour tags (untagged: BT.601 limited, like the ffmpeg
/// CLI), and HLG/PQ clips are tone-mapped to SDR BT.709. Only what is needed is decoded: a seek
/// to the keyframe at or before the wanted frame, then forward.
///
/// Not thread-safe: use one per thread.
public final class ClipFrameSource {
    /// The path the clip was opened from.
    public let path: String
    /// Width as displayed, after rotation and sample aspect ratio (`inspect`'s display width).
    public let displayWidth: Int
    /// Height as displayed, after rotation (`inspect`'s display height).
    public let displayHeight: Int
    /// True when the last ``frame(at:size:)`` asked for a time after the last frame and got the
    /// last frame instead.
    public private(set) var lastRequestWasClamped = false
    /// When the picture the last request returned is shown, in seconds from the clip's start.
    public private(set) var lastFrameTime: Double?
    /// True when every frame the last ``posterFrame(size:)`` looked at was near-black,
    /// near-white or flat, so the poster is the one of them with the most contrast.
    public private(set) var lastPickFoundNothingBetter = false
    /// When the smart pick may stop at the clip's deadline (`--timeout`) with the best frame it
    /// has decoded by then, rather than fail (`thumbnail`, as ffmpegthumbnailer gives a frame; a
    /// QA pass: a 20 s clip of one group of pictures failed at `--timeout 1`, its first frame
    /// decoded in 0.3 s). Off for a bundle, whose posters must not depend on a machine's speed.
    public var settlesAtDeadline = false
    /// How many frames the last smart pick had looked at when it stopped at the deadline
    /// (``settlesAtDeadline``); nil when it did not stop.
    public private(set) var lastPickStoppedAfter: Int?
    /// True when a damaged packet was skipped (as the ffmpeg CLI skips it) while decoding the
    /// frame last asked for by time, first or last frame: that picture may show blocks of other
    /// frames (a cube QA pass: a zeroed keyframe gave a face 12.9 dB from the true last frame, in
    /// silence). Set by each such request; a smart pick sets it false (its keyframes are each
    /// decoded alone, and a damaged one is no candidate).
    public private(set) var lastFrameMayShowDamage = false

    /// The warning for `picture` (`the poster (1.967 s)`, `its last frame`) when
    /// ``lastFrameMayShowDamage`` is true.
    public static func damageWarning(_ picture: String) -> String {
        "\(picture) may show damage: a packet before it could not be decoded, and was skipped as ffmpeg skips it"
    }

    /// Most candidates the poster pick decodes, the first frame included.
    public static let posterCandidateLimit = 12
    /// The poster pick looks at the first third of the clip, at most this many seconds.
    public static let posterWindowLimit = 3.0
    /// Frames the poster pick samples from its sequential decode of the clip's first half (at most
    /// ``posterWindowLimit`` seconds), when every keyframe was uninformative.
    public static let sequentialCandidateCount = 8
    /// How far into the clip's first half the poster pick's last try decodes, in seconds, when
    /// everything up to ``posterWindowLimit`` was uninformative.
    public static let extendedWindowLimit = 10.0
    /// Most bytes of decoded frames the poster pick keeps at once. A candidate past it keeps its
    /// statistics and time, and is decoded again if it wins: 40 candidates of 8192 × 8192 (a
    /// 1.2 MB black clip the pick looked through) kept 3.3 GB. About 80 frames of 1080 × 1920,
    /// more than the pick ever looks at, fit.
    public static let posterRetentionBytes = 256 << 20

    private let file: InputFile
    private let stream: MediaStream
    private let threads: Int
    private let converter: FrameConverter
    /// The container index of the video stream, in decode order.
    private let index: [IndexEntry]
    /// The clip's start (the container's start time, as `ffmpeg -ss` counts from) in stream ticks.
    private let origin: Int64
    private var sequentialReader: VideoFrameReader?
    private var keyframeReader: KeyframeReader?
    /// The bytes of the frames the running poster pick keeps.
    private var retainedCandidateBytes = 0

    /// Opens the clip at `path`, giving up after `timeout` seconds (nil: no limit) for the life
    /// of this object. `threads` is the decoder's thread count for sequential decoding (0:
    /// automatic). Throws a ``MediaError``: `.noVideoStream` ("no video stream") for a clip
    /// without video, `.invalidMedia` for a picture over the ``PixelBudget`` as stored (checked
    /// on the header, before anything is decoded) or a corrupt sample index. The display size
    /// may be over the budget (a 640x360 picture of 13:1 pixels is shown at 8320x360): each
    /// picture made is checked at its own size, once scaled (``FrameSize``).
    public init(path: String, timeout: Double? = nil, threads: Int = 0) throws {
        self.path = path
        self.threads = threads
        file = try InputFile(path: path, timeout: timeout)
        guard let video = file.bestStream(.video) else {
            // As render and ingest say it (``ClipRecord``): audio alone is named.
            let audioOnly = file.hasAudioTrack
            throw MediaError(.noVideoStream, path: path, "no video stream" + (audioOnly ? " (audio only)" : ""))
        }
        stream = video
        // A packet cut short by a truncated upload is dropped rather than decoded into garbage.
        file.context.pointee.flags |= AVFMT_FLAG_DISCARD_CORRUPT
        let orientation = video.orientation
        let transform = DisplayTransform(matrix: video.displayMatrix, orientation: orientation)
        if video.codedSize.width <= 0 || video.codedSize.height <= 0 {
            // MPEG-4 Part 2 and H.263: the demuxer leaves the size to the stream's own headers.
            try ClipProbe.completeVideoDetails(of: file)
        } else {
            // H.264 and HEVC: the bitstream's size, should the sample description say another
            // (the decoded frame below reads it too). Measured against that size, the track
            // header may give no pixel aspect any more (a re-check: inspect said 1440 wide, the
            // poster 1080).
            if !ClipProbe.lacksAspect(video) { try ClipProbe.takeBitstreamSize(of: file, stream: video) }
            // Whose pixel aspect only the bitstream gives: one decoded frame, as `inspect` reads
            // it, so the pictures have the shape it reports.
            if ClipProbe.lacksAspect(video), let first = try video.indexEntries.first {
                try ClipProbe.completeVideoDetails(of: file)
                try file.seek(stream: video, toKeyframeBefore: first.timestamp)
            }
        }
        converter = FrameConverter(transform: transform, sampleAspectRatio: video.sampleAspectRatio ?? 1)
        let (width, height) = video.codedSize
        guard width > 0, height > 0 else { throw MediaError(.invalidMedia, path: path, "the video has no size") }
        try PixelBudget.check(width: width, height: height, path: path, what: "the video picture")
        let shownWidth = max(1, Int(saturating: (Double(width) * (video.sampleAspectRatio ?? 1)).rounded()))
        (displayWidth, displayHeight) = transform.displaySize(width: shownWidth, height: height)
        index = try video.indexEntries
        // A video track whose sample tables list nothing (a cut-off or crafted header) has no
        // frame to seek to: say so rather than "cannot seek".
        guard !index.isEmpty else { throw MediaError(.invalidMedia, path: path, "the video stream has no frames") }
        // Reads every stream's index, so a clip is refused whichever stream is corrupt.
        // An upload still being written into a preallocated file is cut short too, as `inspect`
        // says: its end is zeros (a QA pass: `cube` took a middle frame for its last, in silence).
        truncationWarnings = try ClipProbe.cutShortWarnings(of: file)
        orientationWarnings = orientation.warnings
        try file.readStartTimes(seekingBack: video)
        origin = try ClipFrameSource.clipStart(of: file, in: video)
    }

    /// What says the clip is cut short (a truncated upload, or one still being written into a
    /// preallocated file), as `inspect` reports it; empty for a whole clip. Its last frames are
    /// missing, so its "last frame" is not the one it shows.
    public let truncationWarnings: [String]

    /// What `inspect` says of a display matrix that is not a plain turn or mirror
    /// (``DisplayOrientation/warnings``): the pictures are turned to the nearest right angle.
    public let orientationWarnings: [String]

    /// Where the clip starts, as `ffmpeg -ss` counts (the container's start time), in `stream`'s
    /// ticks. libavformat fills the container's start time in only while probing the streams
    /// (which storyreel skips), so without it this is what it would be: the earliest start of
    /// the audio and video streams, e.g. the audio's 0 when B-frame delay starts the video later.
    /// A stream whose start the demuxer left unset (audio without an edit list) starts at its
    /// first sample shown.
    private static func clipStart(of file: InputFile, in stream: MediaStream) throws -> Int64 {
        let containerStart = file.context.pointee.start_time
        if containerStart != cff_nopts_value() {
            return av_rescale_q(containerStart, cff_time_base_q(), stream.timeBaseRational)
        }
        let starts = try file.streams.filter { $0.kind != nil }.compactMap { candidate -> Int64? in
            var start = candidate.stream.pointee.start_time
            if start == cff_nopts_value() {
                guard let first = try candidate.indexEntries.first(where: { !$0.isDiscarded }) else { return nil }
                start = first.timestamp
            }
            return av_rescale_q(start, candidate.timeBaseRational, cff_time_base_q())
        }
        guard let earliest = starts.min() else { return stream.startTimestamp }
        return av_rescale_q(earliest, cff_time_base_q(), stream.timeBaseRational)
    }

    /// The container's duration in seconds (after edit lists), or nil when unknown.
    public var duration: Double? { file.duration }

    /// The frame shown at `share` (0 to 1) of the video's own span, from its first frame to its
    /// end: `--at 50%` is the middle of the pictures, wherever the container or the audio starts
    /// (a container 7 s long whose 2 s of video start at 5 s; audio from 0 s, video from 3 s).
    public func frame(atShareOfVideo share: Double, size: FrameSize) throws -> RGBAImageBuffer {
        guard share.isFinite, (0...1).contains(share) else {
            throw MediaError(.unsupported, path: path, "cannot take a frame at \(share * 100)% of the video")
        }
        return try MediaError.naming(path) {
            let start = stream.stream.pointee.start_time == cff_nopts_value() ? origin : stream.startTimestamp
            var span: Int64
            if stream.stream.pointee.duration != cff_nopts_value(), stream.stream.pointee.duration > 0 {
                span = stream.stream.pointee.duration
            } else {
                span = Int64(Int(saturating: ((file.duration ?? 0) / stream.timeBase).rounded(.down)))
            }
            // The container's duration can end before the last frame does: a variable-frame-rate
            // clip with B-frames sums its decode-time steps (`--at 100%` gave the frame before the
            // last, a QA pass). The last frame's end bounds the span.
            if share > 0, !truncationWarnings.isEmpty {
                // A clip cut short: the share is of what is left, up to the end of its last
                // decodable frame, as its last frame is (a QA pass: `--at 50%` of a clip cut to
                // 3.5 s of its 6 s gave the frame at 3 s, and 75% the last one, in silence).
                let last = try decodeLastFrame()
                if let shown = last.presentationTimestamp {
                    span = shown.saturatingAdd(last.duration ?? 0).saturatingSubtract(start)
                }
            } else if share > 0, let end = try? lastShownEnd() {
                span = max(span, end.saturatingSubtract(start))
            }
            let offset = Int64(Int(saturating: (Double(span) * share).rounded(.down)))
            let (frame, _) = try decodeFrame(atOrAfter: start.saturatingAdd(offset))
            return try deliver(frame, size: size, clamped: false)
        }
    }

    /// The frame shown at `seconds` from the clip's start: the first frame whose presentation
    /// time is at or after it, as `ffmpeg -ss` picks it. A time after the last frame gives the last
    /// frame, and sets ``lastRequestWasClamped`` when it is at or after the end of that frame's
    /// display.
    public func frame(at seconds: Double, size: FrameSize) throws -> RGBAImageBuffer {
        guard seconds.isFinite, seconds >= 0 else {
            throw MediaError(.unsupported, path: path, "cannot take a frame at \(seconds) s")
        }
        return try MediaError.naming(path) {
            let target = timestamp(atSeconds: seconds)
            let (frame, clamped) = try decodeFrame(atOrAfter: target)
            return try deliver(frame, size: size, clamped: clamped)
        }
    }

    /// The first frame a viewer sees.
    public func firstFrame(size: FrameSize) throws -> RGBAImageBuffer {
        try MediaError.naming(path) {
            try deliver(try decodeFrame(atOrAfter: origin).frame, size: size, clamped: false)
        }
    }

    /// The first frame a viewer sees as the clip writer's encoder takes it (see
    /// ``lastFramePlanes(size:)``).
    public func firstFramePlanes(size: FrameSize) throws -> PlanarPicture {
        try MediaError.naming(path) { try deliverPlanes(try decodeFrame(atOrAfter: origin).frame, size: size) }
    }

    /// The last frame a viewer sees, found without decoding the whole clip: decoding starts at
    /// the last keyframe of the index and steps back a keyframe at a time while that yields
    /// nothing. For a truncated clip, the last frame that can be decoded.
    public func lastFrame(size: FrameSize) throws -> RGBAImageBuffer {
        try MediaError.naming(path) { try deliver(try decodeLastFrame(), size: size, clamped: false) }
    }

    /// The last frame a viewer sees (as ``lastFrame(size:)`` finds it) as the clip writer's
    /// encoder takes it: the decoded planes themselves when they already are that picture
    /// (yuv420p, BT.709, limited range, SDR, upright, not scaled), else the RGBA picture
    /// converted as ``VideoClipWriter/append(rgba:)`` converts one.
    public func lastFramePlanes(size: FrameSize) throws -> PlanarPicture {
        try MediaError.naming(path) { try deliverPlanes(try decodeLastFrame(), size: size) }
    }

    private func decodeLastFrame() throws -> Frame {
        let reader = try sequential()
        let frame = try Frame()
        let latest = try Frame()
        for request in lastFrameRequests() {
            try reader.seek(toKeyframeBefore: request)
            let damagedBefore = reader.damagedPacketCount
            if let tail = lastFrameTail() { reader.decodeOnlyReferenceFrames(before: tail) }
            var found = false
            while try reader.next(into: frame) {
                latest.take(from: frame)
                found = true
            }
            if found {
                lastFrameMayShowDamage = reader.damagedPacketCount > damagedBefore
                return latest
            }
        }
        throw MediaError(.invalidMedia, path: path, "no decodable video frame")
    }

    /// The smart poster. Candidates are the first frame and the keyframes of the clip's opening
    /// (its first third, at most its first 3 s), up to 12, spread evenly. Near-black, near-white
    /// and flat frames are dropped; of the rest, the one closest to their mean colour histogram
    /// wins (of equals, the one with the most contrast). When the whole opening is dropped (a long
    /// fade-in, a title card), keyframes of the rest of the clip's first half are tried the same
    /// way. When they are too, the first half (at most its first 3 s) is decoded in order,
    /// non-key frames included, and about 8 frames evenly spread in time are tried; then, the
    /// same way, the rest of the first half up to 10 s; then the keyframes of the second half;
    /// then, in a clip of up to 20 s, its second half decoded in order. When every candidate is
    /// dropped, the one with the most contrast is used (the first frame of an all-black clip).
    /// When every frame looked at, in the order shown, is still fading in at their end (their
    /// contrast rises throughout and into the last: ``FrameStatistics/isFadingIn(_:)``), the
    /// clip is decoded on, up to 10 s, and the fullest of those frames taken instead when it has
    /// more contrast (a 6 s fade-in had a poster at a quarter of its brightness; a QA pass).
    public func posterFrame(size: FrameSize) throws -> RGBAImageBuffer {
        try posterFrames(sizes: [size])[0]
    }

    /// The smart poster (``posterFrame(size:)``) at each of `sizes`, each scaled from the frame
    /// picked, once: a bundle's poster and thumbnail are one pick, and each is made as it would
    /// be alone.
    ///
    /// With `sizedByHeader`, a frame picked whose display size is not the header's
    /// (``displayWidth`` × ``displayHeight``, give or take 2 pixels: a clip whose picture size
    /// changes part-way, streams joined with `-c copy`) is scaled to exactly the size each of
    /// `sizes` gives the header's, cropped evenly where its shape differs, as a bundle's manifest
    /// and `validate` size its images from the header (a QA pass: a poster the size of a 540x960
    /// frame in a clip whose header said 360x640, so `validate` refused the bundle render made).
    public func posterFrames(sizes: [FrameSize], sizedByHeader: Bool = false) throws -> [RGBAImageBuffer] {
        try MediaError.naming(path) {
            let frame = try pickPoster()
            lastFrameMayShowDamage = false
            let shown = converter.displaySize(of: frame)
            let resized = abs(shown.width - displayWidth) > 2 || abs(shown.height - displayHeight) > 2
            return try sizes.map { size in
                guard sizedByHeader, resized else { return try deliver(frame, size: size, clamped: false) }
                let target = size.outputSize(displayWidth: displayWidth, displayHeight: displayHeight)
                return try deliver(frame, size: .fill(width: target.width, height: target.height), clamped: false)
            }
        }
    }

    private func pickPoster() throws -> Frame {
        let clipDuration = duration ?? 3 * ClipFrameSource.posterWindowLimit
        let opening = min(clipDuration / 3, ClipFrameSource.posterWindowLimit)
        let limit = ClipFrameSource.posterCandidateLimit
        // Every pick starts from none kept: this one's end, thrown or returned, lets its frames go.
        defer { retainedCandidateBytes = 0 }
        lastPickStoppedAfter = nil
        var candidates: [PosterCandidate] = []
        var chosen: Int?
        // How far the tries so far looked, in seconds.
        var lookedThrough = 0.0
        func consider(_ found: [PosterCandidate], through end: Double) {
            chosen = FrameStatistics.typicalIndex(of: found.map(\.statistics)).map { $0 + candidates.count }
            candidates += found
            // A try that found nothing (no keyframe in its window) looked at nothing: a 20 s
            // clip of one group of pictures counted its first half as looked at, and a fade in
            // its opening was never followed (a QA pass).
            if !found.isEmpty { lookedThrough = max(lookedThrough, end) }
        }
        do {
            consider(try posterCandidates(after: nil, through: opening, limit: limit), through: opening)
            if chosen == nil, clipDuration / 2 > opening {
                consider(
                    try posterCandidates(after: opening, through: clipDuration / 2, limit: limit - candidates.count),
                    through: clipDuration / 2)
            }
            if chosen == nil {
                // Every keyframe is uninformative (a grey keyframe before the content of a screen
                // recording): look at the frames between them.
                let end = min(clipDuration / 2, ClipFrameSource.posterWindowLimit)
                consider(
                    try sequentialCandidates(through: end, count: ClipFrameSource.sequentialCandidateCount),
                    through: end)
            }
            let extendedEnd = min(clipDuration / 2, ClipFrameSource.extendedWindowLimit)
            if chosen == nil, extendedEnd > ClipFrameSource.posterWindowLimit {
                // An opening longer than the window is black (a long black intro with few
                // keyframes): decode on, up to the first half (at most 10 s), as a last try.
                let decoded = try sequentialCandidates(
                    from: ClipFrameSource.posterWindowLimit, through: extendedEnd,
                    count: ClipFrameSource.sequentialCandidateCount)
                consider(decoded, through: extendedEnd)
            }
            if chosen == nil, duration != nil {
                // The whole first half is uninformative (a 3 s clip whose first 2 s are black): the
                // keyframes of the rest of the clip. A QA pass got a black poster in silence.
                consider(
                    try posterCandidates(after: clipDuration / 2, through: clipDuration, limit: limit),
                    through: clipDuration)
            }
            if chosen == nil, let duration, duration <= 2 * ClipFrameSource.extendedWindowLimit {
                // No keyframe there either (one group of pictures: a screen recording, a hardware
                // encoder): the second half decoded in order, for a clip of up to 20 s (a QA pass).
                let decoded = try sequentialCandidates(
                    from: duration / 2, through: duration, count: ClipFrameSource.sequentialCandidateCount)
                consider(decoded, through: duration)
            }
            if let pick = chosen, let duration, min(duration, ClipFrameSource.extendedWindowLimit) > lookedThrough {
                try followFade(
                    from: pick, candidates: &candidates, chosen: &chosen, lookedThrough: lookedThrough,
                    duration: duration)
            }
        } catch let error as MediaError
            where error.kind == .timedOut && settlesAtDeadline && candidates.contains(where: { $0.frame != nil })
        {
            // Only a frame still held can be the poster: none can be decoded again now.
            lastPickStoppedAfter = candidates.count
            candidates.removeAll { $0.frame == nil }
            chosen = FrameStatistics.typicalIndex(of: candidates.map(\.statistics))
        }
        guard !candidates.isEmpty else { throw MediaError(.invalidMedia, path: path, "no decodable video frame") }
        lastPickFoundNothingBetter = chosen == nil
        let pick = chosen ?? FrameStatistics.leastUninformativeIndex(of: candidates.map(\.statistics)) ?? 0
        let winner = candidates[pick]
        // A frame let go has a time (``candidate(from:)``): decoding from there finds it again.
        let frame = try winner.frame ?? decodeFrame(atOrAfter: winner.shownAt ?? origin).frame
        candidates.removeAll()
        return frame
    }

    /// When every frame looked at (through `lookedThrough` seconds), in the order shown, is
    /// still fading in at their end (``FrameStatistics/isFadingIn(_:)``), looks on, up to 10 s,
    /// and makes the frame of the rest of the fade with the most contrast (where it is over) the
    /// pick when it has 5% more contrast than `pick`. With one informative frame after
    /// uninformative ones (a short clip with a keyframe a second, as phones make), the next
    /// keyframe is decoded first to see whether it rises, and is one of those frames: one black
    /// frame before the content is no fade (a QA pass: taken for one, clips were decoded to 10 s
    /// at twice to five times the cost, and a frame after a cut won). The rest of the fade is
    /// read from the keyframes after when there are three, else in order, and ends at the first
    /// frame at which the fade is over (its contrast rises by less than 5% a second, measured
    /// over half a second at least: ``FrameStatistics/fadeIsOver(at:after:)``), before one whose
    /// contrast falls or that does not resemble the one before (a cut, a fade-out: a white end
    /// card after the fade won before).
    private func followFade(
        from pick: Int, candidates: inout [PosterCandidate], chosen: inout Int?,
        lookedThrough: Double, duration: Double
    ) throws {
        let end = min(duration, ClipFrameSource.extendedWindowLimit)
        var seen = ClipFrameSource.inShowingOrder(candidates).compactMap { candidate in
            seconds(of: candidate).map { (time: $0, statistics: candidate.statistics) }
        }
        var from = lookedThrough
        // Where the probed keyframe is among the candidates, when one was probed.
        var probe: Int?
        if seen.filter({ !$0.statistics.isUninformative }).count == 1, seen.first?.statistics.isUninformative == true {
            let next = try posterCandidates(after: lookedThrough, through: end, limit: 1)
            guard let probed = next.first, let time = seconds(of: probed) else { return }
            seen.append((time, probed.statistics))
            probe = candidates.count
            candidates += next
            from = max(from, time)
        }
        guard FrameStatistics.isFadingIn(seen.map(\.statistics)), let last = seen.last?.statistics,
            let start = seen.firstIndex(where: { !$0.statistics.isUninformative })
        else { return }
        // The fade's frames so far, from its first informative one (its near-black start is noise).
        var fade = Array(seen[start...])
        // The frames that may be the poster: the keyframe just probed (a fade over by then: a
        // review found it thrown away for a mid-fade pick), then the rest of the fade.
        var choices: [(index: Int, statistics: FrameStatistics)] = probe.map { [($0, last)] } ?? []
        if end > from {
            let fadeSoFar = fade
            func fadeIsOver(_ candidate: PosterCandidate) -> Bool {
                guard let previous = fade.last, let time = seconds(of: candidate) else { return true }
                defer { fade.append((time, candidate.statistics)) }
                return !candidate.statistics.continuesFade(after: previous.statistics)
                    || FrameStatistics.fadeIsOver(at: (time, candidate.statistics), after: fade)
            }
            let count = ClipFrameSource.sequentialCandidateCount
            var later = try posterCandidates(after: from, through: end, limit: count)
            if later.count < 3 {
                // From one step on: the frame at `from` is the last one looked at.
                later = try sequentialCandidates(
                    from: from + (end - from) / Double(count), through: end, count: count, stoppingAfter: fadeIsOver)
            }
            let rest = FrameStatistics.restOfFade(
                later.map { (time: seconds(of: $0), statistics: $0.statistics) }, after: fadeSoFar)
            choices += rest.enumerated().map { (candidates.count + $0.offset, $0.element) }
            candidates += later
        }
        if let fullest = choices.max(by: { $0.statistics.lumaDeviation < $1.statistics.lumaDeviation }),
            fullest.statistics.lumaDeviation > 1.05 * candidates[pick].statistics.lumaDeviation
        {
            chosen = fullest.index
        }
    }

    // MARK: - Decoding

    /// Decodes the first frame whose presentation timestamp is at least `target`, or the last
    /// frame when there is none (then `clamped` is true).
    private func decodeFrame(atOrAfter target: Int64) throws -> (frame: Frame, clamped: Bool) {
        let reader = try sequential()
        let frame = try Frame()
        let previous = try Frame()
        var request = target
        var attempts = 0
        while attempts < 8 {
            attempts += 1
            try reader.seek(toKeyframeBefore: request)
            let damagedBefore = reader.damagedPacketCount
            var decodedAny = false
            var steppedBack = false
            while try reader.next(into: frame) {
                let timestamp = frame.presentationTimestamp ?? target
                if !decodedAny, timestamp > target, target > origin, let earlier = keyframeRequest(before: request) {
                    // The seek went by decode time and landed after a frame shown at or after the
                    // target (reordered frames): start one keyframe earlier.
                    request = earlier
                    steppedBack = true
                    break
                }
                decodedAny = true
                if timestamp >= target {
                    lastFrameMayShowDamage = reader.damagedPacketCount > damagedBefore
                    return (frame, false)
                }
                previous.take(from: frame)
            }
            if steppedBack { continue }
            if decodedAny {
                // The last frame still shows at a target before its end: no clamping to tell.
                let shownUntil = previous.presentationTimestamp.flatMap { start in
                    previous.duration.map { start.saturatingAdd($0) }
                }
                lastFrameMayShowDamage = reader.damagedPacketCount > damagedBefore
                return (previous, shownUntil.map { target >= $0 } ?? true)
            }
            // Nothing decodable after this keyframe (a damaged or truncated end): step back.
            guard let earlier = keyframeRequest(before: request) else { break }
            request = earlier
        }
        throw MediaError(.invalidMedia, path: path, "no decodable video frame")
    }

    /// Where the last frame stops showing, in stream ticks: the latest end among the packets
    /// from the last keyframe on, demuxed, not decoded (decoding them made `--at 0%` of a clip of
    /// one group of pictures decode it whole; a QA pass); nil when none says.
    private func lastShownEnd() throws -> Int64? {
        guard let request = lastFrameRequests().first else { return nil }
        try file.seek(stream: stream, toKeyframeBefore: request)
        let packet = try Packet()
        var end: Int64?
        // A damaged end stops the reading: what was read says.
        while (try? file.readPacket(into: packet)) == true {
            guard packet.streamIndex == stream.index, !packet.isDiscarded, let shown = packet.presentationTimestamp
            else { continue }
            let shownUntil = shown.saturatingAdd(packet.duration)
            end = max(end ?? shownUntil, shownUntil)
        }
        return end
    }

    /// Seek requests for the last frame, latest first: one per keyframe whose data is in the
    /// file, at the end of its group of pictures; a single request past the end when the index
    /// is empty.
    /// The decode time from which every frame is decoded when looking for the last frame:
    /// a few samples before the last one a viewer sees, enough for any reordering depth
    /// (B-pyramids reorder at most 4 frames in H.264 and HEVC as encoders use them). Before it,
    /// only frames that later frames refer to are decoded. Nil when the index cannot say.
    private func lastFrameTail() -> Int64? {
        let inFile = index.filter { $0.end <= Int64(clamping: file.fileSize) }
        guard let last = inFile.lastIndex(where: { !$0.isDiscarded }) else { return nil }
        return inFile[max(0, last - ClipFrameSource.lastFrameReorderMargin)].timestamp
    }

    /// Samples before the last shown one that are always fully decoded.
    static let lastFrameReorderMargin = 8

    private func lastFrameRequests() -> [Int64] {
        let requests = keyframeRequests(where: { $0.end <= Int64(clamping: file.fileSize) })
        guard !requests.isEmpty else { return [Int64.max / 2, origin] }
        return Array(requests.reversed().prefix(16))
    }

    /// For each keyframe of the index that passes `include`, in decode order: the timestamp
    /// whose backward seek lands on that keyframe (the decode time of the last sample of its
    /// group of pictures, which also satisfies the demuxer's open-GOP check), paired with the
    /// keyframe's own entry.
    private func keyframeGroups(where include: (IndexEntry) -> Bool) -> [(keyframe: IndexEntry, request: Int64)] {
        var groups: [(keyframe: IndexEntry, request: Int64)] = []
        for (position, entry) in index.enumerated() where entry.isKeyframe && include(entry) {
            var last = position
            while last + 1 < index.count, !index[last + 1].isKeyframe { last += 1 }
            groups.append((entry, max(entry.timestamp, index[last].timestamp)))
        }
        return groups
    }

    private func keyframeRequests(where include: (IndexEntry) -> Bool) -> [Int64] {
        keyframeGroups(where: include).map(\.request)
    }

    /// The seek request one keyframe before the keyframe a backward seek to `request` lands on,
    /// or nil when there is none.
    private func keyframeRequest(before request: Int64) -> Int64? {
        let keyframes = index.enumerated().filter { $0.element.isKeyframe }
        guard let landed = keyframes.lastIndex(where: { $0.element.timestamp <= request }), landed > 0 else {
            return nil
        }
        let position = keyframes[landed].offset
        return index[position - 1].timestamp
    }

    /// Decoded poster candidates with their statistics: the keyframes shown after `start` seconds
    /// (nil: from the first frame on, which is a candidate even when it is not a keyframe) up to
    /// `end` seconds, at most `limit`, spread evenly.
    private func posterCandidates(after start: Double?, through end: Double, limit: Int) throws
        -> [PosterCandidate]
    {
        let startTimestamp = start.map { timestamp(atSeconds: $0) }
        let endTimestamp = timestamp(atSeconds: end)
        let fileSize = Int64(clamping: file.fileSize)
        let groups = keyframeGroups { entry in
            !entry.isDiscarded && entry.timestamp <= endTimestamp && entry.end <= fileSize
                && startTimestamp.map { entry.timestamp > $0 } ?? true
        }
        var candidates: [PosterCandidate] = []
        var seen = Set<Int64>()
        if start == nil, index.first(where: { !$0.isDiscarded }) != groups.first?.keyframe {
            // The first frame shown is not a keyframe (an edit list starts mid-GOP): decode it.
            if let first = try? decodeFrame(atOrAfter: origin).frame, let candidate = try candidate(from: first) {
                candidates.append(candidate)
                if let timestamp = candidate.shownAt { seen.insert(timestamp) }
            }
        }
        let reader = try keyframes()
        for group in ClipFrameSource.evenlySpread(groups, limit: max(0, limit - candidates.count)) {
            let frame = try Frame()
            guard try reader.decodeKeyframe(seekingTo: group.request, into: frame) else { continue }
            // A demuxer that steps back a keyframe (open GOPs) may hand out one seen already.
            if let timestamp = frame.presentationTimestamp, !seen.insert(timestamp).inserted { continue }
            if let candidate = try candidate(from: frame) { candidates.append(candidate) }
        }
        if start == nil, candidates.isEmpty, let first = try? decodeFrame(atOrAfter: origin).frame,
            let candidate = try candidate(from: first)
        {
            candidates.append(candidate)
        }
        return candidates
    }

    /// `frame` as a poster candidate: its statistics, its time, and the frame itself while the
    /// frames kept so far and it are within ``posterRetentionBytes``. A frame past the budget
    /// without a time cannot be found again: it is kept when no other is (a first frame larger
    /// than the budget), else it is no candidate (nil).
    private func candidate(from frame: Frame) throws -> PosterCandidate? {
        let statistics = try converter.statistics(of: frame)
        let shownAt = frame.presentationTimestamp
        let bytes = frame.bufferBytes
        let fits = bytes <= ClipFrameSource.posterRetentionBytes - retainedCandidateBytes
        guard fits || (shownAt == nil && retainedCandidateBytes == 0) else {
            return shownAt.map { PosterCandidate(statistics: statistics, shownAt: $0, frame: nil) }
        }
        retainedCandidateBytes += bytes
        return PosterCandidate(statistics: statistics, shownAt: shownAt, frame: frame)
    }

    /// Poster candidates decoded in order from `start` seconds (the clip's start by default),
    /// non-key frames included, up to `end` seconds: the first frame shown from `start`, then the
    /// first frame at or after each further `(end - start) / count` seconds, at most `count` in
    /// all, or up to the first for which `stop` is true. Frames no other frame refers to are not
    /// decoded while they are shown before the next wanted time (none of them could be taken).
    private func sequentialCandidates(
        from start: Double = 0, through end: Double, count: Int,
        stoppingAfter stop: (PosterCandidate) -> Bool = { _ in false }
    ) throws -> [PosterCandidate] {
        guard count > 0 else { return [] }
        let reader = try sequential()
        var wanted = start > 0 ? timestamp(atSeconds: start) : origin
        try reader.seek(toKeyframeBefore: wanted)
        let endTimestamp = timestamp(atSeconds: end)
        var candidates: [PosterCandidate] = []
        let frame = try Frame()
        reader.decodeOnlyReferenceFrames(shownBefore: wanted)
        while candidates.count < count, try reader.next(into: frame) {
            guard let shown = frame.presentationTimestamp, shown >= origin else { continue }
            guard shown <= endTimestamp else { break }
            guard shown >= wanted else { continue }
            let kept = try Frame()
            kept.take(from: frame)
            guard let candidate = try candidate(from: kept) else { continue }
            candidates.append(candidate)
            if stop(candidate) { break }
            wanted = timestamp(atSeconds: start + (end - start) * Double(candidates.count) / Double(count))
            reader.decodeOnlyReferenceFrames(shownBefore: wanted)
        }
        return candidates
    }

    /// `candidates` in the order their frames are shown, each time once (the tries overlap: the
    /// frames decoded in order include the keyframes looked at before); those without a time
    /// are left out.
    static func inShowingOrder(_ candidates: [PosterCandidate])
        -> [PosterCandidate]
    {
        var seen = Set<Int64>()
        return candidates.compactMap { candidate in candidate.shownAt.map { ($0, candidate) } }
            .sorted { $0.0 < $1.0 }
            .filter { seen.insert($0.0).inserted }
            .map(\.1)
    }

    /// Up to `limit` elements of `items`, evenly spread, always keeping the first.
    static func evenlySpread<Element>(_ items: [Element], limit: Int) -> [Element] {
        guard items.count > limit else { return items }
        guard limit > 1 else { return Array(items.prefix(limit)) }
        let last = Double(items.count - 1)
        return (0..<limit).map { items[Int((Double($0) * last / Double(limit - 1)).rounded())] }
    }

    /// The reader that decodes every frame, opened on first use.
    private func sequential() throws -> VideoFrameReader {
        if let sequentialReader { return sequentialReader }
        let reader = try VideoFrameReader(stream: stream, threads: threads)
        sequentialReader = reader
        return reader
    }

    /// The reader that decodes single keyframes, opened on first use.
    private func keyframes() throws -> KeyframeReader {
        if let keyframeReader { return keyframeReader }
        let reader = try KeyframeReader(stream: stream)
        keyframeReader = reader
        return reader
    }

    // MARK: - Time

    /// When `candidate` is shown, in seconds from the clip's start; nil when its time is unknown.
    private func seconds(of candidate: PosterCandidate) -> Double? {
        candidate.shownAt.map { (Double($0) - Double(origin)) * stream.timeBase }
    }

    /// `seconds` from the clip's start in stream ticks (held at the ends of `Int64` for a
    /// hostile start time or time base; negative and NaN seconds count as 0).
    private func timestamp(atSeconds seconds: Double) -> Int64 {
        let microseconds = Int64(((seconds > 0 ? min(seconds, 1e9) : 0) * 1_000_000).rounded())
        let ticks = av_rescale_q(microseconds, cff_time_base_q(), stream.timeBaseRational)
        // av_rescale_q gives INT64_MIN when the result does not fit.
        return origin.saturatingAdd(ticks == .min ? .max : ticks)
    }

    /// `frame` as an RGBA picture of `size`. A clip with transparency (PNG or QuickTime
    /// Animation in a `.mov`, ProRes 4444 with alpha) is drawn over black, as a still with
    /// transparency is: the colour stored under its transparent pixels showed (a cube QA pass).
    private func deliver(_ frame: Frame, size: FrameSize, clamped: Bool) throws -> RGBAImageBuffer {
        noteDelivery(of: frame, clamped: clamped)
        var picture = try converter.picture(from: frame, size: size)
        if frame.pixelFormat.hasAlpha { StillImage.drawOverBlack(&picture) }
        return picture
    }

    /// `frame` as yuv420p planes of `size`: its own planes scaled where ``FrameConverter`` can,
    /// else its RGBA picture converted (a picture with transparency, drawn over black first).
    private func deliverPlanes(_ frame: Frame, size: FrameSize) throws -> PlanarPicture {
        if !frame.pixelFormat.hasAlpha, let planes = try converter.planes(from: frame, size: size) {
            noteDelivery(of: frame, clamped: false)
            return planes
        }
        return try VideoClipWriter.yuv420Planes(of: try deliver(frame, size: size, clamped: false))
    }

    private func noteDelivery(of frame: Frame, clamped: Bool) {
        lastRequestWasClamped = clamped
        lastFrameTime = frame.presentationTimestamp.map { (Double($0) - Double(origin)) * stream.timeBase }
    }
}
