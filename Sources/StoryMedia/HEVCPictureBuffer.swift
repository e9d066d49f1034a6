/// How many pictures an HEVC stream has its decoder keep, from the sequence parameter sets of
/// its extradata: `sps_max_dec_pic_buffering_minus1 + 1`, the highest over its temporal
/// sub-layers and over its sets. FFmpeg's HEVC decoder does not report it (H.264's sets
/// `AVCodecContext.refs`), and an audit's 16-picture stream of 4:4:4 12-bit took 0.99 GB at
/// 4096x2048, about 7 GB at 8192x8192. The extradata is read as FFmpeg's decoder reads it
/// (`ff_hevc_decode_extradata`): an `hvcC` record unless it starts like an Annex B start code,
/// each unit's type from its own header (not its array's label), every set counted. A set that
/// arrives in the packets is not seen here: the decoder's ``PictureLedger`` bounds those.
enum HEVCPictureBuffer {
    /// The most HEVC allows (and FFmpeg decodes).
    static let largest = 16

    /// The pictures the sequence parameter sets of `extradata` declare (1 to ``largest``; the
    /// most any of them does), or nil when it holds none that can be read.
    static func pictures(inExtradata extradata: [UInt8]) -> Int? {
        let units = isConfigurationRecord(extradata) ? recordUnits(extradata) : CodecsString.annexBUnits(in: extradata)
        let counts = units.filter { $0.count > 2 && ($0[$0.startIndex] >> 1) & 0x3F == 33 }.compactMap { set in
            var reader = BitReader(bytes: CodecsString.removingEmulationPrevention(set.dropFirst(2)))
            return reader.decodedPictureBuffering()
        }
        return counts.max().map { min(max($0, 1), largest) }
    }

    /// FFmpeg's test: more than 3 bytes that do not start 00 00 00 or 00 00 01.
    private static func isConfigurationRecord(_ bytes: [UInt8]) -> Bool {
        bytes.count > 3 && (bytes[0] != 0 || bytes[1] != 0 || bytes[2] > 1)
    }

    /// The NAL units of an `hvcC` record: after 22 bytes of header a byte counts its arrays,
    /// each a byte (its label), a 16-bit count of units and the units, each after its 16-bit
    /// length. As FFmpeg reads it: arrays the record counts but does not hold are none (it reads
    /// missing bytes as zeros), and a unit cut short gives no units at all (its decoder does not
    /// open).
    private static func recordUnits(_ record: [UInt8]) -> [ArraySlice<UInt8>] {
        guard record.count >= 23 else { return [] }
        var units: [ArraySlice<UInt8>] = []
        var offset = 23
        for _ in 0..<Int(record[22]) {
            guard offset + 3 <= record.count else { break }
            let count = Int(record[offset + 1]) << 8 | Int(record[offset + 2])
            offset += 3
            for _ in 0..<count {
                guard offset + 2 <= record.count else { return [] }
                let length = Int(record[offset]) << 8 | Int(record[offset + 1])
                offset += 2
                guard offset + length <= record.count else { return [] }
                units.append(record[offset..<offset + length])
                offset += length
            }
        }
        return units
    }

    /// Reads bits, most significant first; reads past the end fail (nil).
    private struct BitReader {
        let bytes: [UInt8]
        var position = 0

        mutating func bits(_ count: Int) -> Int? {
            guard count >= 0, position + count <= bytes.count * 8 else { return nil }
            var value = 0
            for _ in 0..<count {
                value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
                position += 1
            }
            return value
        }

        /// An unsigned Exp-Golomb number, `ue(v)`, of at most 31 leading zeros.
        mutating func golomb() -> Int? {
            var zeros = 0
            while true {
                guard let bit = bits(1) else { return nil }
                if bit == 1 { break }
                zeros += 1
                guard zeros <= 31 else { return nil }
            }
            guard let rest = bits(zeros) else { return nil }
            return (1 << zeros) - 1 + rest
        }

        /// Skips `count` unsigned Exp-Golomb numbers.
        mutating func skipGolomb(_ count: Int) -> Bool {
            for _ in 0..<count where golomb() == nil { return false }
            return true
        }

        /// From the start of an SPS's payload (after its NAL header) to its sub-layer ordering:
        /// the highest `sps_max_dec_pic_buffering_minus1 + 1`.
        mutating func decodedPictureBuffering() -> Int? {
            guard bits(4) != nil, let subLayers = bits(3), bits(1) != nil else { return nil }
            // profile_tier_level: the general profile and level (96 bits), each sub-layer's
            // presence flags, padded to 8 sub-layers, then the sub-layers' own.
            guard bits(96) != nil else { return nil }
            var present: [(profile: Bool, level: Bool)] = []
            for _ in 0..<subLayers {
                guard let profile = bits(1), let level = bits(1) else { return nil }
                present.append((profile == 1, level == 1))
            }
            if subLayers > 0, bits(2 * (8 - subLayers)) == nil { return nil }
            for layer in present {
                if layer.profile, bits(88) == nil { return nil }
                if layer.level, bits(8) == nil { return nil }
            }
            guard golomb() != nil, let chroma = golomb() else { return nil }  // the SPS id, then the format
            if chroma == 3, bits(1) == nil { return nil }
            guard skipGolomb(2), let window = bits(1) else { return nil }  // width, height
            if window == 1, !skipGolomb(4) { return nil }
            guard skipGolomb(3), let ordering = bits(1) else { return nil }  // depths, POC bits
            var largest = 0
            for _ in (ordering == 1 ? 0 : subLayers)...subLayers {
                guard let buffering = golomb(), skipGolomb(2) else { return nil }
                largest = max(largest, buffering + 1)
            }
            return largest
        }
    }
}
