import CFFmpeg

/// Reads a clip's ``ClipInfo`` from its header and index, decoding at most the first few packets.
public enum ClipProbe {
    /// Probes the clip at `path`, giving up after `timeout` seconds. Without `readingColour`, the
    /// colour tags and the pixel aspect that only the bitstream's pictures hold are left as the
    /// container gives them: no frame is decoded for them (`ingest`, which uses neither).
    public static func inspect(path: String, timeout: Double? = nil, readingColour: Bool = true) throws -> ClipInfo {
        let file = try InputFile(path: path, timeout: timeout)
        // A corrupt index is said as that before any packet is read: a first sample of 2^29
        // bytes or more was read as one, and failed as "Cannot allocate memory" (a QA pass).
        for stream in file.streams { _ = try stream.indexEntries }
        let videoFailure = try completeVideoDetails(of: file, readingColour: readingColour)
        // What the audio's frames alone say: a clip whose audio cannot be read is reported as
        // its header has it.
        let audioFailure = (try? decodeAudioStart(of: file)) ?? nil
        var info = try info(of: file)
        if let videoFailure { info.warnings.append(videoFailure) }
        if let audioFailure { info.warnings.append(audioFailure) }
        return info
    }

    /// Packets of the played audio track that ``decodeAudioStart(of:)`` decodes.
    static let audioPacketsDecoded = 8
    /// Most packets ``decodeAudioStart(of:)`` reads for a first frame: an edit list that starts
    /// the audio later (`ffmpeg -ss 1.5 -c copy`) marks the packets before it discarded, and
    /// the decoder gives no frame of them (an AAC track's 1.5 s is about 65; an inspect QA pass
    /// found such a cut's layout, `mono`, left unread).
    static let audioPacketsBeforeAFrame = 512

    /// Decodes the start of the played audio track (``audioPacketsDecoded`` packets). Its frames'
    /// channel count and sample rate replace the header's, as ffprobe, which decodes, reports
    /// them: an AAC header with its layout in a PCE (2.1, quad, 6.1) gives no channel count, and
    /// the track was reported as no audio (a QA pass); an MP4's sample entry always says 2
    /// channels (ISO's version-0 template), and a mono MP3 or MP2 was reported as stereo (a QA
    /// pass). Returns a warning when the audio does not
    /// decode: Chromium stops a clip at its first audio packet that fails, so such a clip played
    /// as stills only, where `ingest`, `render` and `validate` had passed it (a QA pass). A codec
    /// this FFmpeg build has no decoder for is left as the header gives it; a decoder that will not
    /// open on the track's configuration (an AAC whose header names object types FFmpeg does not
    /// decode, as its own encoder writes for `-profile:a aac_he`; ffprobe then says 0 channels) is
    /// audio that does not decode (a QA pass: it went into bundles as good audio). Reads packets:
    /// seek before decoding.
    static func decodeAudioStart(of file: InputFile) throws -> String? {
        guard let audio = file.bestStream(.audio), case let audioEntries = try audio.indexEntries,
            let first = audioEntries.first
        else { return nil }
        func doesNotDecode(_ error: any Error) -> String {
            "the audio (\(audio.codecName)) does not decode (\(MediaError.reason(of: error))): players stop at it; "
                + "re-encode it (ffmpeg -i IN -c:v copy -c:a aac OUT) or leave it out (-an)"
        }
        let decoder: Decoder
        do {
            decoder = try Decoder(stream: audio, threads: 1)
        } catch let error as MediaError where error.kind == .invalidMedia {
            return doesNotDecode(error)
        } catch let error as MediaError where error.kind == .unsupported {
            return nil
        }
        file.discardAllStreams(except: audio)
        try file.seek(stream: audio, toKeyframeBefore: first.timestamp)
        let packet = try Packet()
        let frame = try Frame()
        var packetsRead = 0
        var framesTaken = 0
        func take(_ decoded: Frame) {
            framesTaken += 1
            let parameters = audio.parameters
            let layout = decoded.pointer.pointee.ch_layout
            // The decoder's layout also where the header gives only a count (an MP4's AAC:
            // `stereo`, as ffprobe says it).
            let namesMore =
                parameters.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC && layout.order != AV_CHANNEL_ORDER_UNSPEC
            if layout.nb_channels > 0, parameters.pointee.ch_layout.nb_channels != layout.nb_channels || namesMore {
                av_channel_layout_uninit(&parameters.pointee.ch_layout)
                av_channel_layout_copy(&parameters.pointee.ch_layout, &decoded.pointer.pointee.ch_layout)
            }
            if decoded.pointer.pointee.sample_rate > 0 {
                parameters.pointee.sample_rate = decoded.pointer.pointee.sample_rate
            }
        }
        // A sample the file ends inside is the truncation's to say, not the audio's (an inspect
        // QA pass: a cut fragmented MP4 was told to re-encode its good audio as well).
        let fileSize = Int64(clamping: file.fileSize)
        let cutOff = Set(audioEntries.filter { $0.end > fileSize }.map(\.position))
        while packetsRead < audioPacketsDecoded || (framesTaken == 0 && packetsRead < audioPacketsBeforeAFrame),
            try file.readPacket(into: packet)
        {
            guard packet.streamIndex == audio.index else { continue }
            if cutOff.contains(packet.pointer.pointee.pos) { break }
            packetsRead += 1
            do {
                while try !decoder.send(packet) {
                    guard try decoder.receive(into: frame) == .frame else { break }
                    take(frame)
                }
                while try decoder.receive(into: frame) == .frame { take(frame) }
            } catch {
                return doesNotDecode(error)
            }
        }
        return nil
    }

    /// The ``ClipInfo`` of an opened file. Throws `.invalidMedia` when the sample index is
    /// corrupt (see ``MediaStream/indexEntries``).
    public static func info(of file: InputFile) throws -> ClipInfo {
        let tags = file.tags
        // The file's own brand: FFmpeg's tag takes a metadata item's value (a QA pass).
        let majorBrand: String?
        switch file.fileType {
        case .brand(let brand): majorBrand = brand
        case .none: majorBrand = nil
        case .unknown: majorBrand = tags["major_brand"]
        }
        var warnings = try cutShortWarnings(of: file)
        let videoStream = file.bestStream(.video)
        let video = try videoStream.map { try describeVideo($0) }
        // The video's index, built once for the checks below (each read of it is a copy).
        let videoEntries = try videoStream?.indexEntries ?? []
        if file.streams.isEmpty {
            warnings.append("the file holds no tracks: players show nothing")
        } else if videoStream != nil, videoEntries.isEmpty {
            // A fragmented MP4 cut before its first fragment passed in silence (a QA pass).
            warnings.append(
                "the video track holds no frames (a fragmented MP4 cut before its first fragment, or an empty "
                    + "recording): players show nothing")
        } else if videoStream != nil, videoEntries.allSatisfy(\.isDiscarded) {
            // An edit list that starts past the track's last frame: 2 s at 30 fps and 0 frames
            // passed in silence, while `thumbnail` found no frame to show (an inspect QA pass).
            warnings.append("the video track's edit list (elst) shows none of its frames: players show nothing")
        }
        if let videoStream, videoStream.timeBaseRational.num == 1, videoStream.timeBaseRational.den == 1 {
            // An mdhd timescale of 0 is read as 1 (ffprobe warns "Invalid mdhd time scale 0,
            // defaulting to 1"); no real video track counts in whole seconds.
            warnings.append(
                "the video track's timescale is 0, 1 or over 2^31 − 1 ticks per second, so its frame times, rate and count "
                    + "cannot be trusted")
        }
        if warnings.isEmpty, let videoStream,
            let problem = frameTimeProblem(
                videoEntries, timeBase: videoStream.timeBase,
                clipDuration: max(videoStream.duration ?? 0, file.duration ?? 0))
        {
            warnings.append(problem)
        }
        if warnings.isEmpty, file.isSegmentIndexed, let videoStream,
            let problem = segmentIndexProblem(
                videoEntries, timeBase: videoStream.timeBase, trackDuration: videoStream.duration)
        {
            warnings.append(problem)
        }
        if video != nil, let orientation = videoStream?.orientation { warnings += orientation.warnings }
        // A container that says it lasts far longer than any of its tracks (an mvhd duration of
        // 2^32 − 1 ticks over 3 s of video: 49.7 days) would have a player hold the last frame
        // for that long; the manifest's duration is the container's (a QA pass).
        // Every track counts, captions and chapters too (a QA pass: a caption running past the
        // picture is common, and the container lasts as long as it).
        let ends = file.streams.compactMap { stream in
            stream.duration.map { Double(stream.startTimestamp) * stream.timeBase + $0 }
        }
        if let container = file.duration, let longest = ends.filter({ $0 > 0 }).max() {
            let says =
                "the container says it lasts \(String(format: "%.3f", container)) s, its longest track "
                + "\(String(format: "%.3f", longest)) s: "
            if container > longest + max(1, longest / 10) {
                warnings.append(says + "players would hold its last frame for the difference")
            } else if container > 0, longest - container > max(0.25, longest / 10) {
                // Shorter than its tracks (a QA pass: an mvhd halved passed in silence): players
                // play the tracks whole, while `duration` and the manifest said half of it.
                warnings.append(
                    says + "players play the tracks whole, while its duration says less; remux it "
                        + "(ffmpeg -i IN -c copy OUT.mp4)")
            } else if container == 0 {
                // A movie header of 0 ticks over tracks that last (a QA pass: render skipped it as a
                // bare "no duration", and inspect said 0 s in silence). A fragmented MP4's header
                // says 0 too, but FFmpeg gives its fragments' duration.
                warnings.append(says + "players may take it for empty; remux it (ffmpeg -i IN -c copy OUT.mp4)")
            }
        }
        if let negative = file.negativeHeaderDuration {
            warnings.append(
                "the container's header gives a duration below zero (\(String(format: "%.3f", negative)) s): "
                    + "it is reported as unknown")
        }
        let audio = file.bestStream(.audio).map {
            ClipInfo.Audio(
                codec: $0.codecName, codecs: $0.audioCodecs, sampleRate: $0.sampleRate, channels: $0.channelCount,
                channelLayout: $0.channelLayoutName, language: $0.language,
                trackCount: file.streams.filter { $0.kind == .audio }.count)
        }
        if let video, video.width > 0, video.height > 0 {
            if !PixelBudget.allows(width: video.width, height: video.height) {
                // Reading the header is harmless; decoding a frame is what storyreel refuses.
                warnings.append(
                    "the picture is \(video.width)x\(video.height), \(PixelBudget.overLimit): "
                        + "storyreel will not decode it")
            } else if !PixelBudget.allows(width: video.displayWidth, height: video.displayHeight) {
                // Its pixels are decoded and scaled down well (a 640x360 picture of 13:1 pixels);
                // shown whole, it is over the budget, and so over what a manifest item may be.
                warnings.append(
                    "the picture is \(video.width)x\(video.height), shown at "
                        + "\(video.displayWidth)x\(video.displayHeight), \(PixelBudget.overLimit): "
                        + "storyreel makes only scaled-down pictures of it (thumbnail --width or --height, "
                        + "cube --size), and render skips it")
            }
        }
        return ClipInfo(
            path: file.path,
            container: majorBrand == "qt  " || file.fileType == .none ? "mov" : "mp4",
            majorBrand: majorBrand,
            duration: file.duration,
            size: file.fileSize,
            bitRate: file.bitRate,
            creationTime: CreationTime.validated(tags["creation_time"]),
            video: video,
            audio: audio,
            tags: tags,
            warnings: warnings)
    }

    /// What says the file is cut short: ``truncationWarnings(of:)``, else
    /// ``preallocationWarning(of:)`` (an upload still being written into a preallocated file).
    /// Throws `.invalidMedia` when the sample index is corrupt.
    static func cutShortWarnings(of file: InputFile) throws -> [String] {
        let truncated = try truncationWarnings(of: file)
        guard truncated.isEmpty else { return truncated }
        return try preallocationWarning(of: file).map { [$0] } ?? []
    }

    /// What says the file is cut short (a truncated upload): the opener's "ends before its last
    /// atom", or, saying more and so in its place, an index that points past the end of the
    /// file. Throws `.invalidMedia` when the sample index is corrupt.
    static func truncationWarnings(of file: InputFile) throws -> [String] {
        let indexEnd = try file.streams.flatMap { try $0.indexEntries }.map { UInt64(clamping: $0.end) }.max() ?? 0
        guard indexEnd > file.fileSize else { return file.warnings }
        let missing = indexEnd - file.fileSize
        // A fragmented MP4's samples are indexed by its fragments' headers, not by its moov.
        let index = file.lacksHeaderDuration ? "the fragments' index (moof)" : "the moov index"
        let bytes = missing == 1 ? "1 byte" : "\(missing) bytes"
        return ["\(index) points \(bytes) past the end of the file: it looks truncated"]
    }

    /// Codecs whose every sample starts with a header or a length that is not zero: an
    /// uncompressed frame (rawvideo) that is black is all zeros (a QA pass: a whole clip ending
    /// in black was taken for a preallocated upload).
    private static let compressedCodecs: Set<AVCodecID> = [
        AV_CODEC_ID_H264, AV_CODEC_ID_HEVC, AV_CODEC_ID_AV1, AV_CODEC_ID_VP9, AV_CODEC_ID_MPEG4, AV_CODEC_ID_PRORES,
        AV_CODEC_ID_MJPEG,
    ]

    /// An upload written into a file preallocated at its final size (aria2's default,
    /// `rsync --preallocate`, `fallocate` then fill) has its whole index and size while its end
    /// is still zeros: none of the other checks sees it (a QA pass: it was ingested, 0). A
    /// warning of `inspect`'s, so `ingest` rejects such a clip and `render` skips it; `cube` and
    /// `thumbnail` still take its last decodable frame, as of any clip with a damaged end. No
    /// compressed video sample starts with 8 zero bytes (an MP4 sample of H.264 or HEVC starts
    /// with its first NAL unit's length), so the last one's first bytes tell. Where the file's
    /// last sample is compressed audio (AAC, MP3, Opus, AC-3), which neither starts so, that one
    /// is looked at as well (the last of 8 bytes or more: an encoder's last AAC frame may be 5):
    /// in an interleaved file the last bytes written are usually audio, and a clip whose last
    /// audio frame was zeros went in, then stopped Chromium before its end (the audio QA pass).
    ///
    /// Where the file system tells which parts of the file are not written yet (an upload filled
    /// out of order, a QA pass: a clip with a zeroed fifth in its middle was ingested), a
    /// compressed sample in such a part (its start; any of an H.264 or HEVC sample), or an index
    /// that is not all written (its end still zeros: the same pass ingested one whose audio was
    /// read from byte 0), says so too.
    static func preallocationWarning(of file: InputFile) throws -> String? {
        let stillWritten = "the file looks preallocated and still being written"
        if file.indexNotWritten {
            return "its index (the moov atom) is not all written: it ends in zeros or in blocks not written yet: "
                + stillWritten
        }
        guard let video = file.bestStream(.video), compressedCodecs.contains(video.parameters.pointee.codec_id),
            let last = try video.indexEntries.max(by: { $0.position < $1.position })
        else { return nil }
        if !file.unwrittenRanges.isEmpty {
            var streams = [(kind: "video", stream: video)]
            if let audio = file.bestStream(.audio), compressedAudioCodecs.contains(audio.parameters.pointee.codec_id) {
                streams.append((kind: "audio", stream: audio))
            }
            for (kind, stream) in streams {
                // A sample whose start is not written (a gap of an upload filled out of order
                // spans whole samples), or an H.264 or HEVC sample with a hole anywhere: its NAL
                // units never hold three zero bytes in a row (emulation prevention), so never a
                // block of them a sparse copy would make a hole of (a re-check: a 64 KiB gap in a
                // 194 KB frame of a chunked upload). Another codec's samples may hold such zeros.
                let wholeSamples = [AV_CODEC_ID_H264, AV_CODEC_ID_HEVC].contains(stream.parameters.pointee.codec_id)
                let unwritten = try stream.indexEntries.first { entry in
                    let start = UInt64(clamping: entry.position)
                    let checked = wholeSamples ? max(entry.size, 1) : min(max(entry.size, 1), 8)
                    let bytes = start..<start.saturatingAdd(UInt64(clamping: checked))
                    return file.unwrittenRanges.contains { $0.overlaps(bytes) }
                }
                if let unwritten {
                    return
                        "a \(kind) sample (at byte \(unwritten.position)) lies in a part of the file not written yet: "
                        + stillWritten
                }
            }
        }
        // The played audio track's index, read once for the two checks of its end below.
        let audio = file.bestStream(.audio).flatMap {
            compressedAudioCodecs.contains($0.parameters.pointee.codec_id) ? $0 : nil
        }
        let audioEntries = try audio?.indexEntries ?? []
        var checked = [(kind: "video", entry: last)]
        if let lastAudio = audioEntries.filter({ $0.size >= 8 }).max(by: { $0.position < $1.position }),
            lastAudio.position > last.position
        {
            checked.append((kind: "audio", entry: lastAudio))
        }
        for (kind, entry) in checked where entry.size >= 8 {
            let start = file.bytes(at: entry.position, count: 8)
            guard start.count == 8, start.allSatisfy({ $0 == 0 }) else { continue }
            return "the last \(kind) sample (at byte \(entry.position)) holds only zeros: " + stillWritten
        }
        // Written but for its end (an uploader stalled in its last frame: a QA pass ingested the
        // clip, then the finished file again beside it). An H.264 or HEVC sample in MP4 ends
        // with its last NAL unit, whose last byte is never 0 (its stop bit, or the 0x03 after a
        // final cabac_zero_word), so zeros there are bytes not written yet; but a raw stream's
        // trailing_zero_8bits, which `ffmpeg -c copy` from an `.h264` keeps in the last sample,
        // are a few zeros too (a re-check: 16 of them refused a finished file), so it takes
        // 64, where a write stalls at a block's boundary or more.
        let zeros = min(Int(last.size), Self.unwrittenTail)
        if [AV_CODEC_ID_H264, AV_CODEC_ID_HEVC].contains(video.parameters.pointee.codec_id), zeros >= 8 {
            let end = file.bytes(at: last.position + Int64(last.size) - Int64(zeros), count: zeros)
            if end.count == zeros, end.allSatisfy({ $0 == 0 }) {
                return "the last video sample (at byte \(last.position)) ends in zeros: " + stillWritten
            }
        }
        // The last AAC frame, of any size: a raw_data_block ends with its END element (three 1
        // bits) and the zero bits that align it, so its last byte is never 0 (LD and ELD frames
        // have no END). An upload stalled in its last bytes left them zeros there, the frames
        // too small or not all zeros for the check above (an ingest QA pass: an upload 100 bytes
        // short was taken, then the finished one beside it, the clip in the story twice).
        if let audio, audio.parameters.pointee.codec_id == AV_CODEC_ID_AAC,
            ![FF_PROFILE_AAC_LD, FF_PROFILE_AAC_ELD].contains(audio.parameters.pointee.profile),
            let lastAudio = audioEntries.filter({ $0.size > 0 }).max(by: { $0.position < $1.position }),
            file.bytes(at: lastAudio.end - 1, count: 1) == [0]
        {
            return
                "the last audio sample (at byte \(lastAudio.position)) ends in a zero byte, which no AAC frame does: "
                + stillWritten
        }
        return nil
    }

    /// The zero bytes at the end of an H.264 or HEVC clip's last sample that say it is not
    /// written yet (``preallocationWarning(of:)``).
    static let unwrittenTail = 64

    /// Audio codecs none of whose frames starts with 8 zero bytes (PCM's silence does; so may
    /// lossless codecs').
    private static let compressedAudioCodecs: Set<AVCodecID> = [
        AV_CODEC_ID_AAC, AV_CODEC_ID_MP3, AV_CODEC_ID_OPUS, AV_CODEC_ID_AC3, AV_CODEC_ID_EAC3,
    ]

    private static func describeVideo(_ stream: MediaStream) throws -> ClipInfo.Video {
        let (width, height) = stream.codedSize
        let orientation = stream.orientation
        let aspect = stream.sampleAspectRatio ?? 1
        // At least one pixel, as the decoder's frames have it (``ClipFrameSource``): a 1:1000
        // pixel aspect gave a 0-pixel width and a false "over storyreel's limit" (a QA pass).
        let shownWidth = max(width > 0 ? 1 : 0, Int(saturating: (Double(width) * aspect).rounded()))
        let entries = try stream.indexEntries
        let shown = entries.filter { !$0.isDiscarded }
        let transfer = stream.colorTransferName
        let dolbyVision = stream.dolbyVision.map { (profile: $0.profile, compatibilityID: $0.compatibilityID) }
        return ClipInfo.Video(
            codec: stream.codecName,
            codecs: stream.codecs,
            profile: stream.profileName,
            codecTag: stream.codecTag,
            width: width,
            height: height,
            rotation: orientation.rotation,
            mirrored: orientation.mirrored,
            displayWidth: orientation.swapsDimensions ? height : shownWidth,
            displayHeight: orientation.swapsDimensions ? shownWidth : height,
            frameRate: stream.averageFrameRate,
            variableFrameRate: hasVariableFrameDurations(entries)
                || averageRateMissesSteps(
                    entries, timeBase: stream.timeBase, averageFrameRate: stream.averageFrameRate),
            frameCount: shown.count,
            pixelFormat: stream.pixelFormatName,
            bitDepth: stream.bitDepth,
            colorTransfer: transfer,
            colorPrimaries: stream.colorPrimariesName,
            colorSpace: stream.colorSpaceName,
            colorRange: stream.colorRangeName,
            hdr: hdrKind(transfer: transfer, dolbyVision: dolbyVision),
            dolbyVisionProfile: dolbyVision.map(dolbyVisionProfile),
            lightMetadata: stream.containerLightMetadata ?? stream.file.decodedLightMetadata[stream.index],
            duration: stream.duration,
            bitRate: stream.bitRate)
    }

    /// Fills in the video stream's pixel format and profile, which the QuickTime header does not
    /// carry, and its coded size where the demuxer leaves it to the decoder (MPEG-4 Part 2,
    /// H.263), by parsing (not decoding) its first packets: much cheaper than
    /// `avformat_find_stream_info`, which decodes a frame of every stream. Codecs FFmpeg's parsers
    /// say nothing about (ProRes, DNxHD, MJPEG, H.263) get one decoded frame, of the first packet,
    /// as ffprobe does; so do clips whose colour tags or pixel aspect only their pictures give,
    /// unless not `readingColour`. First, an H.264/HEVC stream's colour and pixel aspect are
    /// taken from its sequence parameter set (``takeBitstreamColour(into:)``). Reads packets:
    /// seek before decoding. Returns a warning when the pixel format is still unknown because
    /// that frame did not decode (``warnsUndecodable(_:)``: H.264 or HEVC without its decoder
    /// configuration, `avcC`, or a sample entry FFmpeg does not know): ffprobe says "Invalid data
    /// found", and `inspect` said nothing and exited 0 (a QA pass).
    @discardableResult
    static func completeVideoDetails(of file: InputFile, readingColour: Bool = true) throws -> String? {
        guard let video = file.bestStream(.video) else { return nil }
        takeBitstreamColour(into: video)
        guard lacksDetails(video) else { return nil }
        let parameters = video.parameters
        func fill(format: Int32?, profile: Int32?, size: (width: Int32, height: Int32)?) {
            if let format, format >= 0, parameters.pointee.format < 0 { parameters.pointee.format = format }
            if let profile, profile >= 0, parameters.pointee.profile < 0 { parameters.pointee.profile = profile }
            if let size, parameters.pointee.width <= 0 || parameters.pointee.height <= 0 {
                (parameters.pointee.width, parameters.pointee.height) = size
            }
        }
        file.discardAllStreams(except: video)
        let parser = CodecDetailsParser(stream: video)
        let packet = try Packet()
        var firstPacket: Packet?
        var packetsRead = 0
        while packetsRead < 8, try file.readPacket(into: packet) {
            guard packet.streamIndex == video.index else { continue }
            if firstPacket == nil { firstPacket = try packet.reference() }
            guard let parser else { break }
            parser.parse(packet)
            packetsRead += 1
            takeSize(from: parser, into: video)
            fill(format: parser.pixelFormat, profile: nil, size: parser.size)
            if parameters.pointee.format >= 0 && !lacksSize(video) { break }
        }
        fill(format: nil, profile: parser?.profile, size: nil)
        guard lacksDetails(video, readingColour: readingColour), let firstPacket else { return nil }
        // A frame that does not decode (or a picture over the budget) leaves the details unknown:
        // `inspect` reports what it can rather than failing on the header it already read.
        let decoded: FirstFrameDetails
        do {
            decoded = try firstFrameDetails(of: video, packet: firstPacket)
        } catch let error as MediaError where error.kind == .invalidMedia || error.kind == .unsupported {
            return warnsUndecodable(video) ? videoDoesNotDecode(video, MediaError.reason(of: error)) : nil
        } catch {
            return nil
        }
        fill(format: decoded.format, profile: decoded.profile, size: decoded.size)
        if warnsUndecodable(video) {
            return videoDoesNotDecode(video, "no picture came out of its first frame")
        }
        if !video.hasSampleAspectRatio, decoded.aspect.num > 0, decoded.aspect.den > 0 {
            parameters.pointee.sample_aspect_ratio = decoded.aspect
        }
        // Where the container has its own, that is reported (``describeVideo``).
        if let light = decoded.light { file.decodedLightMetadata[video.index] = light }
        let colour = decoded.colour
        if parameters.pointee.color_trc == AVCOL_TRC_UNSPECIFIED
            || (mayTakeAlternativeTransfer(video)
                && [AVCOL_TRC_ARIB_STD_B67, AVCOL_TRC_SMPTE2084].contains(colour.transfer))
        {
            // An alternative transfer's HLG (or PQ) is how the frames are shown, as ffprobe's
            // frames and MediaInfo say (`HLG / BT.2020 (10-bit)`).
            parameters.pointee.color_trc = colour.transfer
        }
        if parameters.pointee.color_primaries == AVCOL_PRI_UNSPECIFIED {
            parameters.pointee.color_primaries = colour.primaries
        }
        if parameters.pointee.color_space == AVCOL_SPC_UNSPECIFIED { parameters.pointee.color_space = colour.space }
        if parameters.pointee.color_range == AVCOL_RANGE_UNSPECIFIED { parameters.pointee.color_range = colour.range }
        return nil
    }

    /// True when `video`'s pixel format, still unknown after its first packet was decoded, means
    /// the video does not decode: for H.264 and HEVC, whose parser reads the format of any good
    /// clip's first packet, keyframe or not, and for a sample entry FFmpeg does not know. Not for
    /// a codec whose format only a decoded keyframe gives: a VP9 or MPEG-4 clip cut without
    /// re-encoding starts on a frame that does not decode alone, and plays (a re-check found
    /// such clips warned and skipped by render).
    private static func warnsUndecodable(_ video: MediaStream) -> Bool {
        video.parameters.pointee.format < 0
            && (sizedByParser.contains(video.parameters.pointee.codec_id)
                || video.parameters.pointee.codec_id == AV_CODEC_ID_NONE)
    }

    /// The warning for a video track whose first frame gives no picture, for `reason`.
    private static func videoDoesNotDecode(_ video: MediaStream, _ reason: String) -> String {
        "the video (\(video.codecName)) does not decode (\(reason)): players cannot show it"
    }

    /// What ``firstFrameDetails(of:packet:)`` gives.
    private typealias FirstFrameDetails = (
        format: Int32, profile: Int32, size: (width: Int32, height: Int32)?, aspect: AVRational,
        light: HDRLightMetadata?,
        colour: (
            transfer: AVColorTransferCharacteristic, primaries: AVColorPrimaries, space: AVColorSpace,
            range: AVColorRange
        )
    )

    /// Puts what an H.264/HEVC stream's sequence parameter set says in its VUI
    /// (``BitstreamColour``) into its parameters, over the container's (`colr`), as FFmpeg's
    /// decoders do and so ffprobe: the range when the VUI gives a video signal type, the
    /// primaries, transfer and matrix each when it describes them with a value FFmpeg names
    /// other than "unspecified", and the pixel aspect when the container gives none (`pasp`
    /// wins, as `av_guess_sample_aspect_ratio` picks it). HEVC's range is limited when neither
    /// says, as its decoder has it. Read from the decoder configuration record, not decoded.
    static func takeBitstreamColour(into stream: MediaStream) {
        let parameters = stream.parameters
        let codec: BitstreamColour.Codec
        switch parameters.pointee.codec_id {
        case AV_CODEC_ID_H264: codec = .h264
        case AV_CODEC_ID_HEVC: codec = .hevc
        default: return
        }
        guard let colour = BitstreamColour.read(codec, extradata: stream.extradata) else { return }
        if let fullRange = colour.fullRange {
            parameters.pointee.color_range = fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        } else if codec == .hevc, parameters.pointee.color_range == AVCOL_RANGE_UNSPECIFIED {
            parameters.pointee.color_range = AVCOL_RANGE_MPEG
        }
        if let value = colour.primaries.map({ AVColorPrimaries(UInt32($0)) }),
            MediaStream.colourName(value, unspecified: AVCOL_PRI_UNSPECIFIED, av_color_primaries_name) != nil
        {
            parameters.pointee.color_primaries = value
        }
        if let value = colour.transfer.map({ AVColorTransferCharacteristic(UInt32($0)) }),
            MediaStream.colourName(value, unspecified: AVCOL_TRC_UNSPECIFIED, av_color_transfer_name) != nil
        {
            parameters.pointee.color_trc = value
        }
        if let value = colour.matrix.map({ AVColorSpace(UInt32($0)) }),
            MediaStream.colourName(value, unspecified: AVCOL_SPC_UNSPECIFIED, av_color_space_name) != nil
        {
            parameters.pointee.color_space = value
        }
        if let aspect = colour.sampleAspect, !stream.hasSampleAspectRatio,
            let num = Int32(exactly: aspect.num), let den = Int32(exactly: aspect.den)
        {
            parameters.pointee.sample_aspect_ratio = AVRational(num: num, den: den)
        }
    }

    /// The codecs whose parser reads the picture size from the sequence parameter set.
    private static let sizedByParser: Set<AVCodecID> = [AV_CODEC_ID_H264, AV_CODEC_ID_HEVC]

    /// Puts the picture size the H.264/HEVC `parser` read from the bitstream into `stream`'s
    /// parameters when the sample description says another: the bitstream's size wins, as the
    /// decoder's does (and ffprobe's). A `stsd` saying 1x1 over a 720x1280 stream made a 1x1
    /// item whose 720x1280 poster validate refused, and one saying 65535x65535 a refused clip
    /// that decodes (a QA pass).
    private static func takeSize(from parser: CodecDetailsParser, into stream: MediaStream) {
        let parameters = stream.parameters
        guard let picture = parser.pictureSize, sizedByParser.contains(parameters.pointee.codec_id),
            picture != (parameters.pointee.width, parameters.pointee.height)
        else { return }
        (parameters.pointee.width, parameters.pointee.height) = picture
        measureTrackHeaderAgainstPicture(of: stream)
    }

    /// Measures the track header's size against the picture the bitstream gives, for a track
    /// with no `pasp` box: FFmpeg's demuxer measured it against the sample description's size,
    /// which may be another (the coded one, 1088 wide for a 1080-wide picture). A track header
    /// of the picture's own size is then no pixel aspect at all, and the bitstream's applies, as
    /// in any clip without `pasp`; one wider than the picture stretches it by exactly the ratio
    /// (a QA pass: a 1080x1920 clip whose sample description said 1088 was reported 1072 wide,
    /// and its poster squeezed; ffprobe says 135:136, MediaInfo 1080x1920).
    private static func measureTrackHeaderAgainstPicture(of stream: MediaStream) {
        let parameters = stream.parameters
        let (width, height) = (Int64(parameters.pointee.width), Int64(parameters.pointee.height))
        guard let header = stream.file.trackPictures[stream.index], !header.hasPixelAspectBox,
            stream.stream.pointee.sample_aspect_ratio.num > 0, width > 0, height > 0,
            let trackWidth = Int64(exactly: header.width), let trackHeight = Int64(exactly: header.height),
            trackWidth > 0, trackHeight > 0
        else { return }
        var ratio = AVRational(num: 0, den: 1)
        let (num, numOverflow) = height.multipliedReportingOverflow(by: trackWidth)
        let (den, denOverflow) = width.multipliedReportingOverflow(by: trackHeight)
        guard !numOverflow, !denOverflow else { return }
        if num != den { av_reduce(&ratio.num, &ratio.den, num, den, Int64(Int32.max)) }
        stream.stream.pointee.sample_aspect_ratio = ratio
    }

    /// ``takeSize(from:into:)`` for a reader of frames, which needs no other detail: parses the
    /// first packet of H.264/HEVC `stream` (not decoding it), then seeks back to the stream's
    /// first keyframe.
    static func takeBitstreamSize(of file: InputFile, stream: MediaStream) throws {
        guard sizedByParser.contains(stream.parameters.pointee.codec_id),
            let parser = CodecDetailsParser(stream: stream), let first = try stream.indexEntries.first
        else { return }
        let packet = try Packet()
        var packetsRead = 0
        while packetsRead < 64, try file.readPacket(into: packet) {
            packetsRead += 1
            guard packet.streamIndex == stream.index else { continue }
            parser.parse(packet)
            takeSize(from: parser, into: stream)
            break
        }
        try file.seek(stream: stream, toKeyframeBefore: first.timestamp)
    }

    /// True when the stream's pixel format, profile (of a codec with named profiles) or coded
    /// size is unknown, or (when `readingColour`) its colour tags or pixel aspect.
    static func lacksDetails(_ stream: MediaStream, readingColour: Bool = true) -> Bool {
        stream.parameters.pointee.format < 0 || lacksProfile(stream) || lacksSize(stream)
            || (readingColour && (lacksColour(stream) || lacksAspect(stream)))
    }

    /// True when an H.264/HEVC stream's pixel aspect is unknown to the container (no `pasp`
    /// box, a track header of the coded size) and to its VUI as ``takeBitstreamColour(into:)``
    /// read it (where that ran): such a clip gets one decoded frame, as ffprobe's every clip does
    /// (which, once the VUI was read and gave none, tells nothing more). A QA pass: an
    /// anamorphic 320x240 `.mov` without `pasp` was reported, and drawn, at 320x240 where ffprobe
    /// and MediaInfo show 427x240. FFmpeg's writers and Apple's put a `pasp` box in, so this
    /// costs the common clip nothing.
    static func lacksAspect(_ stream: MediaStream) -> Bool {
        sizedByParser.contains(stream.parameters.pointee.codec_id) && !stream.hasSampleAspectRatio
    }

    /// True when the stream's colour transfer is unknown though its bitstream can carry one (an
    /// MP4 without a `colr` box whose AV1/VP9 header has the tags, or an H.264/HEVC stream whose
    /// VUI, read first by ``takeBitstreamColour(into:)``, gives none, where an SEI may: HLG
    /// signalled by an alternative transfer alone): only the decoder reads those, so such a clip
    /// gets one decoded frame, as ffprobe's every clip does. Without it `inspect` called a PQ clip
    /// tagged only in its bitstream SDR, while `thumbnail` tone-mapped its frames.
    /// So does an H.264/HEVC stream whose VUI gives BT.2020's transfer, which HLG's
    /// backward-compatible signalling pairs with an alternative transfer characteristics SEI
    /// saying HLG (ARIB STD-B67, ATSC A/341; x265's `atc-sei=18`): a QA pass found such a clip
    /// `HDR none`, while `thumbnail`, reading the decoded frames' tag, tone-mapped it as HLG.
    private static func lacksColour(_ stream: MediaStream) -> Bool {
        let codecs = [AV_CODEC_ID_H264, AV_CODEC_ID_HEVC, AV_CODEC_ID_AV1, AV_CODEC_ID_VP9]
        return
            (stream.parameters.pointee.color_trc == AVCOL_TRC_UNSPECIFIED
            && codecs.contains(stream.parameters.pointee.codec_id)) || mayTakeAlternativeTransfer(stream)
            || lacksLightMetadata(stream)
    }

    /// True for a PQ H.264/HEVC stream whose container gives no HDR light metadata (`mdcv`,
    /// `clli`), which its SEI messages may: an encoder's HDR10 (x265's `master-display` and
    /// `max-cll`) is there alone unless a muxer copied it out (an inspect QA pass: MediaInfo
    /// reports it, `inspect` said only `pq`).
    private static func lacksLightMetadata(_ stream: MediaStream) -> Bool {
        [AV_CODEC_ID_H264, AV_CODEC_ID_HEVC].contains(stream.parameters.pointee.codec_id)
            && stream.parameters.pointee.color_trc == AVCOL_TRC_SMPTE2084 && stream.containerLightMetadata == nil
            && stream.file.decodedLightMetadata[stream.index] == nil
    }

    /// True for an H.264/HEVC stream whose transfer is BT.2020's (10 or 12 bits), the one an
    /// alternative transfer characteristics SEI, which only the decoder reads, may override.
    private static func mayTakeAlternativeTransfer(_ stream: MediaStream) -> Bool {
        [AV_CODEC_ID_H264, AV_CODEC_ID_HEVC].contains(stream.parameters.pointee.codec_id)
            && [AVCOL_TRC_BT2020_10, AVCOL_TRC_BT2020_12].contains(stream.parameters.pointee.color_trc)
    }

    private static func lacksSize(_ stream: MediaStream) -> Bool {
        stream.parameters.pointee.width <= 0 || stream.parameters.pointee.height <= 0
    }

    /// True when the stream's profile is unknown though its codec has named profiles.
    private static func lacksProfile(_ stream: MediaStream) -> Bool {
        guard stream.parameters.pointee.profile < 0,
            let descriptor = avcodec_descriptor_get(stream.parameters.pointee.codec_id)
        else { return false }
        return descriptor.pointee.profiles != nil
    }

    /// The pixel format, profile, coded size, pixel aspect and colour tags the decoder settles on
    /// after decoding `packet` (one thread, then drained), as `AVPixelFormat` and `FF_PROFILE_*`
    /// raw values (-1 when unknown), pixels (nil when unknown), a ratio (0/1 when unknown) and the
    /// frame's tags (unspecified when no frame came out).
    private static func firstFrameDetails(of stream: MediaStream, packet: Packet) throws -> FirstFrameDetails {
        let decoder = try Decoder(stream: stream, threads: 1)
        let frame = try Frame()
        _ = try decoder.send(packet)
        _ = try decoder.send(nil)
        while try decoder.receive(into: frame) == .frame {
            if frame.pointer.pointee.format >= 0 { break }
        }
        let format =
            frame.pointer.pointee.format >= 0 ? frame.pointer.pointee.format : decoder.context.pointee.pix_fmt.rawValue
        let (width, height) = (decoder.context.pointee.width, decoder.context.pointee.height)
        let tags = frame.pointer.pointee
        return (
            format, decoder.context.pointee.profile, width > 0 && height > 0 ? (width, height) : nil,
            tags.sample_aspect_ratio.num > 0 ? tags.sample_aspect_ratio : decoder.context.pointee.sample_aspect_ratio,
            HDRLightMetadata(
                mastering: frame.sideData(AV_FRAME_DATA_MASTERING_DISPLAY_METADATA),
                light: frame.sideData(AV_FRAME_DATA_CONTENT_LIGHT_LEVEL)),
            // The matrix the decoder guessed for drawing is not reported as the clip's own (a QA
            // pass: an untagged HD clip was "bt709", where ffprobe and MediaInfo say nothing).
            (
                tags.color_trc, tags.color_primaries,
                decoder.lastMatrixIsAGuess ? AVCOL_SPC_UNSPECIFIED : tags.colorspace, tags.color_range
            )
        )
    }

    /// Dolby Vision's profile and base-layer compatibility as one number, `8.4` for profile 8,
    /// compatibility 4; the profile alone for a compatibility id of 10 or more, which the number
    /// cannot hold (ids above 6 are reserved; `8` + `10 / 10` read as profile 9: a QA pass).
    static func dolbyVisionProfile(_ dolbyVision: (profile: Int, compatibilityID: Int)) -> Double {
        Double(dolbyVision.profile) + (dolbyVision.compatibilityID < 10 ? Double(dolbyVision.compatibilityID) / 10 : 0)
    }

    /// HLG and PQ by transfer; Dolby Vision only without an HLG/PQ-compatible base layer: one
    /// whose compatibility id is 0 (profile 5: no base layer another player shows right) is
    /// Dolby Vision whatever its transfer tag says (a QA pass: a profile 5 clip tagged PQ was `pq`).
    static func hdrKind(transfer: String?, dolbyVision: (profile: Int, compatibilityID: Int)?) -> String {
        if dolbyVision?.compatibilityID == 0 { return "dolbyVision" }
        switch transfer {
        case "arib-std-b67": return "hlg"
        case "smpte2084": return "pq"
        default: return dolbyVision == nil ? "none" : "dolbyVision"
        }
    }

    /// Why the frame times of a video track's index `entries` (in ticks of `timeBase` seconds)
    /// cannot be those of a clip lasting `clipDuration` seconds, or nil: every frame a viewer
    /// sees at one time, more than 1,000 of them a second, one further from the one before
    /// than the whole clip lasts, or frames running on well past the clip's end. A corrupt time
    /// table (`stts`) does each of the first three (a QA pass: deltas of 0, 1 and 2^31 − 1 ticks
    /// were ingested and rendered, the manifest saying 0, 15360 and 7e-6 frames a second). The samples an edit list discards are left out: a clip cut without
    /// re-encoding keeps the keyframe before its start, which may lie long before it (a review:
    /// a cut from a screen recording with a 20 s pause was taken for corrupt).
    static func frameTimeProblem(_ entries: [IndexEntry], timeBase: Double, clipDuration: Double) -> String? {
        let times = shownTimes(entries)
        guard times.count >= 2, let first = times.first, let last = times.last, timeBase > 0 else { return nil }
        let suffix = ": its time table (stts) is corrupt, so its frame times, rate and count cannot be trusted"
        let span = Double(last) * timeBase - Double(first) * timeBase
        if span <= 0 { return "all \(times.count) of the video track's frames have the same time" + suffix }
        let rate = Double(times.count - 1) / span
        if rate > 1000 {
            // Said as the rule it is: a valid encode at 1200 fps was called corrupt (a QA pass).
            return "the video track's \(times.count) frames fall within \(String(format: "%.3f", span * 1000)) ms "
                + "(\(Int(saturating: rate.rounded())) frames a second): more than 1,000 a second is read as a corrupt "
                + "time table (stts), so its frame times, rate and count cannot be trusted"
        }
        let longest = zip(times, times.dropFirst()).map { Double($1) * timeBase - Double($0) * timeBase }.max() ?? 0
        if clipDuration > 0, longest > clipDuration + 1 {
            return "a frame of the video track comes \(String(format: "%.3f", longest)) s after the one before, longer "
                + "than the whole clip (\(String(format: "%.3f", clipDuration)) s)" + suffix
        }
        // Frames that run on far past what the headers say (mvhd and mdhd durations cut to 1 s
        // over 60 s of frames: a QA pass ingested it past --max-duration 5, and the manifest
        // said 1 s): the clip's duration cannot be trusted.
        if clipDuration > 0, span > clipDuration + max(1, clipDuration / 10) {
            return "the video track's frames run \(String(format: "%.3f", span)) s, while its headers say the clip "
                + "lasts \(String(format: "%.3f", clipDuration)) s: its duration cannot be trusted, and players differ; "
                + "remux it (ffmpeg -i IN -c copy OUT.mp4)"
        }
        return nil
    }

    /// What says a segment index (`sidx`) gives the video track a duration its frames do not
    /// have, or nil. FFmpeg takes a fragmented track's duration from its `sidx`: an entry of
    /// 2^32 − 1024 ticks, which ffmpeg's DASH muxer writes for fragments of one frame ("writing
    /// incorrect sidx"), made a 3 s clip 129 days in silence, the manifest's duration with it
    /// (an inspect QA pass; MediaInfo, which reads the fragments, says 3 s). The frames end one
    /// typical step (their median) after the last one shown; `trackDuration` is in seconds.
    static func segmentIndexProblem(_ entries: [IndexEntry], timeBase: Double, trackDuration: Double?) -> String? {
        let times = shownTimes(entries)
        guard let trackDuration, let last = times.last, timeBase > 0 else { return nil }
        let framesEnd = Double(last) * timeBase + (medianStep(times, timeBase: timeBase) ?? 0)
        guard trackDuration > framesEnd + max(1, framesEnd / 10) else { return nil }
        return "its segment index (sidx) says the video track lasts \(String(format: "%.3f", trackDuration)) s, "
            + "its \(times.count) frames end at \(String(format: "%.3f", framesEnd)) s: its duration cannot be "
            + "trusted, and players differ; remux it (ffmpeg -i IN -c copy OUT.mp4)"
    }

    /// True when `averageFrameRate` (frames over the track's duration) puts the shown frames of
    /// `entries` (ticks of `timeBase` seconds) over a span longer or shorter, by more than a
    /// frame, than their typical step does: the last frame is held (a track lasting a second past
    /// its last step), which no step between frames shows (an inspect QA pass: "20.225 fps,
    /// constant (CFR)" for 59 frames of 1/30 s and one of 1 s; MediaInfo says VFR where the first
    /// frame is the long one). The typical step is the mean of the steps within a tick of the
    /// median, the steps the one-tick slack takes as even: the median alone, on a timescale that
    /// is no multiple of the rate (29.97 fps at 1000: 33 and 34 ms), was a fraction of a tick off
    /// every step, a frame off in all by 4 s, and such clips were VFR (a later QA pass); the mean
    /// of all steps counts a frame dropped by a cut as a long step.
    static func averageRateMissesSteps(_ entries: [IndexEntry], timeBase: Double, averageFrameRate: Double?) -> Bool {
        let times = shownTimes(entries)
        guard let averageFrameRate, averageFrameRate > 0, timeBase > 0,
            let median = medianStep(times, timeBase: timeBase)
        else { return false }
        let even = zip(times, times.dropFirst()).map { Double($1) * timeBase - Double($0) * timeBase }
            .filter { abs($0 - median) <= timeBase * 1.000_001 }
        let step = even.isEmpty ? median : even.reduce(0, +) / Double(even.count)
        let count = Double(times.count)
        return step > 0 && abs(count / averageFrameRate - count * step) > step
    }

    /// The timestamps of the samples of `entries` a viewer sees (not discarded by an edit list),
    /// in order.
    private static func shownTimes(_ entries: [IndexEntry]) -> [Int64] {
        entries.filter { !$0.isDiscarded }.map(\.timestamp).sorted()
    }

    /// The median of the steps between consecutive `times` (sorted, in ticks of `timeBase`
    /// seconds), in seconds: a typical frame's duration; nil for fewer than two times.
    private static func medianStep(_ times: [Int64], timeBase: Double) -> Double? {
        let steps = zip(times, times.dropFirst()).map { Double($1) * timeBase - Double($0) * timeBase }.sorted()
        return steps.isEmpty ? nil : steps[steps.count / 2]
    }

    /// True when the frames a viewer sees do not last equally long: consecutive decode timestamps
    /// of shown samples differ by more than one tick of slack (none when the shortest step is one
    /// tick). `entries` is the whole index, in
    /// any order, with the samples an edit list discards: a step that reaches a discarded
    /// sample is the edit list's trim, not a frame's duration (with B-frames, hidden and shown
    /// samples interleave in decode order). The first and last steps are measured apart when there
    /// are others, since muxers round the samples at a cut: either counts as uneven only when it
    /// is under half the shortest of the others or over the longest by half the shortest (a frame
    /// held a second, or ffmpeg's fragmented muxer's first frame of 840 ticks among 512: an
    /// inspect QA pass found both "constant" at an average rate no frame has, 20.225 and 29.683
    /// fps, where MediaInfo says VFR). A step too large for 64 bits (hostile timestamps) counts
    /// as uneven.
    static func hasVariableFrameDurations(_ entries: [IndexEntry]) -> Bool {
        let ordered = entries.enumerated().sorted {
            ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset)
        }.map(\.element)
        var steps: [Int64] = []
        for (earlier, later) in zip(ordered, ordered.dropFirst()) where !earlier.isDiscarded && !later.isDiscarded {
            let (step, overflow) = later.timestamp.subtractingReportingOverflow(earlier.timestamp)
            if overflow { return true }
            steps.append(step)
        }
        let ends = steps.count > 3 ? [steps[0], steps[steps.count - 1]] : []
        let measured = steps.count > 3 ? Array(steps.dropFirst().dropLast()) : steps
        guard measured.count > 1, let smallest = measured.min(), let largest = measured.max() else { return false }
        // Sorted, so every step is at least 0 and the spread cannot overflow. One tick of slack
        // for a timescale that is no multiple of the rate (1000 rounds 29.97 fps to 33 and 34 ms;
        // 600 rounds 240 fps to 2 and 3 ticks), except where a step is one tick: one of 2 is then
        // a frame doubled, as at a timescale of 25, where 40 and 80 ms steps are dropped frames
        // that a QA pass found called constant (MediaInfo: VFR).
        let slack: Int64 = smallest >= 2 ? 1 : 0
        let (longestEnd, endOverflow) = largest.addingReportingOverflow(max(slack, smallest / 2))
        return largest - smallest > slack || ends.contains { $0 < smallest / 2 || (!endOverflow && $0 > longestEnd) }
    }
}
