import Foundation

/// The words storyreel's lines use for a system error code: the C library's text (`strerror`),
/// but for the codes whose text names things as the README does not ("Not a directory", "Is a
/// directory": the README and every other line say "folder"), and "Too many levels of symbolic
/// links", which a loop gives.
public enum SystemErrorText {
    /// The text for `code` (an `errno` value).
    public static func describe(_ code: Int32) -> String {
        switch code {
        case ENOTDIR: return "a part of the path is not a folder"
        case EISDIR: return "it is a folder"
        case ENOTEMPTY: return "the folder is not empty"
        case ELOOP: return "a loop of symbolic links (or one too many)"
        default: return String(cString: strerror(code))
        }
    }
}
