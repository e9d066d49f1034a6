import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// `ingest` copies an upload it need not hash with `copy_file_range`, as `cp` does: the kernel
/// copies it, where read and write took each byte through memory twice (80 ms of a 480 ms ingest
/// of a 277 MB upload, `make bench`). What lands must be every byte, in several chunks too.
@Suite struct KernelCopyTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    @Test(arguments: [0, 1, 2_500_001])
    func everyByteIsCopiedInChunks(size: Int) throws {
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        let bytes = size == 0 ? Data() : random.readData(ofLength: size)
        #expect(bytes.count == size)
        let source = try folder.write("source-\(size).bin", bytes)
        let destination = folder.path("copy-\(size).bin")
        let input = try RegularFile(path: source)
        let output = try StagedFile(for: destination, marked: false)
        let copied = try output.appendKernelCopy(of: input, chunkSize: 1 << 20)
        #expect(copied == UInt64(size), "the kernel copies between two files of one file system")
        try output.commit()
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == bytes)
    }
}
