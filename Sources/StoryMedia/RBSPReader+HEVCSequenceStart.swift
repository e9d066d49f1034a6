extension RBSPReader {
    /// Reads HEVC's `seq_parameter_set_rbsp` (ITU-T H.265 §7.3.2.2.1) from the start of its
    /// payload through its sub-layer ordering: the sub-layers (`sps_max_sub_layers_minus1`), the
    /// bits of a picture order count's LSB, and the pictures its decoder keeps (the highest
    /// `sps_max_dec_pic_buffering_minus1 + 1`); nil past the end.
    mutating func readHEVCSequenceStart() -> (subLayers: Int, orderCountBits: Int, decodedPictures: Int)? {
        guard skip(4), let subLayers = bits(3).map(Int.init), skip(1) else { return nil }
        // profile_tier_level: the general profile and level (96 bits), each sub-layer's
        // presence flags, padded to 8 sub-layers, then the sub-layers' own.
        guard skip(96) else { return nil }
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0..<subLayers {
            guard let profile = flag(), let level = flag() else { return nil }
            present.append((profile, level))
        }
        if subLayers > 0 { guard skip(2 * (8 - subLayers)) else { return nil } }
        for layer in present {
            guard skip((layer.profile ? 88 : 0) + (layer.level ? 8 : 0)) else { return nil }
        }
        guard unsigned() != nil, let chroma = unsigned() else { return nil }  // the SPS id, then the format
        if chroma == 3 { guard skip(1) else { return nil } }
        guard skipUnsigned(2), let window = flag() else { return nil }  // width, height
        if window { guard skipUnsigned(4) else { return nil } }
        guard skipUnsigned(2), let orderBits = unsigned(), orderBits <= 12, let allLayers = flag() else {
            return nil  // bit depths, then the POC LSB's bits less 4
        }
        var decodedPictures = 0
        for _ in (allLayers ? 0 : subLayers)...subLayers {
            guard let buffering = unsigned(), skipUnsigned(2) else { return nil }
            decodedPictures = max(decodedPictures, Int(buffering) + 1)
        }
        return (subLayers, Int(orderBits) + 4, decodedPictures)
    }
}
