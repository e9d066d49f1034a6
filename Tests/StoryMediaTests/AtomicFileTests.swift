import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// Files are written whole or not at all, with no temporary file left behind either way.
@Suite struct AtomicFileTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    @Test func writesAndReplacesWithoutLeavingTemporaryFiles() throws {
        let path = folder.path("poster.jpg")
        try AtomicFile.write(Data("first".utf8), to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("first".utf8))
        try AtomicFile.write(Data("second, longer".utf8), to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("second, longer".utf8))
        #expect(try contents() == ["poster.jpg"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let permissions = try #require(attributes[.posixPermissions] as? Int)
        #expect(permissions & 0o044 != 0, "readable by others, like any new file (umask 022): \(permissions)")
    }

    @Test func missingFolderIsCannotCreateOutput() throws {
        let path = folder.path("no/such/folder/poster.jpg")
        #expect {
            try AtomicFile.write(Data("x".utf8), to: path)
        } throws: { error in
            let error = error as? MediaError
            return error?.kind == .cannotCreateOutput && error?.path == path
                && error?.reason == "no such folder: \(folder.path("no/such/folder"))"
        }
        #expect(try contents().isEmpty)
    }

    @Test func directoryInTheWayIsCannotCreateOutputAndUntouched() throws {
        let path = folder.path("poster.jpg")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect {
            try AtomicFile.write(Data("x".utf8), to: path)
        } throws: { ($0 as? MediaError)?.kind == .cannotCreateOutput }
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(try contents() == ["poster.jpg"])
    }

    /// A rename replaces the directory entry, so writing over a FIFO, a symlink or a device such
    /// as `/dev/null` would remove it and leave a regular file in its place: each is refused,
    /// before anything is staged, and stays as it was. (The old code replaced all three.)
    @Test func specialFilesInTheWayAreRefusedAndUntouched() throws {
        let fifo = folder.path("pipe.jpg")
        #expect(mkfifo(fifo, 0o644) == 0)
        let target = folder.path("target.txt")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: target))
        let link = folder.path("link.jpg")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        for (path, kind) in [(fifo, "a FIFO"), (link, "a symbolic link")] {
            #expect {
                try AtomicFile.write(Data("x".utf8), to: path)
            } throws: { error in
                let error = error as? MediaError
                return error?.kind == .cannotCreateOutput && error?.path == path
                    && error?.reason.contains("is \(kind), not a regular file") == true
            }
        }
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("mine".utf8))
        #expect(try contents() == ["link.jpg", "pipe.jpg", "target.txt"])
    }

    /// The check is made again at the rename: a FIFO put in the file's place while it was being
    /// written stays, and the staged file is removed.
    @Test func specialFileThatAppearsWhileWritingIsNotReplaced() throws {
        let path = folder.path("poster.jpg")
        do {
            let file = try StagedFile(for: path)
            try file.append(Data("x".utf8))
            #expect(mkfifo(path, 0o644) == 0)
            #expect { try file.commit() } throws: { ($0 as? MediaError)?.kind == .cannotCreateOutput }
        }
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(try contents() == ["poster.jpg"])
    }

    /// A final name of the longest length Linux allows (255 bytes) is written: its temporary
    /// name keeps only as much of it as fits, and still has storyreel's temporary shape. The old
    /// code put the whole name into the temporary one (`.NAME.XXXXXX.storyreel-tmp`, 22 bytes
    /// more) and failed with "File name too long".
    @Test func longestFinalNameGetsATemporaryNameThatFits() throws {
        let name = String(repeating: "ü", count: 125) + ".jpeg"  // 255 bytes
        let path = folder.path(name)
        do {
            let file = try StagedFile(for: path)
            let temporary = (file.temporaryPath as NSString).lastPathComponent
            #expect(temporary.utf8.count <= 255, "\(temporary.utf8.count) bytes")
            #expect(TemporaryFile.isTemporaryName(temporary))
            #expect(!temporary.unicodeScalars.contains("\u{FFFD}"), "cut on a character boundary")
            try file.append(Data("x".utf8))
            try file.commit()
        }
        try AtomicFile.write(Data("second".utf8), to: path)
        #expect(try contents() == [name])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("second".utf8))
    }
}
