/// The RFC 6381 `codecs` string of a video stream (`avc1.64001f`, `hvc1.2.4.L120.90`), what a
/// player passes to `canPlayType` or `isTypeSupported` to ask whether it can play the clip.
/// Read from the stream's decoder configuration record (`avcC`, `hvcC`, `av1C`, `vpcC`) as the
/// container stores it, the way ffmpeg's and Apple's tools write the string.
public enum CodecsString {
    /// The codecs string of a stream of codec `codec` (FFmpeg's name) with container tag `tag`
    /// and configuration record `extradata`; FFmpeg's `profile` and `level` (negative when
    /// unknown) stand in when the record is missing. Falls back to the codec's name.
    public static func make(codec: String, tag: String, extradata: [UInt8], profile: Int, level: Int) -> String {
        switch codec {
        case "h264":
            return avc(tag: tag, extradata: extradata, profile: profile, level: level)
        case "hevc":
            return hevc(tag: tag, extradata: extradata, profile: profile, level: level)
        case "av1":
            return av1(extradata: extradata) ?? "av01"
        case "vp9":
            return vp9(extradata: extradata) ?? "vp09"
        case "mpeg4":
            return profile >= 0 && level >= 0 ? "mp4v.20.\(profileAndLevel(profile: profile, level: level))" : "mp4v.20"
        default:
            return codec
        }
    }

    /// `avc1.PPCCLL`: profile_idc, the constraint flags byte and level_idc, in hex.
    static func avc(tag: String, extradata: [UInt8], profile: Int, level: Int) -> String {
        let prefix = tag == "avc3" ? "avc3" : "avc1"
        if extradata.count >= 4, extradata[0] == 1 {
            return prefix + "." + hex(extradata[1]) + hex(extradata[2]) + hex(extradata[3])
        }
        // Annex B extradata: the bytes after the SPS's NAL header.
        if let unit = annexBUnit(in: extradata, where: { $0 & 0x1F == 7 }), unit.count >= 4 {
            let sps = Array(unit)
            return prefix + "." + hex(sps[1]) + hex(sps[2]) + hex(sps[3])
        }
        guard profile >= 0, level >= 0, profile <= 255, level <= 255 else { return prefix }
        return prefix + "." + hex(UInt8(profile)) + "00" + hex(UInt8(level))
    }

    /// `hvc1.[A|B|C]profile.compat.{L|H}level.constraints` per ISO/IEC 14496-15 Annex E: the
    /// compatibility flags bit-reversed in hex, the constraint bytes in hex without trailing
    /// zero bytes.
    static func hevc(tag: String, extradata: [UInt8], profile: Int, level: Int) -> String {
        let prefix = tag == "hev1" ? "hev1" : "hvc1"
        var record: ArraySlice<UInt8>?
        if extradata.count >= 13, extradata[0] == 1 {
            record = extradata[1..<13]
        } else if let vps = annexBUnit(in: extradata, where: { ($0 >> 1) & 0x3F == 32 }) {
            // VPS: 2 bytes of NAL header, 4 of ids and flags, then profile_tier_level.
            let clean = removingEmulationPrevention(vps)
            if clean.count >= 18 { record = clean[6..<18] }
        }
        guard let record, record.count == 12 else {
            guard (1...31).contains(profile), level > 0 else { return prefix }
            return "\(prefix).\(profile).\(String(1 << profile, radix: 16, uppercase: true)).L\(level)"
        }
        let bytes = Array(record)
        let space = Int(bytes[0] >> 6)
        let tier = bytes[0] & 0x20 != 0 ? "H" : "L"
        let profileIDC = Int(bytes[0] & 0x1F)
        let flags = bytes[1...4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var reversed: UInt32 = 0
        for bit in 0..<32 where flags & (1 << UInt32(bit)) != 0 { reversed |= 1 << UInt32(31 - bit) }
        var constraints = Array(bytes[5...10])
        while constraints.last == 0 { constraints.removeLast() }
        let spaceLetter = ["", "A", "B", "C"][space]
        var text = "\(prefix).\(spaceLetter)\(profileIDC).\(String(reversed, radix: 16, uppercase: true))"
        text += ".\(tier)\(bytes[11])"
        for byte in constraints { text += "." + String(byte, radix: 16, uppercase: true) }
        return text
    }

    /// `av01.P.LLT.DD` from an `av1C` record: profile, level index and tier, bit depth.
    static func av1(extradata: [UInt8]) -> String? {
        guard extradata.count >= 4, extradata[0] & 0x7F == 1 else { return nil }
        let profile = extradata[1] >> 5
        let level = extradata[1] & 0x1F
        let tier = extradata[2] & 0x80 != 0 ? "H" : "M"
        let highBitDepth = extradata[2] & 0x40 != 0
        let twelveBit = extradata[2] & 0x20 != 0
        let depth = highBitDepth ? (twelveBit ? 12 : 10) : 8
        return "av01.\(profile).\(level < 10 ? "0" : "")\(level)\(tier).\(depth < 10 ? "0" : "")\(depth)"
    }

    /// `vp09.PP.LL.DD` from a `vpcC` record: profile, level, bit depth.
    static func vp9(extradata: [UInt8]) -> String? {
        guard extradata.count >= 7 else { return nil }
        let profile = Int(extradata[4])
        let level = Int(extradata[5])
        let depth = Int(extradata[6] >> 4)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "vp09.\(two(profile)).\(two(level)).\(two(depth))"
    }

    /// MPEG-4 Visual's profile_and_level_indication for FFmpeg's profile and level (Simple and
    /// Advanced Simple), in decimal.
    static func profileAndLevel(profile: Int, level: Int) -> Int {
        profile == 15 ? 0xF0 + min(level, 5) : min(level, 8)
    }

    /// Two lowercase hex digits.
    static func hex(_ byte: UInt8) -> String {
        byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }

    /// The first Annex B NAL unit (after a 00 00 01 start code) whose first byte `matches`.
    static func annexBUnit(in bytes: [UInt8], where matches: (UInt8) -> Bool) -> ArraySlice<UInt8>? {
        var starts: [Int] = []
        var index = 0
        while index + 3 <= bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                starts.append(index + 3)
                index += 3
            } else {
                index += 1
            }
        }
        for (position, start) in starts.enumerated() where start < bytes.count && matches(bytes[start]) {
            let end = position + 1 < starts.count ? starts[position + 1] - 3 : bytes.count
            return bytes[start..<max(start, end)]
        }
        return nil
    }

    /// The bytes without the 03 of each 00 00 03 (emulation prevention).
    static func removingEmulationPrevention(_ unit: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        var zeros = 0
        for byte in unit {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            output.append(byte)
        }
        return output
    }
}
