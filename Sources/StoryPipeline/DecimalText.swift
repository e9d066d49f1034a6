/// Numbers written in plain decimal text, as storyreel's options and saved settings take them.
/// Swift's own `Double(_:)` also reads hexadecimal (`0x1E`), `nan` and `inf`, and `Int(_:)` a
/// sign (`+2`), none of which a person means by a frame rate or a CRF.
public enum DecimalText {
    /// `text` as a decimal number (`1.5`, `-2`, `1e3`, `1e+3`), or nil: digits, `.`, signs and
    /// an exponent only, and no `+` in front, which whole numbers never took (a docs audit:
    /// `--at +1` and `--fps +30` were read, `--jobs +2` refused). The result may still be
    /// infinite (`1e999`); callers check their range.
    public static func number(_ text: String) -> Double? {
        guard !text.isEmpty, !text.hasPrefix("+"),
            text.unicodeScalars.allSatisfy({ "0123456789.+-eE".unicodeScalars.contains($0) })
        else {
            return nil
        }
        return Double(text)
    }

    /// `text` as bits per second written `4500000`, `4500k` or `4.5M` (a decimal number with an
    /// optional `k`/`K` or `M`), or nil, also for a fraction of a bit: rounded, `99999.5` passed
    /// a range from 100k and `200000000.4` one to 200M (a QA pass).
    public static func bitRate(_ text: String) -> Int? {
        guard let unit = text.last else { return nil }
        let multiplier: Double = unit == "k" || unit == "K" ? 1_000 : unit == "M" ? 1_000_000 : 1
        guard let number = DecimalText.number(multiplier == 1 ? text : String(text.dropLast())), number.isFinite else {
            return nil
        }
        let bits = number * multiplier
        // `4.1M` is 4099999.9999999995 in binary: a whole number within the arithmetic's error.
        guard abs(bits - bits.rounded()) <= max(1, abs(bits)) * 1e-12 else { return nil }
        return Int(exactly: bits.rounded())
    }

    /// `text` as a whole number written in ASCII digits only, or nil (also when it overflows).
    public static func wholeNumber<Text: StringProtocol>(_ text: Text) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int(text)
    }
}
