import CFFmpeg
import CFFmpegOnDemand

/// libavformat and libavcodec, which storyreel loads when it first reads or writes media rather
/// than when it starts: with their dependencies they are about 110 shared libraries, whose
/// loading took 33 ms of every run's 44 ms start-up, whether it read media or not (`--help`,
/// `--version`, a render with nothing to do). Every way into them in this layer (``InputFile``,
/// ``OutputFile``, ``Packet``, the encoders) asks here first, so a library that cannot be loaded
/// is an error like any other, naming the file at hand, rather than a process that cannot start.
public enum MediaLibraries {
    /// libavutil's version (`avutil_version()`, e.g. 3742820 for 57.28.100): linked, not loaded
    /// on demand, so asking loads nothing.
    public static var utilityVersion: UInt32 { avutil_version() }

    /// The address space the two libraries and theirs take once loaded (185 MB with Debian 12's
    /// FFmpeg 5.1: VmSize before and after loading them), rounded up; 0 once they are loaded.
    /// A command's thread check reserves it beside its threads' stacks
    /// (``ThreadCapacity/probe(_:reserving:)``), so an address-space limit (`ulimit -v`) too low
    /// for both is one line at the start, as it was when they were loaded at start-up, not a
    /// failed allocation later (a QA pass: `cube` and `render` aborted at `ulimit -v 345000`).
    public static var addressSpaceToReserve: Int { cff_media_libraries_loaded() ? 0 : 192 << 20 }

    /// Loads both libraries unless they are loaded, or throws a ``MediaError/Kind/systemLimit``
    /// error: no file is to blame, so a batch stops rather than skip the file it was at (71).
    /// Out of open files, it says so as every other open does (the limit, and how to raise it).
    static func require(for path: String? = nil) throws {
        if cff_media_libraries_loaded() { return }
        var why = [CChar](repeating: 0, count: 1024)
        let code = cff_load_media_libraries(&why, why.count)
        guard code != 0 else { return }
        let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if let limit = MediaError.systemLimitReason(code) {
            let library = reason.prefix { $0 != ":" }
            throw MediaError(.systemLimit, path: path, "\(library): \(limit)")
        }
        throw MediaError(.systemLimit, path: path, reason + " (install the FFmpeg 5.1 libraries)")
    }
}
