/// The NAL units of an HEVC stream's extradata, read as FFmpeg's decoder reads it
/// (`ff_hevc_decode_extradata`): an `hvcC` record unless it starts like an Annex B start code.
enum HEVCConfigurationRecord {
    /// The units of `extradata`, each from its NAL header on.
    static func units(in extradata: [UInt8]) -> [ArraySlice<UInt8>] {
        isRecord(extradata) ? recordUnits(extradata) : CodecsString.annexBUnits(in: extradata)
    }

    /// True when `unit` (from its header on) is a sequence parameter set: its type, from its
    /// own header (not its array's label), is 33.
    static func isSequenceParameterSet(_ unit: ArraySlice<UInt8>) -> Bool {
        unit.count > 2 && (unit[unit.startIndex] >> 1) & 0x3F == 33
    }

    /// FFmpeg's test: more than 3 bytes that do not start 00 00 00 or 00 00 01.
    private static func isRecord(_ bytes: [UInt8]) -> Bool {
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
}
