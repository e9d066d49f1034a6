/// How many pictures an HEVC stream has its decoder keep, from the sequence parameter sets of
/// its extradata: `sps_max_dec_pic_buffering_minus1 + 1`, the highest over its temporal
/// sub-layers and over its sets. FFmpeg's HEVC decoder does not report it (H.264's sets
/// `AVCodecContext.refs`), and an audit's 16-picture stream of 4:4:4 12-bit took 0.99 GB at
/// 4096x2048, about 7 GB at 8192x8192. The extradata is read as FFmpeg's decoder reads it
/// (``HEVCConfigurationRecord``), every set counted. A set that arrives in the packets is not
/// seen here: the decoder's ``PictureLedger`` bounds those.
enum HEVCPictureBuffer {
    /// The most HEVC allows (and FFmpeg decodes).
    static let largest = 16

    /// The pictures the sequence parameter sets of `extradata` declare (1 to ``largest``; the
    /// most any of them does), or nil when it holds none that can be read.
    static func pictures(inExtradata extradata: [UInt8]) -> Int? {
        let sets = HEVCConfigurationRecord.units(in: extradata).filter(HEVCConfigurationRecord.isSequenceParameterSet)
        let counts = sets.compactMap { set in
            var reader = RBSPReader(unit: set, headerBytes: 2)
            return reader.readHEVCSequenceStart()?.decodedPictures
        }
        return counts.max().map { min(max($0, 1), largest) }
    }
}
