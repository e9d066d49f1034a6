import CFFmpeg

/// A compressed packet: owns an `AVPacket`, freed with `av_packet_free`.
public final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    /// Allocates an empty packet.
    public init() throws {
        try MediaLibraries.require()
        guard let allocated = av_packet_alloc() else { throw MediaError(.ioFailure, "out of memory (packet)") }
        pointer = allocated
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    /// A new packet sharing this one's data (reference-counted, `av_packet_ref`), which stays
    /// valid after this packet is reused.
    public func reference() throws -> Packet {
        let copy = try Packet()
        try ffmpegCheck(av_packet_ref(copy.pointer, pointer), "cannot keep a packet")
        return copy
    }

    /// Releases the packet's data so it can be reused.
    public func unref() { av_packet_unref(pointer) }

    /// The index of the stream the packet belongs to.
    public var streamIndex: Int { Int(pointer.pointee.stream_index) }

    /// Presentation timestamp in the stream's time base, or nil when unknown.
    public var presentationTimestamp: Int64? {
        pointer.pointee.pts == cff_nopts_value() ? nil : pointer.pointee.pts
    }

    /// Decode timestamp in the stream's time base, or nil when unknown.
    public var decodeTimestamp: Int64? {
        pointer.pointee.dts == cff_nopts_value() ? nil : pointer.pointee.dts
    }

    /// How long the packet's frame shows, in the stream's time base; 0 when unknown.
    public var duration: Int64 { max(0, pointer.pointee.duration) }

    /// True for a packet the demuxer marks to be dropped after decoding (an edit list trims it).
    public var isDiscarded: Bool { pointer.pointee.flags & AV_PKT_FLAG_DISCARD != 0 }

    /// True for a keyframe packet.
    public var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
}
