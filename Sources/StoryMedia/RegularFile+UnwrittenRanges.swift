import CFFmpeg
import Foundation

extension RegularFile {
    /// The most holes ``unwrittenRanges()`` lists: a file with more is not a clip being uploaded.
    static let maximumUnwrittenRanges = 64

    /// The parts of the file no one has written yet, as the file system knows them
    /// (`lseek(SEEK_HOLE)`): the holes of a sparse file, and the blocks of one preallocated with
    /// `fallocate` that are still unwritten (ext4, XFS, btrfs and tmpfs say so). An uploader that
    /// preallocates its file and fills it out of order, as chunked and parallel uploads do, leaves
    /// such gaps before the index and the end are written (a QA pass: a clip with a zeroed fifth
    /// in its middle was ingested). The end of the file (the implicit hole after the last byte)
    /// is not one. Empty where the file system cannot say (it then reports all of it as data);
    /// at most ``maximumUnwrittenRanges``, the first ones.
    func unwrittenRanges() -> [Range<UInt64>] {
        guard let end = off_t(exactly: size) else { return [] }
        var ranges: [Range<UInt64>] = []
        var offset: off_t = 0
        while offset < end, ranges.count < Self.maximumUnwrittenRanges {
            let hole = cff_seek_hole(descriptor, offset)
            guard hole >= offset, hole < end else { break }
            // No data after the hole (ENXIO): it runs to the end of the file.
            let data = cff_seek_data(descriptor, hole)
            let holeEnd = data > hole ? min(data, end) : end
            ranges.append(UInt64(hole)..<UInt64(holeEnd))
            offset = holeEnd
        }
        return ranges
    }

    /// True when the file's first block is one no one has written (a hole, or a block preallocated
    /// with `fallocate`), as the file system knows it. Ask before reading the file: a block read
    /// is zeros in the page cache, which Linux then reports as written.
    /// The descriptor's offset is left where it was (`SEEK_HOLE` moves it).
    var startsUnwritten: Bool {
        guard size > 0 else { return false }
        let offset = lseek(descriptor, 0, SEEK_CUR)
        defer { lseek(descriptor, offset, SEEK_SET) }
        return cff_seek_hole(descriptor, 0) == 0
    }
}
