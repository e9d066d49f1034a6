import CFFmpeg

/// A per-file time limit, enforced inside FFmpeg through the interrupt callback so that one
/// pathological file cannot hang a batch.
final class Deadline {
    /// The deadline in `av_gettime_relative()` microseconds (0 = none), read by the C callback.
    let storage: UnsafeMutablePointer<Int64>

    /// A deadline `seconds` from now, or none when `seconds` is nil or not positive.
    init(seconds: Double?) {
        storage = .allocate(capacity: 1)
        if let seconds, seconds > 0, seconds.isFinite {
            storage.pointee = av_gettime_relative() + Int64(seconds * 1_000_000)
        } else {
            storage.pointee = 0
        }
    }

    deinit { storage.deallocate() }

    /// True once the deadline has passed.
    var hasPassed: Bool { storage.pointee > 0 && av_gettime_relative() > storage.pointee }
}
