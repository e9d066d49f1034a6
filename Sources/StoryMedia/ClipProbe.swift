import CFFmpeg

/// Reads a clip's ``ClipInfo`` from its header and index, decoding at most the first few packets.
public enum ClipProbe {
    /// Probes the clip at `path`, giving up after `timeout` seconds.
    public static func inspect(path: String, timeout: Double? = nil) throws -> ClipInfo {
        let file = try InputFile(path: path, timeout: timeout)
        try completeVideoDetails(of: file)
        return info(of: file)
    }

    /// The ``ClipInfo`` of an opened file.
    public static func info(of file: InputFile) -> ClipInfo {
        let tags = file.tags
        let majorBrand = tags["major_brand"]
        var warnings = file.warnings
        let video = file.bestStream(.video).map { describeVideo($0) }
        let audio = file.bestStream(.audio).map {
            ClipInfo.Audio(codec: $0.codecName, sampleRate: $0.sampleRate, channels: $0.channelCount)
        }
        let indexEnd =
            file.streams.flatMap(\.indexEntries).map { UInt64(max(0, $0.position)) + UInt64($0.size) }.max() ?? 0
        if indexEnd > file.fileSize {
            let missing = indexEnd - file.fileSize
            // This says more than the opener's "ends before its last atom", so it replaces it.
            warnings = ["the moov index points \(missing) bytes past the end of the file: the upload looks truncated"]
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

    private static func describeVideo(_ stream: MediaStream) -> ClipInfo.Video {
        let (width, height) = stream.codedSize
        let orientation = stream.orientation
        let aspect = stream.sampleAspectRatio ?? 1
        let shownWidth = Int((Double(width) * aspect).rounded())
        let entries = stream.indexEntries
        let shown = entries.filter { !$0.isDiscarded }
        let transfer = stream.colorTransferName
        let dolbyVision = stream.dolbyVision
        return ClipInfo.Video(
            codec: stream.codecName,
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
            duration: stream.duration)
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

    /// True when consecutive decode timestamps are not evenly spaced (one tick of slack).
    static func hasVariableFrameDurations(_ entries: [IndexEntry]) -> Bool {
        let timestamps = entries.map(\.timestamp).sorted()
        guard timestamps.count > 2 else { return false }
        let steps = zip(timestamps.dropFirst(), timestamps).map { $0 - $1 }
        guard let smallest = steps.min(), let largest = steps.max() else { return false }
        return largest - smallest > 1
    }
}
