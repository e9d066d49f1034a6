/// What a QuickTime/MP4 video track's own header says of its picture, as the sniffer reads it:
/// the track header's (`tkhd`) width and height, whether its sample description has a pixel
/// aspect box (`pasp`), and VP9's configuration record (`vpcC`), which FFmpeg 5.1's demuxer does
/// not keep. FFmpeg's demuxer gives a track with no `pasp` the pixel aspect of the
/// track header against the sample description's size, which may be the coded, macroblock-aligned
/// one (1088 for a 1080-wide picture): storyreel measures the track header against the picture
/// its bitstream gives instead (``ClipProbe``).
struct TrackPictureHeader: Equatable {
    /// The track header's width and height, in whole pixels (0 when it gives none).
    var width: UInt64
    var height: UInt64
    /// True when the first sample description entry holds a `pasp` box.
    var hasPixelAspectBox: Bool
    /// The first 8 bytes of the first sample description entry's `vpcC` box (version and flags,
    /// profile, level, bit depth with chroma and range, …), or nil without one.
    var vp9Configuration: [UInt8]? = nil
}
