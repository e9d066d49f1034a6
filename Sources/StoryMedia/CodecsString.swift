/// The RFC 6381 `codecs` string of a video stream (`avc1.64001f`, `hvc1.2.4.L120.90`) or an audio
/// stream (`mp4a.40.2`, `ac-3`), what a player passes to `canPlayType` or `isTypeSupported` to ask
/// whether it can play the clip. Read from the stream's decoder configuration record (`avcC`,
/// `hvcC`, `av1C`, `vpcC`, AAC's AudioSpecificConfig) as the container stores it, the way ffmpeg's
/// and Apple's tools write the string.
public enum CodecsString {
    /// What the stream's parameters say of its pictures, for a string whose record FFmpeg does
    /// not keep (VP9's `vpcC`).
    public struct Picture: Sendable {
        /// Coded pixels across and down.
        public var width: Int
        public var height: Int
        /// Bits per sample.
        public var bitDepth: Int
        /// log2 of the horizontal chroma subsampling: 1 for 4:2:0 and 4:2:2, 0 for 4:4:4.
        public var chromaShift: Int

        /// A picture of the given parts.
        public init(width: Int, height: Int, bitDepth: Int, chromaShift: Int) {
            (self.width, self.height) = (width, height)
            (self.bitDepth, self.chromaShift) = (bitDepth, chromaShift)
        }
    }

    /// The codecs string of a stream of codec `codec` (FFmpeg's name) with container tag `tag`
    /// and configuration record `extradata`; FFmpeg's `profile` and `level` (negative when
    /// unknown), and for VP9 the `picture`, stand in when the record is missing. Falls back to
    /// the codec's name.
    public static func make(
        codec: String, tag: String, extradata: [UInt8], profile: Int, level: Int, picture: Picture? = nil
    ) -> String {
        switch codec {
        case "h264":
            return avc(tag: tag, extradata: extradata, profile: profile, level: level)
        case "hevc":
            return hevc(tag: tag, extradata: extradata, profile: profile, level: level)
        case "av1":
            return av1(extradata: extradata) ?? "av01"
        case "vp9":
            return vp9(extradata: extradata) ?? picture.map { vp9(profile: profile, picture: $0) } ?? "vp09"
        case "mpeg4":
            // The visual object sequence header's profile_and_level_indication, in decimal: the
            // demuxer leaves profile and level unknown until a frame is decoded, which storyreel
            // skips, so the string was `mp4v.20` alone (a QA pass).
            if let sequence = annexBUnit(in: extradata, where: { $0 == 0xB0 }), sequence.count >= 2 {
                return "mp4v.20.\(sequence[sequence.startIndex + 1])"
            }
            return profile >= 0 && level >= 0 ? "mp4v.20.\(profileAndLevel(profile: profile, level: level))" : "mp4v.20"
        case "unknown":
            // RFC 6381's first element is the sample entry's four characters (`zzzz`).
            return tag.isEmpty ? codec : tag
        default:
            return codec
        }
    }

    /// The codecs string of an audio stream of codec `codec` (FFmpeg's name) at `sampleRate`, with
    /// configuration record `extradata` and FFmpeg's `profile` (negative when unknown), or nil for
    /// a codec whose string browsers do not answer alike (PCM, which Chromium plays but calls
    /// unplayable; MP2, whose string is MP3's). AAC is `mp4a.40.` and its audio object type, read
    /// from the AudioSpecificConfig (`mp4a.40.2` for AAC-LC, as MP4Box and Apple's tools write
    /// it), MP3 `mp4a.6B` (`mp4a.69` at MPEG-2's rates under 32 kHz), and the others the sample
    /// entry's name (`ac-3`, `ec-3`, `opus`, `flac`, `alac`).
    public static func audio(codec: String, sampleRate: Int, extradata: [UInt8], profile: Int) -> String? {
        switch codec {
        case "aac":
            if let objectType = audioObjectType(extradata) { return "mp4a.40.\(objectType)" }
            // FFmpeg's AAC profiles are the audio object type less one (FF_PROFILE_AAC_LOW is 1).
            return (0..<95).contains(profile) ? "mp4a.40.\(profile + 1)" : "mp4a.40"
        case "mp3": return sampleRate >= 32000 ? "mp4a.6B" : "mp4a.69"
        case "ac3": return "ac-3"
        case "eac3": return "ec-3"
        case "opus", "flac", "alac": return codec
        default: return nil
        }
    }

    /// The audio object type an AudioSpecificConfig begins with (ISO/IEC 14496-3 §1.6.2.1): five
    /// bits, or 31 and six more for types from 32 up; nil for an empty record or type 0.
    static func audioObjectType(_ config: [UInt8]) -> Int? {
        guard let first = config.first else { return nil }
        let type = Int(first >> 3)
        guard type == 31 else { return type == 0 ? nil : type }
        guard config.count >= 2 else { return nil }
        return 32 + Int(first & 0x07) << 3 + Int(config[1] >> 5)
    }

    /// Dolby Vision's own sample entries, HEVC-based (`dvh1`, `dvhe`) and AVC-based (`dva1`,
    /// `dvav`): the first field of their codecs strings.
    public static let dolbyVisionSampleEntries: Set<String> = ["dvh1", "dvhe", "dva1", "dvav"]

    /// `dvh1.PP.LL` for a Dolby Vision sample entry `tag` (`dvh1`, `dvhe`, `dva1`, `dvav`), its
    /// profile and level in two decimal digits each (Dolby's "Dolby Vision streams within the ISO
    /// base media file format"); the entry alone (`dvh1`) when its configuration record is
    /// missing or out of range (a QA pass: such a track was named `hvc1.…`); nil for any other tag.
    static func dolbyVision(tag: String, profile: Int?, level: Int?) -> String? {
        guard dolbyVisionSampleEntries.contains(tag) else { return nil }
        guard let profile, let level, (0...99).contains(profile), (0...99).contains(level) else { return tag }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(tag).\(two(profile)).\(two(level))"
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

    /// `vp09.PP.LL.DD` from the stream's parameters when its `vpcC` record is not at hand (FFmpeg
    /// 5.1's mov demuxer does not keep it, and a browser's `canPlayType` wants all three fields; a
    /// QA pass found `vp09` alone): the profile (from the bit depth and chroma when FFmpeg gives
    /// none), the level FFmpeg 5.1's MP4 muxer writes into `vpcC` (libavformat/vpcc.c, given no
    /// frame rate: the first level whose picture size holds the picture; an inspect QA pass found
    /// the level of the size and rate, 41 for 1080p at 60 fps, where the box said 40), and the
    /// bit depth.
    static func vp9(profile: Int, picture: Picture) -> String {
        let derived = (picture.bitDepth > 8 ? 2 : 0) + (picture.chromaShift == 0 ? 1 : 0)
        let chosen = (0...3).contains(profile) ? profile : derived
        let size = picture.width.multipliedReportingOverflow(by: picture.height)
        let pixels = size.overflow || picture.width <= 0 || picture.height <= 0 ? 0 : size.partialValue
        let levels: [(level: Int, size: Int)] = [
            (10, 36_864), (11, 73_728), (20, 122_880), (21, 245_760), (30, 552_960), (31, 983_040), (40, 2_228_224),
            (50, 8_912_896), (60, 35_651_584),
        ]
        let level = pixels > 0 ? (levels.first { pixels <= $0.size }?.level ?? 0) : 0
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "vp09.\(two(chosen)).\(two(level)).\(two(picture.bitDepth))"
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
        annexBUnits(in: bytes).first { $0.first.map(matches) ?? false }
    }

    /// The Annex B NAL units of `bytes`: what follows each 00 00 01 start code up to the next.
    static func annexBUnits(in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
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
        return starts.enumerated().map { position, start in
            let end = position + 1 < starts.count ? starts[position + 1] - 3 : bytes.count
            return bytes[start..<max(start, end)]
        }
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
