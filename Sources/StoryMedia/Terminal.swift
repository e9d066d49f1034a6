import CFFmpeg

/// What a terminal is like, for output drawn in place.
public enum Terminal {
    /// The width in columns of the terminal on `descriptor`, or nil when it is no terminal or
    /// does not say (asked each time: a window can be resized while a run goes on).
    public static func columns(of descriptor: Int32) -> Int? {
        let columns = Int(cff_terminal_columns(descriptor))
        return columns > 0 ? columns : nil
    }
}
