extension UInt64 {
    /// `self + other`, held at `UInt64.max` instead of overflowing: for counts a file controls.
    func saturatingAdd(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
