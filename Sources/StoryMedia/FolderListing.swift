import Foundation

/// A folder's entries with their names exactly as the file system holds them.
///
/// `FileManager.contentsOfDirectory` decodes a name that is not UTF-8 lossily: a clip named
/// `\xff.mp4` came back as `\u{FFFD}.mp4`, which is another file's name or no file's, so the
/// clip was silently swapped for another or reported missing. Here such a name is kept apart,
/// with whether it is a folder, so that a caller can say why it is left out.
public struct FolderListing: Sendable {
    /// An entry whose name is not UTF-8.
    public struct UndecodableEntry: Sendable, Equatable {
        /// The name as `ls -b` shows it: each byte that is not UTF-8 as `\xFF`, and `\` as `\\`,
        /// so two such names are told apart and the line names the file to rename (a QA pass:
        /// U+FFFD for each bad byte gave `a\xff.mp4` and `a\xfe.mp4` one name, that of a third,
        /// valid file). For messages only, never a path.
        public var displayName: String
        /// True when it is a folder (or a link to one).
        public var isFolder: Bool
    }

    /// The names that are UTF-8, unsorted, without `.` and `..`.
    public var names: [String] = []
    /// The names in `names` that are folders themselves, not links to one.
    public var folders: [String] = []
    /// The entries whose names are not UTF-8.
    public var undecodable: [UndecodableEntry] = []

    /// Lists `path`. Throws `.missingInput` when it does not exist and `.unreadableInput` when
    /// it cannot be listed (not a folder, permission denied), with the system's reason.
    public init(path: String) throws {
        guard let folder = opendir(path) else {
            let code = errno
            if code == ENOENT { throw MediaError(.missingInput, path: path, "no such folder") }
            throw MediaError.system(.unreadableInput, path: path, "cannot list the folder", code: code)
        }
        defer { closedir(folder) }
        while true {
            errno = 0
            guard let entry = readdir(folder) else {
                let code = errno
                if code != 0 {
                    throw MediaError(
                        .unreadableInput, path: path, "cannot list the folder: \(SystemErrorText.describe(code))")
                }
                return
            }
            let bytes = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes == Array(".".utf8) || bytes == Array("..".utf8) { continue }
            if let name = String(validating: bytes, as: UTF8.self) {
                names.append(name)
                if Self.isFolder(entry.pointee, named: bytes, in: folder) { folders.append(name) }
            } else {
                var status = stat()
                let cName = bytes.map { CChar(bitPattern: $0) } + [0]
                let isFolder = fstatat(dirfd(folder), cName, &status, 0) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
                undecodable.append(
                    UndecodableEntry(displayName: Self.escapedName(bytes), isFolder: isFolder))
            }
        }
    }

    /// `bytes`, a name, with each byte that is not part of a UTF-8 character written `\xFF` and
    /// each `\` written `\\`.
    static func escapedName(_ bytes: [UInt8]) -> String {
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var offset = 0
        var shown = ""
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                shown += scalar == "\\" ? "\\\\" : String(scalar)
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<offset + length] {
                    shown += (byte < 0x10 ? "\\x0" : "\\x") + String(byte, radix: 16, uppercase: true)
                }
                offset += length
            case .emptyInput:
                return shown
            }
        }
    }

    /// Whether the entry is a folder itself (not a link to one): from its type in the listing,
    /// or from `fstatat` without following links where the file system leaves that unknown.
    private static func isFolder(_ entry: dirent, named bytes: [UInt8], in folder: OpaquePointer) -> Bool {
        if entry.d_type != UInt8(DT_UNKNOWN) { return entry.d_type == UInt8(DT_DIR) }
        var status = stat()
        let cName = bytes.map { CChar(bitPattern: $0) } + [0]
        return fstatat(dirfd(folder), cName, &status, AT_SYMLINK_NOFOLLOW) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
