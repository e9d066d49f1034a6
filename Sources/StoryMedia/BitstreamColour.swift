/// What an H.264 or HEVC stream's sequence parameter set says of its pictures in its video
/// usability information (VUI): the colour description, the range and the pixel aspect, read
/// from the decoder configuration record (`avcC`, `hvcC`) without decoding. FFmpeg's decoders
/// take these from the same place, and ffprobe reports the decoder's (it decodes a frame of
/// every stream), so `inspect` gives the bitstream's value over the container's (`colr`, `pasp`)
/// where both are given, as ffprobe does: a stream copy re-tagged `-color_trc bt709` over a PQ
/// bitstream was called SDR while `thumbnail` tone-mapped it as PQ (a QA pass).
struct BitstreamColour: Equatable {
    /// `video_full_range_flag`, or nil when the VUI has no video signal type.
    var fullRange: Bool?
    /// `colour_primaries`, `transfer_characteristics` and `matrix_coefficients` (the ISO/IEC
    /// 23091-2 code points FFmpeg's `AVColorPrimaries`, `AVColorTransferCharacteristic` and
    /// `AVColorSpace` use), or nil when the VUI has no colour description.
    var primaries: UInt8?
    var transfer: UInt8?
    var matrix: UInt8?
    /// The sample aspect ratio (`aspect_ratio_idc`, or the one given with it), or nil when the
    /// VUI has none (or an unspecified or reserved one).
    var sampleAspect: (num: UInt32, den: UInt32)?

    static func == (left: BitstreamColour, right: BitstreamColour) -> Bool {
        left.fullRange == right.fullRange && left.primaries == right.primaries && left.transfer == right.transfer
            && left.matrix == right.matrix && left.sampleAspect?.num == right.sampleAspect?.num
            && left.sampleAspect?.den == right.sampleAspect?.den
    }

    /// The codecs read: H.264 and HEVC.
    enum Codec {
        case h264, hevc

        /// Bytes of the NAL unit header.
        var headerBytes: Int { self == .h264 ? 1 : 2 }
    }

    /// True when H.264 `unit` (from its header byte on) is a sequence parameter set (type 7).
    private static func isH264SequenceParameterSet(_ unit: ArraySlice<UInt8>) -> Bool {
        unit.first.map { $0 & 0x1F == 7 } ?? false
    }

    /// The VUI of the first sequence parameter set in `extradata` (an `avcC` or `hvcC` record,
    /// or Annex B units), or nil when there is none, or it cannot be read to its VUI.
    static func read(_ codec: Codec, extradata: [UInt8]) -> BitstreamColour? {
        guard let unit = sequenceParameterSet(codec, in: extradata) else { return nil }
        var reader = RBSPReader(unit: unit, headerBytes: codec.headerBytes)
        return codec == .h264 ? readH264(&reader) : readHEVC(&reader)
    }

    /// The first sequence parameter set's bytes (NAL header included) in `extradata`: an `avcC`
    /// record (version 1) or Annex B units for H.264, as FFmpeg's decoder tells them apart; for
    /// HEVC as ``HEVCConfigurationRecord`` reads it.
    static func sequenceParameterSet(_ codec: Codec, in extradata: [UInt8]) -> ArraySlice<UInt8>? {
        guard codec == .h264 else {
            return HEVCConfigurationRecord.units(in: extradata).first(
                where: HEVCConfigurationRecord.isSequenceParameterSet)
        }
        guard extradata.first == 1 else {
            return CodecsString.annexBUnits(in: extradata).first(where: isH264SequenceParameterSet)
        }
        // avcC: version, profile, compatibility, level, length size, then the count of SPSs.
        guard extradata.count > 6 else { return nil }
        var index = 6
        for _ in 0..<Int(extradata[5] & 0x1F) {
            guard index + 2 <= extradata.count else { return nil }
            let size = Int(extradata[index]) << 8 | Int(extradata[index + 1])
            guard index + 2 + size <= extradata.count else { return nil }
            let unit = extradata[(index + 2)..<(index + 2 + size)]
            if isH264SequenceParameterSet(unit) { return unit }
            index += 2 + size
        }
        return nil
    }

    /// H.264's `seq_parameter_set_rbsp` up to its VUI (ITU-T H.264 §7.3.2.1.1).
    private static func readH264(_ reader: inout RBSPReader) -> BitstreamColour? {
        guard let profile = reader.bits(8), reader.skip(16), reader.unsigned() != nil else { return nil }
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            guard let chroma = reader.unsigned() else { return nil }
            if chroma == 3 { guard reader.skip(1) else { return nil } }
            guard reader.unsigned() != nil, reader.unsigned() != nil, reader.skip(1),
                let scalingMatrix = reader.flag()
            else { return nil }
            if scalingMatrix {
                for list in 0..<(chroma == 3 ? 12 : 8) {
                    guard let present = reader.flag() else { return nil }
                    if present { guard skipH264ScalingList(&reader, size: list < 6 ? 16 : 64) else { return nil } }
                }
            }
        }
        guard reader.unsigned() != nil, let orderType = reader.unsigned() else { return nil }
        switch orderType {
        case 0:
            guard reader.unsigned() != nil else { return nil }
        case 1:
            guard reader.skip(1), reader.signed() != nil, reader.signed() != nil, let cycle = reader.unsigned(),
                cycle <= 255
            else { return nil }
            for _ in 0..<cycle { guard reader.signed() != nil else { return nil } }
        default:
            break
        }
        guard reader.unsigned() != nil, reader.skip(1), reader.unsigned() != nil, reader.unsigned() != nil,
            let framesOnly = reader.flag()
        else { return nil }
        if !framesOnly { guard reader.skip(1) else { return nil } }
        guard reader.skip(1), let cropped = reader.flag() else { return nil }
        if cropped {
            for _ in 0..<4 { guard reader.unsigned() != nil else { return nil } }
        }
        return readVUI(&reader)
    }

    /// Skips an H.264 `scaling_list` of `size` coefficients; false past the end.
    private static func skipH264ScalingList(_ reader: inout RBSPReader, size: Int) -> Bool {
        var last: Int64 = 8
        var next: Int64 = 8
        for _ in 0..<size {
            if next != 0 {
                guard let delta = reader.signed() else { return false }
                next = ((last + delta) % 256 + 256) % 256
            }
            if next != 0 { last = next }
        }
        return true
    }

    /// HEVC's `seq_parameter_set_rbsp` up to its VUI (ITU-T H.265 §7.3.2.2.1).
    private static func readHEVC(_ reader: inout RBSPReader) -> BitstreamColour? {
        guard let start = reader.readHEVCSequenceStart(), reader.skipUnsigned(6) else { return nil }
        guard let scaling = reader.flag() else { return nil }
        if scaling {
            guard let data = reader.flag() else { return nil }
            if data { guard skipHEVCScalingListData(&reader) else { return nil } }
        }
        guard reader.skip(2), let pcm = reader.flag() else { return nil }
        if pcm {
            guard reader.skip(8), reader.skipUnsigned(2), reader.skip(1) else { return nil }
        }
        guard let sets = reader.unsigned(), sets <= 64 else { return nil }
        var deltaCounts: [Int] = []
        for index in 0..<Int(sets) {
            guard let count = skipShortTermReferenceSet(&reader, index: index, deltaCounts: deltaCounts) else {
                return nil
            }
            deltaCounts.append(count)
        }
        guard let longTerm = reader.flag() else { return nil }
        if longTerm {
            guard let count = reader.unsigned(), count <= 32 else { return nil }
            for _ in 0..<count { guard reader.skip(start.orderCountBits + 1) else { return nil } }
        }
        guard reader.skip(2) else { return nil }
        return readVUI(&reader)
    }

    /// Skips HEVC's `scaling_list_data()` (§7.3.4); false past the end.
    private static func skipHEVCScalingListData(_ reader: inout RBSPReader) -> Bool {
        for size in 0..<4 {
            for _ in stride(from: 0, to: 6, by: size == 3 ? 3 : 1) {
                guard let predicted = reader.flag() else { return false }
                if !predicted {
                    guard reader.unsigned() != nil else { return false }
                    continue
                }
                if size > 1 { guard reader.signed() != nil else { return false } }
                for _ in 0..<min(64, 1 << (4 + (size << 1))) { guard reader.signed() != nil else { return false } }
            }
        }
        return true
    }

    /// Skips HEVC's `st_ref_pic_set(index)` of a sequence parameter set (§7.3.7), given the
    /// counts of pictures of the sets before it; returns this one's count, or nil.
    private static func skipShortTermReferenceSet(
        _ reader: inout RBSPReader, index: Int, deltaCounts: [Int]
    ) -> Int? {
        let predicted = index > 0 ? reader.flag() : false
        guard let predicted else { return nil }
        if predicted {
            // In a sequence parameter set the reference is the set just before.
            guard reader.skip(1), reader.unsigned() != nil, let reference = deltaCounts.last else { return nil }
            var count = 0
            for _ in 0...reference {
                guard let used = reader.flag() else { return nil }
                let kept = used ? true : reader.flag()
                guard let kept else { return nil }
                if kept { count += 1 }
            }
            return count
        }
        guard let negative = reader.unsigned(), let positive = reader.unsigned(), negative <= 16, positive <= 16 else {
            return nil
        }
        for _ in 0..<(negative + positive) {
            guard reader.unsigned() != nil, reader.skip(1) else { return nil }
        }
        return Int(negative + positive)
    }

    /// The start of `vui_parameters()`, common to H.264 and HEVC, after its presence flag.
    private static func readVUI(_ reader: inout RBSPReader) -> BitstreamColour? {
        guard let hasVUI = reader.flag() else { return nil }
        var colour = BitstreamColour()
        guard hasVUI else { return colour }
        guard let hasAspect = reader.flag() else { return nil }
        if hasAspect {
            guard let kind = reader.bits(8) else { return nil }
            if kind == 255 {
                guard let num = reader.bits(16), let den = reader.bits(16) else { return nil }
                if num > 0 && den > 0 { colour.sampleAspect = (num, den) }
            } else if kind >= 1, Int(kind) <= sampleAspects.count {
                colour.sampleAspect = sampleAspects[Int(kind) - 1]
            }
        }
        guard let hasOverscan = reader.flag() else { return nil }
        if hasOverscan { guard reader.skip(1) else { return nil } }
        guard let hasSignalType = reader.flag() else { return nil }
        guard hasSignalType else { return colour }
        guard reader.skip(3), let fullRange = reader.flag(), let described = reader.flag() else { return nil }
        colour.fullRange = fullRange
        if described {
            guard let primaries = reader.bits(8), let transfer = reader.bits(8), let matrix = reader.bits(8) else {
                return nil
            }
            (colour.primaries, colour.transfer, colour.matrix) = (UInt8(primaries), UInt8(transfer), UInt8(matrix))
        }
        return colour
    }

    /// The sample aspect ratios of `aspect_ratio_idc` 1 to 16 (Table E-1).
    private static let sampleAspects: [(num: UInt32, den: UInt32)] = [
        (1, 1), (12, 11), (10, 11), (16, 11), (40, 33), (24, 11), (20, 11), (32, 11), (80, 33), (18, 11), (15, 11),
        (64, 33), (160, 99), (4, 3), (3, 2), (2, 1),
    ]
}
