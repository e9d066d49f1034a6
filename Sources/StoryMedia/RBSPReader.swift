/// Reads the bits of an H.264 or HEVC NAL unit's payload (its raw byte sequence payload: the
/// emulation-prevention bytes taken out), most significant bit first, with the Exp-Golomb codes
/// of ITU-T H.264 §9.1. Every read past the end, or a code longer than 32 bits, gives nil: the
/// bytes are a file's, so nothing they say may trap.
struct RBSPReader {
    private let bytes: [UInt8]
    private var position = 0

    /// A reader of `unit`'s bytes after its first `headerBytes` (the NAL header: 1 for H.264, 2
    /// for HEVC), each `00 00 03` read as `00 00`.
    init(unit: ArraySlice<UInt8>, headerBytes: Int) {
        bytes = CodecsString.removingEmulationPrevention(unit.dropFirst(headerBytes))
    }

    /// The next `count` bits (at most 32) as a number, or nil past the end.
    mutating func bits(_ count: Int) -> UInt32? {
        guard count >= 0, count <= 32, position + count <= bytes.count * 8 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<count {
            let bit = (bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
            value = value << 1 | UInt32(bit)
            position += 1
        }
        return value
    }

    /// The next bit as a flag, or nil past the end.
    mutating func flag() -> Bool? { bits(1).map { $0 == 1 } }

    /// Skips `count` bits; false past the end.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count * 8 else { return false }
        position += count
        return true
    }

    /// Skips `count` unsigned Exp-Golomb codes; false past the end.
    mutating func skipUnsigned(_ count: Int) -> Bool {
        for _ in 0..<count where unsigned() == nil { return false }
        return true
    }

    /// An unsigned Exp-Golomb code, `ue(v)`, or nil past the end or over 2^32 − 2.
    mutating func unsigned() -> UInt32? {
        var leadingZeros = 0
        while true {
            guard let bit = bits(1) else { return nil }
            if bit == 1 { break }
            leadingZeros += 1
            guard leadingZeros < 32 else { return nil }
        }
        guard let suffix = bits(leadingZeros) else { return nil }
        return (UInt32(1) << UInt32(leadingZeros)) - 1 + suffix
    }

    /// A signed Exp-Golomb code, `se(v)`, or nil.
    mutating func signed() -> Int64? {
        guard let code = unsigned() else { return nil }
        let magnitude = Int64(code / 2) + Int64(code % 2)
        return code % 2 == 1 ? magnitude : -magnitude
    }
}
