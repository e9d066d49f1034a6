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
                && error?.reason.contains("No such file or directory") == true
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
}
