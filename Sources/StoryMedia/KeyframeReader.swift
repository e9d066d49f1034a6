import CFFmpeg

/// Decodes single keyframes of one video stream, each on its own: seek to the keyframe, send its
/// packet alone, drain the decoder, flush.
///
/// This is the poster pick's reader. ``VideoFrameReader`` with `skip_frame` non-key would do, but
/// decoders hold pictures back for reordering, and skipped frames never push them out: the
/// keyframe only leaves once the next two keyframes are decoded. Draining right after the one
/// packet makes a keyframe cost exactly one decode. The decoder runs one thread: frame threads
/// would only add latency to a single picture.
final class KeyframeReader {
    /// The stream being decoded.
    let stream: MediaStream
    private let decoder: Decoder
    private let packet: Packet

    /// Opens a keyframes-only decoder (`skip_frame` non-key, one thread) for `stream`.
    init(stream: MediaStream) throws {
        self.stream = stream
        decoder = try Decoder(stream: stream, threads: 1, skipping: .nonKeyframes)
        packet = try Packet()
        stream.file.discardAllStreams(except: stream)
    }

    /// Seeks backward to `timestamp` (stream time base) and decodes the first keyframe from
    /// there into `frame`. Returns false when there is no decodable keyframe (the end of the
    /// file, a damaged packet, a keyframe an edit list hides).
    func decodeKeyframe(seekingTo timestamp: Int64, into frame: Frame) throws -> Bool {
        try stream.file.seek(stream: stream, toKeyframeBefore: timestamp)
        decoder.flush()
        defer { decoder.flush() }
        guard try readKeyframePacket() else { return false }
        do {
            _ = try decoder.send(packet)
        } catch let error as MediaError where error.isDamagedData {
            packet.unref()
            return false
        }
        packet.unref()
        _ = try decoder.send(nil)
        guard try decoder.receive(into: frame) == .frame else { return false }
        // As ``VideoFrameReader/next(into:)``: not a frame finished past the deadline.
        try stream.file.checkDeadline()
        return true
    }

    /// Reads packets of the stream up to the next keyframe (normally the first one after a
    /// seek). A read error other than a timeout counts as the end of the file.
    private func readKeyframePacket() throws -> Bool {
        do {
            while try stream.file.readPacket(into: packet) {
                if packet.streamIndex == stream.index, packet.isKeyframe { return true }
            }
        } catch let error as MediaError where error.kind != .timedOut {
            return false
        }
        return false
    }
}
