/// Where an ``EncoderThread`` hands the packets it receives: the clip's ``OutputFile``, or a
/// ``PacketBuffer`` while a capped clip's size is not known yet.
protocol PacketSink: AnyObject {
    /// Takes one encoded packet, in the encoder's time base. The packet is reused afterwards.
    func write(_ packet: Packet) throws
    /// Called once the encoder is drained.
    func finish() throws
}

extension OutputFile: PacketSink {}
