import CFFmpeg

/// Reads a clip's ``ClipInfo`` from its header and index, decoding at most the first few packets.
public enum ClipProbe {
    /// Probes the clip at `path`, giving up after `timeout` seconds.
    public static func inspect(path: String, timeout: Double? = nil) throws -> ClipInfo {
        let file = try InputFile(path: path, timeout: timeout)
        try completeVideoDetails(of: file)
        return try info(of: file)
    }

    /// The ``ClipInfo`` of an opened file. Throws `.invalidMedia` when the sample index is
    /// corrupt (see ``MediaStream/indexEntries``).
    public static func info(of file: InputFile) throws -> ClipInfo {
        let tags = file.tags
        let majorBrand = tags["major_brand"]
        var warnings = file.warnings
        let video = try file.bestStream(.video).map { try describeVideo($0) }
        let audio = file.bestStream(.audio).map {
            ClipInfo.Audio(codec: $0.codecName, sampleRate: $0.sampleRate, channels: $0.channelCount)
        }
        let indexEnd = try file.streams.flatMap { try $0.indexEntries }.map { UInt64(clamping: $0.end) }.max() ?? 0
        if indexEnd > file.fileSize {
            let missing = indexEnd - file.fileSize
            // This says more than the opener's "ends before its last atom", so it replaces it.
            warnings = ["the moov index points \(missing) bytes past the end of the file: the upload looks truncated"]
        }
        if let video, video.width > 0, video.height > 0,
            !PixelBudget.allows(width: video.width, height: video.height)
                || !PixelBudget.allows(width: video.displayWidth, height: video.displayHeight)
        {
            // Reading the header is harmless; decoding a frame is what storyreel refuses.
            warnings.append(
                "the picture is \(video.displayWidth)x\(video.displayHeight), \(PixelBudget.overLimit): "
                    + "storyreel will not decode it")
        }
        return ClipInfo(
            path: file.path,
            container: majorBrand == "qt  " ? "mov" : "mp4",
            majorBrand: majorBrand,
            duration: file.duration,
            size: file.fileSize,
            bitRate: file.bitRate,
            creationTime: tags["creation_time"],
            video: video,
            audio: audio,
            tags: tags,
            warnings: warnings)
    }

    private static func describeVideo(_ stream: MediaStream) throws -> ClipInfo.Video {
        let (width, height) = stream.codedSize
        let orientation = stream.orientation
        let aspect = stream.sampleAspectRatio ?? 1
        let shownWidth = Int(saturating: (Double(width) * aspect).rounded())
        let entries = try stream.indexEntries
        let shown = entries.filter { !$0.isDiscarded }
        let transfer = stream.colorTransferName
        let dolbyVision = stream.dolbyVision
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
            variableFrameRate: hasVariableFrameDurations(shown),
            frameCount: shown.count,
            pixelFormat: stream.pixelFormatName,
            bitDepth: stream.bitDepth,
            colorTransfer: transfer,
            hdr: hdrKind(transfer: transfer, dolbyVision: dolbyVision),
            dolbyVisionProfile: dolbyVision.map { Double($0.profile) + Double($0.compatibilityID) / 10 },
            duration: stream.duration,
            bitRate: stream.bitRate)
    }

    /// Fills in the video stream's pixel format and profile, which the QuickTime header does not
    /// carry, by parsing (not decoding) its first packets: much cheaper than
    /// `avformat_find_stream_info`, which decodes a frame of every stream.
    static func completeVideoDetails(of file: InputFile) throws {
        guard let video = file.bestStream(.video), video.parameters.pointee.format < 0,
            let parser = CodecDetailsParser(stream: video)
        else { return }
        file.discardAllStreams(except: video)
        let packet = try Packet()
        var packetsRead = 0
        while packetsRead < 8, parser.pixelFormat == nil, try file.readPacket(into: packet) {
            guard packet.streamIndex == video.index else { continue }
            parser.parse(packet)
            packetsRead += 1
        }
        if let format = parser.pixelFormat { video.parameters.pointee.format = format }
        if let profile = parser.profile, video.parameters.pointee.profile < 0 {
            video.parameters.pointee.profile = profile
        }
    }

    /// HLG and PQ by transfer; Dolby Vision only without an HLG/PQ-compatible base layer.
    static func hdrKind(transfer: String?, dolbyVision: (profile: Int, compatibilityID: Int)?) -> String {
        switch transfer {
        case "arib-std-b67": return "hlg"
        case "smpte2084": return "pq"
        default: return dolbyVision == nil ? "none" : "dolbyVision"
        }
    }

    /// True when consecutive decode timestamps are not evenly spaced (one tick of slack). A step
    /// too large for 64 bits (hostile timestamps) counts as uneven.
    static func hasVariableFrameDurations(_ entries: [IndexEntry]) -> Bool {
        let timestamps = entries.map(\.timestamp).sorted()
        guard timestamps.count > 2 else { return false }
        var smallest = Int64.max
        var largest = Int64.min
        for (later, earlier) in zip(timestamps.dropFirst(), timestamps) {
            let (step, overflow) = later.subtractingReportingOverflow(earlier)
            if overflow { return true }
            smallest = min(smallest, step)
            largest = max(largest, step)
        }
        // Sorted, so every step is at least 0 and the spread cannot overflow.
        return largest - smallest > 1
    }
}
