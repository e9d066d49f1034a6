import CFFmpeg

/// The decode loop, written once: reads one video stream's packets, feeds the decoder, and
/// hands out frames in presentation order until the stream is drained.
///
/// `send_packet`, then `receive_frame` until EAGAIN; at the end a NULL packet and a drain
/// until EOF; after a seek, a flush.
public final class VideoFrameReader {
    /// The stream being decoded.
    public let stream: MediaStream
    private let decoder: Decoder
    private let packet: Packet
    private var draining = false
    /// Packets before this time skip non-reference frames (see ``decodeOnlyReferenceFrames(before:)``
    /// and ``decodeOnlyReferenceFrames(shownBefore:)``).
    private var fullDecodeFrom: Int64?
    /// True when ``fullDecodeFrom`` is compared with a packet's presentation time, false for its
    /// decode time.
    private var fullDecodeByPresentation = false
    private var finished = false
    /// Damaged packets whose errors came back from `receive` one after another.
    private var damagedInARow = 0
    /// How many such errors in a row are skipped before one is thrown.
    static let damagedLimit = 1000
    /// Damaged packets skipped so far, as the ffmpeg CLI skips them, that other pictures may
    /// refer to: the frames decoded after one may show blocks of other frames. An intra-only
    /// codec's (PNG, MJPEG) are not counted: no picture refers to another.
    public private(set) var damagedPacketCount = 0
    private let countsDamage: Bool

    /// Opens a decoder for `stream` (usually `file.bestStream(.video)`), skipping the file's
    /// other streams at the demuxer.
    public init(
        stream: MediaStream, threads: Int = 0, skipping: Decoder.Skipping = .none, strict: Bool = false
    ) throws {
        self.stream = stream
        decoder = try Decoder(stream: stream, threads: threads, skipping: skipping, strict: strict)
        packet = try Packet()
        countsDamage = !stream.isIntraOnly
        stream.file.discardAllStreams(except: stream)
    }

    /// Decodes the next frame into `frame`. Returns false when the stream is exhausted.
    public func next(into frame: Frame) throws -> Bool {
        while !finished {
            let output: Decoder.Output
            do {
                output = try decoder.receive(into: frame)
            } catch let error as MediaError
                where error.isDamagedData && damagedInARow < VideoFrameReader.damagedLimit
            {
                // With frame threads, a damaged packet's error comes back here rather than from
                // `send`: it is skipped too, so a clip decodes alike on one thread and on several
                // (`render`'s stills decode on one, `cube` and `thumbnail` on several).
                damagedInARow += 1
                countDamagedPacket()
                continue
            }
            damagedInARow = 0
            switch output {
            case .frame:
                // One decode call is not interrupted: a frame it finished past the deadline is
                // not handed out (an audit's 8192x8192 FFV1 frame took 26 s, and `thumbnail --at 0
                // --timeout 5` then wrote it and exited 0).
                try stream.file.checkDeadline()
                return true
            case .endOfStream:
                finished = true
            case .needsInput:
                if draining {
                    finished = true
                    break
                }
                if try readStreamPacket() {
                    if let fullDecodeFrom {
                        let time = fullDecodeByPresentation ? packet.presentationTimestamp : packet.decodeTimestamp
                        let early = (time ?? .max) < fullDecodeFrom
                        decoder.skip(early ? .nonReferenceFrames : .none)
                    }
                    do {
                        _ = try decoder.send(packet)
                    } catch let error as MediaError where error.isDamagedData {
                        // A damaged packet: skip it, as the ffmpeg CLI does, and keep decoding.
                        countDamagedPacket()
                    }
                    packet.unref()
                } else {
                    draining = true
                    do {
                        _ = try decoder.send(nil)
                    } catch let error as MediaError where error.isDamagedData {
                        // A damaged packet's error, handed back with the end of the stream
                        // (frame threads): the drain was taken all the same.
                        countDamagedPacket()
                    }
                }
            }
        }
        return false
    }

    /// Counts a damaged packet just skipped in ``damagedPacketCount``, unless the codec is
    /// intra-only.
    private func countDamagedPacket() {
        if countsDamage { damagedPacketCount += 1 }
    }

    /// Until the next seek, skips the frames no other frame refers to among packets whose decode
    /// time is before `timestamp`: what decoding up to a late frame needs, and no more. Frames
    /// from `timestamp` on are all decoded.
    public func decodeOnlyReferenceFrames(before timestamp: Int64) {
        fullDecodeFrom = timestamp
        fullDecodeByPresentation = false
    }

    /// Until the next seek or the next call, skips the frames no other frame refers to among
    /// packets shown before `timestamp` (a packet without a presentation time is decoded): a frame
    /// shown before it can never be handed out as the first frame at or after it, and one that
    /// no other frame needs is not decoded for nothing. Frames shown from `timestamp` on are all
    /// decoded, so sampling "the first frame at or after a time" gets the same frames.
    public func decodeOnlyReferenceFrames(shownBefore timestamp: Int64) {
        fullDecodeFrom = timestamp
        fullDecodeByPresentation = true
    }

    /// Seeks to the keyframe at or before `timestamp` (stream time base) and flushes.
    public func seek(toKeyframeBefore timestamp: Int64) throws {
        try stream.file.seek(stream: stream, toKeyframeBefore: timestamp)
        decoder.flush()
        decoder.skip(.none)
        fullDecodeFrom = nil
        draining = false
        finished = false
    }

    /// Reads the next packet of the stream. A read error of the file's making ends the stream,
    /// so a truncated clip still gives its last decodable frame; a deadline, the system's limit
    /// and an error of the system's (an errno: `EIO` from a network file system, `ENOMEM`) are
    /// thrown, not taken for the clip's end (a review: one such error made a good clip "no
    /// decodable video frame", which is the clip's fault).
    private func readStreamPacket() throws -> Bool {
        do {
            while try stream.file.readPacket(into: packet) {
                if packet.streamIndex == stream.index { return true }
            }
        } catch let error as MediaError
            where error.kind != .timedOut && error.kind != .systemLimit
            && !(error.ffmpegCode.map { (-4095 ... -1).contains($0) } ?? false)
        {
            return false
        }
        return false
    }
}
