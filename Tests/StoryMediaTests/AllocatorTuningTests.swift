import Foundation
import StoryMedia
import Testing

/// With storyreel's allocator settings a picture-sized block comes from the heap, where a freed
/// one is reused, rather than from a mapping of its own that goes back to the kernel when freed.
@Suite struct AllocatorTuningTests {
    /// glibc marks a block it mapped on its own with bit 1 (IS_MMAPPED) of the size word stored
    /// just before the block. Without the settings a fresh process maps every block over 128 KB
    /// so (the threshold only rises as such blocks are freed, at most to 32 MB).
    @Test func aPictureSizedBlockComesFromTheHeap() {
        #expect(AllocatorTuning.apply())
        let block = malloc(24 << 20)!
        defer { free(block) }
        let sizeWord = UnsafeRawPointer(block).load(fromByteOffset: -MemoryLayout<Int>.size, as: UInt.self)
        #expect(sizeWord & 2 == 0, "a 24 MB block is mapped on its own (size word \(sizeWord))")
    }
}
