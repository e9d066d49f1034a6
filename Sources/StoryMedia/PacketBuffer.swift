import CFFmpeg

/// The packets of one encoding pass held in memory, in the order the encoder gave them, so a
/// capped clip is written only once its size is known (a short clip's packets: a few MB at most).
final class PacketBuffer: PacketSink {
    /// The packets, each a reference of its own to the encoder's data.
    private(set) var packets: [Packet] = []
    /// The bytes of all packets: what the clip's video stream will weigh.
    private(set) var byteCount = 0

    func write(_ packet: Packet) throws {
        let copy = try Packet()
        try ffmpegCheck(av_packet_ref(copy.pointer, packet.pointer), "cannot keep a packet", kind: .ioFailure)
        packets.append(copy)
        byteCount += Int(packet.pointer.pointee.size)
    }

    func finish() throws {}
}
