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

        /// True when `unit` (from its header byte on) is a sequence parameter set.
        func isSequenceParameterSet(_ unit: ArraySlice<UInt8>) -> Bool {
            guard let first = unit.first else { return false }
            return self == .h264 ? first & 0x1F == 7 : (first >> 1) & 0x3F == 33
        }
    }

    /// The VUI of the first sequence parameter set in `extradata` (an `avcC` or `hvcC` record,
    /// or Annex B units), or nil when there is none, or it cannot be read to its VUI.
    static func read(_ codec: Codec, extradata: [UInt8]) -> BitstreamColour? {
        guard let unit = sequenceParameterSet(codec, in: extradata) else { return nil }
        var reader = RBSPReader(unit: unit, headerBytes: codec.headerBytes)
        return codec == .h264 ? readH264(&reader) : readHEVC(&reader)
    }

    /// The first sequence parameter set's bytes (NAL header included) in `extradata`.
    static func sequenceParameterSet(_ codec: Codec, in extradata: [UInt8]) -> ArraySlice<UInt8>? {
        guard let version = extradata.first else { return nil }
        guard version == 1 else {
            return annexBUnits(extradata).first(where: codec.isSequenceParameterSet)
        }
        func length(at index: Int) -> Int? {
            index + 2 <= extradata.count ? Int(extradata[index]) << 8 | Int(extradata[index + 1]) : nil
        }
        switch codec {
        case .h264:
            // avcC: version, profile, compatibility, level, length size, then the count of SPSs.
            guard extradata.count > 6 else { return nil }
            var index = 6
            for _ in 0..<Int(extradata[5] & 0x1F) {
                guard let size = length(at: index), index + 2 + size <= extradata.count else { return nil }
                let unit = extradata[(index + 2)..<(index + 2 + size)]
                if codec.isSequenceParameterSet(unit) { return unit }
                index += 2 + size
            }
            return nil
        case .hevc:
            // hvcC: 22 bytes of fields, then arrays of units, each of one type.
            guard extradata.count > 23 else { return nil }
            var index = 23
            for _ in 0..<Int(extradata[22]) {
                guard index < extradata.count, let count = length(at: index + 1) else { return nil }
                let type = extradata[index] & 0x3F
                index += 3
                for _ in 0..<count {
                    guard let size = length(at: index), index + 2 + size <= extradata.count else { return nil }
                    if type == 33 { return extradata[(index + 2)..<(index + 2 + size)] }
                    index += 2 + size
                }
            }
            return nil
        }
    }

    /// The units of Annex B `bytes`, split at their `00 00 01` start codes.
    private static func annexBUnits(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var starts: [Int] = []
        var index = 0
        while index + 3 <= bytes.count {
            if bytes[index] == 0 && bytes[index + 1] == 0 && bytes[index + 2] == 1 {
                starts.append(index + 3)
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().map { number, start in
            var end = number + 1 < starts.count ? starts[number + 1] - 3 : bytes.count
            while end > start && bytes[end - 1] == 0 { end -= 1 }
            return bytes[start..<end]
        }
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
        guard reader.skip(4), let subLayers = reader.bits(3).map(Int.init), reader.skip(1) else { return nil }
        // profile_tier_level(1, sps_max_sub_layers_minus1): the general profile and level (96
        // bits), then each sub-layer's flags, padding and what they say is present.
        guard reader.skip(96) else { return nil }
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0..<subLayers {
            guard let profile = reader.flag(), let level = reader.flag() else { return nil }
            present.append((profile, level))
        }
        if subLayers > 0 { guard reader.skip(2 * (8 - subLayers)) else { return nil } }
        for layer in present {
            guard reader.skip((layer.profile ? 88 : 0) + (layer.level ? 8 : 0)) else { return nil }
        }
        guard reader.unsigned() != nil, let chroma = reader.unsigned() else { return nil }
        if chroma == 3 { guard reader.skip(1) else { return nil } }
        guard reader.unsigned() != nil, reader.unsigned() != nil, let window = reader.flag() else { return nil }
        if window {
            for _ in 0..<4 { guard reader.unsigned() != nil else { return nil } }
        }
        guard reader.unsigned() != nil, reader.unsigned() != nil, let orderBits = reader.unsigned(), orderBits <= 12,
            let allLayers = reader.flag()
        else { return nil }
        for _ in (allLayers ? 0 : subLayers)...subLayers {
            for _ in 0..<3 { guard reader.unsigned() != nil else { return nil } }
        }
        for _ in 0..<6 { guard reader.unsigned() != nil else { return nil } }
        guard let scaling = reader.flag() else { return nil }
        if scaling {
            guard let data = reader.flag() else { return nil }
            if data { guard skipHEVCScalingListData(&reader) else { return nil } }
        }
        guard reader.skip(2), let pcm = reader.flag() else { return nil }
        if pcm {
            guard reader.skip(8), reader.unsigned() != nil, reader.unsigned() != nil, reader.skip(1) else { return nil }
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
            for _ in 0..<count { guard reader.skip(Int(orderBits) + 4 + 1) else { return nil } }
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
