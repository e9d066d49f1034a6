import Foundation

/// Seconds on the system's monotonic clock, which no change of the wall clock moves (an NTP
/// step, a VM's resume, a person setting the date): what every deadline and duration is
/// measured with. A lock wait of `--lock-timeout 3` measured on the wall clock waited 25 s when
/// the clock was set back a day, and one of 600 s gave up after 1 s when it was set ahead; a
/// render's `seconds` came out negative (a QA pass).
public enum MonotonicClock {
    /// Seconds since an arbitrary fixed point (the system's boot).
    public static var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
