import CFFmpeg
import Foundation

/// Whether the process's address-space limit (`ulimit -v`, `RLIMIT_AS`) leaves room for work of
/// a known size, checked before the work starts. Short of it, an allocation fails part-way: the
/// Swift runtime stops the process on a picture buffer it cannot allocate ("Fatal error: failed
/// to allocate …", exit 134 with a stack trace), libx265 dies of a segmentation fault, and
/// libx264 prints its own `malloc … failed` line (a QA pass: `cube --size 4096x7280` under
/// `ulimit -v 650000`, `thumbnail --width 8192 --height 8192` under 700000).
///
/// The figures are estimates measured on this project's machines (the least `ulimit -v` each
/// run of `cube` and `thumbnail` finished under, at sizes from 540x960 to 8192x8192, two
/// cores), rounded up: more cores start more encoder threads, each with its stack.
public enum AddressSpace {
    /// What a command takes before its pictures: the program, FFmpeg's libraries and its
    /// threads' stacks (measured 381 MB; the least limit any command starts under is about 553 MB,
    /// where the start-up check of ``ThreadCapacity`` stops).
    public static let base = 384 << 20

    /// Bytes of address space a cube clip's encoder and pictures take a canvas pixel: libx264
    /// 48 (measured 46–47), libx265 78 (measured 75).
    public static func cubeClipBytesPerPixel(hevc: Bool) -> Int { hevc ? 78 : 48 }

    /// What a cube clip's encoder takes beside its pixels: libx264's threads and lookahead, 160 MB
    /// (a re-check: at 1080x1920 it needed about 655 MB in all where the pixels alone said 502,
    /// and libx264 printed its own `malloc … failed` line past the check); libx265 none beyond
    /// its pixels (measured).
    public static func cubeClipFixedBytes(hevc: Bool) -> Int { hevc ? 0 : 160 << 20 }

    /// Bytes a canvas pixel `cube --frames-dir` takes: the frames' pictures and PNG buffers
    /// freed between trims stay in the one arena while a frame is no larger than the 32 MB the
    /// allocator keeps on the heap (``AllocatorTuning``; measured 57 at 2160x3840 from clips, 40
    /// from stills), and are given back at once when it is (measured 11 at 4096x7280).
    public static func cubeFramesBytesPerPixel(width: Int, height: Int) -> Int {
        Double(width) * Double(height) * 4 <= Double(AllocatorTuning.mmapThreshold) ? 58 : 12
    }

    /// Bytes a canvas pixel `cube --filmstrip` takes (measured 13.5).
    public static let cubeFilmstripBytesPerPixel = 14

    /// Bytes an output pixel a poster takes, in JPEG (`jpeg`) or else PNG or WebP: the picture,
    /// its scaled copy and the image encoder's buffers (measured 12, 8.7 and 8.4).
    public static func posterBytesPerPixel(jpeg: Bool) -> Int { jpeg ? 13 : 10 }

    /// What each poster takes beside its pixels: its thread's stack and decoder (two 8192x8192
    /// posters made at once took more than twice one).
    public static let posterFixedBytes = 64 << 20

    /// Bytes of address space a video encoder takes a pixel as it opens and encodes, beyond what
    /// the process held before: libx264 52 (measured 51 at 1080x1920), libx265 80 (measured 77).
    public static func encoderBytesPerPixel(hevc: Bool) -> Int { hevc ? 80 : 52 }

    /// The address space the process holds now and is not free for its allocations, in bytes:
    /// what it has mapped (`/proc/self/statm`) less the free memory its heap keeps to give out
    /// again (``AllocatorTuning`` keeps up to 1 GB of it, which an encoder opened next reuses);
    /// nil when it cannot be read.
    public static var used: Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = text.split(separator: " ").first.flatMap({ Double($0) })
        else { return nil }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) - Double(mallinfo2().fordblks)
    }

    /// Throws a ``MediaError/Kind/systemLimit`` error, naming no file, when what the process holds
    /// now plus `bytes` is over the limit: for work about to start (an encoder about to open).
    ///
    /// A check of the whole work's need at its start (``checkRoom(width:height:bytesPerPixel:fixedBytes:jobs:for:making:)``)
    /// cannot see what else the process holds by then: a render's other units. There libx265
    /// could not start a thread and waited for it for ever (a render of the samples with
    /// `--codec hevc` under `ulimit -v 768000` hung in `x265::Encoder::create`), and libx264
    /// printed its own `malloc … failed` lines.
    public static func checkHeadroom(_ bytes: Double, making what: String) throws {
        guard let limit, let used else { return }
        let free = Double(limit) - used
        guard bytes > free else { return }
        throw MediaError(
            .systemLimit,
            "cannot \(what): it needs about \(megabytes(bytes)) more address space, and \(megabytes(max(0, free))) "
                + "of the limit (ulimit -v, \(megabytes(Double(limit)))) is left; raise it or make it smaller")
    }

    /// Bytes a canvas pixel each transition `render` makes at once takes: its faces' decoders,
    /// its encoder (libx264 or libx265, with the threads its share of the cores starts), its
    /// pictures and the still of its last frame (measured 98.5 with libx264, one job, and 91.5
    /// a job with two).
    public static func renderTransitionBytesPerPixel(hevc: Bool) -> Int { hevc ? 140 : 100 }

    /// What each transition `render` makes at once takes beside its pixels: its threads' stacks
    /// and decoders (measured 41 MB with one job, 103 MB a job with two).
    public static let renderTransitionFixedBytes = 112 << 20

    /// What each transition `render` makes at once needs at a `width` × `height` canvas
    /// (``renderTransitionBytesPerPixel(hevc:)``, ``renderTransitionFixedBytes``).
    public static func renderTransitionBytes(width: Int, height: Int, hevc: Bool) -> Double {
        Double(width) * Double(height) * Double(renderTransitionBytesPerPixel(hevc: hevc))
            + Double(renderTransitionFixedBytes)
    }

    /// How many of `jobs` pieces of work, each needing `each` bytes, fit under the limit beside
    /// ``base`` at once: `jobs` when there is no limit, 0 when not even one does.
    public static func jobsThatFit(_ jobs: Int, each: Double) -> Int {
        guard let limit else { return jobs }
        let room = (Double(limit) - Double(base)) / max(1, each)
        return room >= Double(jobs) ? jobs : max(0, Int(room.rounded(.down)))
    }

    /// The error for work that needs `each` bytes beside ``base`` and does not fit under the
    /// limit: `path: cannot make the 1080x1920 transitions: it needs about …`.
    public static func tooLittle(for path: String, making what: String, each: Double) -> MediaError {
        MediaError(
            .systemLimit, path: path,
            "cannot make \(what): it needs about \(megabytes(Double(base) + each)) of address space, and the limit "
                + "(ulimit -v) is \(megabytes(Double(limit ?? 0))); raise it or make it smaller")
    }

    /// The soft address-space limit in bytes, or nil when there is none.
    public static var limit: UInt64? {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limits) == 0, limits.rlim_cur != rlim_t.max else {  // RLIM_INFINITY
            return nil
        }
        return UInt64(limits.rlim_cur)
    }

    /// Throws a ``MediaError/Kind/systemLimit`` error naming `path` when the limit is below
    /// ``base`` plus, for each of `jobs` pieces of work made at once, `fixedBytes` and
    /// `bytesPerPixel` for each of `width` × `height` pixels: `path: cannot make the 4096x7280
    /// cube: it needs about 1903 MB of address space, and the limit (ulimit -v) is 665 MB; raise
    /// it or make it smaller`. `what` names the work ("the 4096x7280 cube").
    public static func checkRoom(
        width: Int, height: Int, bytesPerPixel: Int, fixedBytes: Int = 0, jobs: Int = 1, for path: String,
        making what: String
    ) throws {
        // In floating point: no size a file gives can overflow it.
        let each = Double(width) * Double(height) * Double(bytesPerPixel) + Double(fixedBytes)
        let jobs = max(1, jobs)
        guard jobsThatFit(jobs, each: each) < jobs else { return }
        throw tooLittle(for: path, making: what, each: Double(jobs) * each)
    }

    /// `1903 MB`, whole megabytes (a re-check: in tenths of a gigabyte a need and a limit near
    /// it both read `0.8 GB`).
    private static func megabytes(_ bytes: Double) -> String {
        // A checked conversion: a size no picture has is said as the largest number.
        let whole = (bytes / 1e6).rounded(.up)
        return "\(whole < 1e15 ? Int(whole) : Int.max) MB"
    }
}
