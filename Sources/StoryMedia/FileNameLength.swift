import Foundation

/// How long a file name may be, in bytes (Linux allows 255 bytes per name, `NAME_MAX`, on most
/// file systems), and names shortened to fit: cut on a character boundary, so a shortened name
/// is still valid UTF-8 and never splits an accented letter or an emoji.
public enum FileNameLength {
    /// The longest name, in bytes, that `folder`'s file system accepts: `pathconf`'s
    /// `_PC_NAME_MAX`, or `NAME_MAX` (255) when the folder cannot be asked (it does not exist yet).
    public static func limit(in folder: String) -> Int {
        let reported = pathconf(folder.isEmpty ? "." : folder, Int32(_PC_NAME_MAX))
        return reported > 0 ? reported : Int(NAME_MAX)
    }

    /// `name` cut to at most `byteLimit` bytes of UTF-8 at a character boundary (the whole
    /// name when it fits; empty when even its first character does not).
    public static func prefix(of name: String, fittingIn byteLimit: Int) -> String {
        guard name.utf8.count > byteLimit else { return name }
        var kept = 0
        var end = name.startIndex
        for character in name {
            let size = character.utf8.count
            guard kept + size <= byteLimit else { break }
            kept += size
            end = name.index(after: end)
        }
        return String(name[..<end])
    }

    /// `name` shortened to at most `byteLimit` bytes by cutting the end of its stem and keeping
    /// its extension (`…long-stem.mp4` stays a `.mp4`). A name whose extension alone leaves no
    /// room for a stem is cut as a whole.
    public static func fitting(_ name: String, in byteLimit: Int) -> String {
        guard name.utf8.count > byteLimit else { return name }
        let fileExtension = (name as NSString).pathExtension
        let suffix = fileExtension.isEmpty ? "" : "." + fileExtension
        let stem = fileExtension.isEmpty ? name : (name as NSString).deletingPathExtension
        let shortened = prefix(of: stem, fittingIn: byteLimit - suffix.utf8.count)
        guard !suffix.isEmpty, !shortened.isEmpty else { return prefix(of: name, fittingIn: byteLimit) }
        return shortened + suffix
    }
}
