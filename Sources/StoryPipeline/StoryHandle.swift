/// A user's handle: 1–64 characters of `A-Z a-z 0-9 . _ -`, not starting with `.`.
public enum StoryHandle {
    /// Nil when `handle` is valid, else the reason it is not.
    public static func problem(with handle: String) -> String? {
        if handle.isEmpty { return "empty handle" }
        if handle.count > 64 { return "handle longer than 64 characters" }
        if handle.hasPrefix(".") { return "handle starts with '.'" }
        let allowed = handle.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || scalar == "." || scalar == "_" || scalar == "-")
        }
        return allowed ? nil : "handle may only hold A-Z a-z 0-9 . _ -"
    }
}
