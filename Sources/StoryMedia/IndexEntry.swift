/// One sample in a container's index, as the demuxer read it from the header.
public struct IndexEntry: Sendable, Equatable {
    /// Decode timestamp in the stream's time base.
    public var timestamp: Int64
    /// Byte offset of the sample in the file.
    public var position: Int64
    /// Size of the sample in bytes.
    public var size: Int
    /// True for a sample a decoder can start from.
    public var isKeyframe: Bool
    /// True for a sample an edit list hides from the viewer.
    public var isDiscarded: Bool

    /// The byte offset just past the sample, `position + size`, held at `Int64.max` rather than
    /// overflowing (``MediaStream/indexEntries`` refuses an index where it would).
    public var end: Int64 { position.saturatingAdd(Int64(size)) }
}
