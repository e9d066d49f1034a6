extension Int {
    /// `value` truncated toward zero and clamped to `Int`'s range, NaN giving 0: the conversion
    /// for a Double computed from file-controlled numbers (`Int(_:)` traps on those out of range).
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 0x1p63 {
            self = .max
        } else if value <= -0x1p63 {
            self = .min
        } else {
            self = Int(value)
        }
    }
}
