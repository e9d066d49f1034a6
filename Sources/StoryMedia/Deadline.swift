import CFFmpeg

/// A per-file time limit, enforced inside FFmpeg through the interrupt callback so that one
/// pathological file cannot hang a batch.
final class Deadline {
    /// The deadline in `av_gettime_relative()` microseconds (0 = none), read by the C callback.
    let storage: UnsafeMutablePointer<Int64>
    /// The time allowed, in seconds, or nil for none.
    let seconds: Double?

    /// The longest deadline kept, in seconds (about 31 years): anything longer, `1e300` or
    /// infinity included, means this long, so no conversion or sum can overflow.
    static let longestSeconds = 1e9

    /// A deadline `seconds` from now, or none when `seconds` is nil, not positive or NaN.
    init(seconds: Double?) {
        storage = .allocate(capacity: 1)
        self.seconds = seconds.flatMap { $0 > 0 ? $0 : nil }
        if let seconds, seconds > 0 {
            let microseconds = Int64((min(seconds, Deadline.longestSeconds) * 1_000_000).rounded(.up))
            storage.pointee = av_gettime_relative().addingReportingOverflow(microseconds).partialValue
        } else {
            storage.pointee = 0
        }
    }

    deinit { storage.deallocate() }

    /// True once the deadline has passed.
    var hasPassed: Bool { storage.pointee > 0 && av_gettime_relative() > storage.pointee }
}
