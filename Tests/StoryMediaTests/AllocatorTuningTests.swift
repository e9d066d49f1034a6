import Foundation
import StoryMedia
import Testing

/// With storyreel's allocator settings a freed picture-sized block is reused by the next one
/// instead of going back to the kernel and being faulted in again.
@Suite struct AllocatorTuningTests {
    /// Minor page faults of the calling thread so far.
    private static func threadFaults() -> Int {
        var usage = rusage()
        // RUSAGE_THREAD (1), which Glibc's module leaves out: it needs _GNU_SOURCE.
        getrusage(__rusage_who_t(1), &usage)
        return usage.ru_minflt
    }

    /// Allocates `size` bytes, writes every page, frees them: the page faults that took.
    private static func faultsToFillAndFree(_ size: Int) -> Int {
        let before = threadFaults()
        let block = malloc(size)!
        memset(block, 1, size)
        free(block)
        return threadFaults() - before
    }

    @Test func aFreedPictureBufferIsReusedWithoutNewPageFaults() {
        #expect(AllocatorTuning.apply())
        // 24 MB: above every block the other tests free, so glibc's dynamic threshold (which a
        // freed mapped block raises to its size) cannot have been raised past it, and without
        // the settings each round would map and fault in 6144 fresh pages.
        let size = 24 << 20
        let first = Self.faultsToFillAndFree(size)
        let again = Self.faultsToFillAndFree(size)
        #expect(first > 1000, "the first fill faults its pages in (\(first))")
        #expect(again < 100, "the second fill reuses them (\(again) faults)")
    }
}
