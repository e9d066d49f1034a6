import CFFmpeg

/// glibc's allocator, set for storyreel's pattern: a few big picture buffers (decoded frames,
/// faces, encoder pictures) that one thread frees and another allocates again a moment later.
///
/// By default each thread draws from an arena of its own, and a freed block above glibc's
/// (dynamic) mmap threshold goes back to the kernel. So in `cube`, libx264's buffers, allocated
/// just after the face decoders (on other threads) have freed theirs, are fresh pages that the
/// kernel must fault in and clear. With one arena and blocks up to 32 MB kept on the heap, they
/// reuse that memory. Measured side by side (`bench/interleave.py`, 12 rounds, 1080×1920):
/// `cube -o` 4–5% less CPU and 3% less wall time (page faults 46k → 35k); `render` of the samples
/// and `thumbnail` of the bench's 20 clips 2–2.5% less CPU; peak memory 17% higher for `cube`
/// (144 → 169 MB), 16% for `render`, 4% for `thumbnail`. Either setting alone gained nothing.
/// Small blocks still come from each thread's own cache (glibc's tcache), without the arena's lock.
public enum AllocatorTuning {
    /// The largest block kept on the heap rather than mapped on its own: glibc's ceiling for the
    /// setting on 64-bit systems.
    public static let mmapThreshold: Int32 = 32 << 20
    /// How much free memory at the top of the heap is kept rather than given back to the kernel.
    public static let trimThreshold: Int32 = 1 << 30

    /// Gives the free memory of the heap back to the kernel (`malloc_trim`): for a loop whose
    /// big buffers change size every round (`cube --frames-dir`'s PNGs), which the kept heap
    /// otherwise holds on to, a round's worth at a time.
    public static func releaseFreeMemory() { malloc_trim(0) }

    /// Applies the settings. Call it first in `main`, before other threads start, so every
    /// thread shares the one arena. Returns false when glibc refuses one of them.
    @discardableResult
    public static func apply() -> Bool {
        mallopt(M_ARENA_MAX, 1) == 1 && mallopt(M_MMAP_THRESHOLD, mmapThreshold) == 1
            && mallopt(M_TRIM_THRESHOLD, trimThreshold) == 1
    }
}
