/// Numbers written in plain decimal text, as storyreel's options and saved settings take them.
/// Swift's own `Double(_:)` also reads hexadecimal (`0x1E`), `nan` and `inf`, and `Int(_:)` a
/// sign (`+2`), none of which a person means by a frame rate or a CRF.
public enum DecimalText {
    /// `text` as a decimal number (`1.5`, `-2`, `1e3`), or nil: digits, `.`, signs and an
    /// exponent only. The result may still be infinite (`1e999`); callers check their range.
    public static func number(_ text: String) -> Double? {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ "0123456789.+-eE".unicodeScalars.contains($0) }) else {
            return nil
        }
        return Double(text)
    }

    /// `text` as a whole number written in ASCII digits only, or nil (also when it overflows).
    public static func wholeNumber<Text: StringProtocol>(_ text: Text) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int(text)
    }
}
