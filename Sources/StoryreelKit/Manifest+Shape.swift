import Foundation

extension Manifest {
    /// The deepest nesting of arrays and objects a manifest is read with; one nests 5.
    public static let maximumDepth = 32

    /// The most JSON values a manifest is read with; one holds about 25 an item.
    public static let maximumValues = 10_000_000

    /// The most bytes a manifest is read with, as `storyreel validate` reads: about 900 an item
    /// with its transition, so some 280,000 items. Decoding takes about three to four times its
    /// size in memory for real items (a Kit consumer review: 197 MB at the peak for a manifest of
    /// 49.6 MB), and up to about 50 bytes a JSON value for a hostile one; an app that downloads a
    /// manifest should stop a download far smaller than this.
    public static let maximumByteCount = 256_000_000

    /// Why `data` is not read as a manifest at all, found in one pass over its bytes before any
    /// parser reads it, or nil: more than ``maximumByteCount`` bytes, text in UTF-16 or UTF-32
    /// (``JSONSyntaxFault``), then a shape over
    /// ``maximumDepth`` or ``maximumValues`` or a number over ``JSONShape/maximumNumberLength``
    /// characters (``JSONShape``). `storyreel validate` and ``init(jsonData:)`` both refuse it
    /// so. Foundation's own parser stops the process on some text nested 513 deep (a QA pass of
    /// this library: 513 `[` and nothing after), where it should throw; none gets that far.
    package static func shapeFault(in data: Data) -> ManifestError? {
        if data.count > maximumByteCount {
            return ManifestError(
                path: "", "\(data.count) bytes, over the \(maximumByteCount) a manifest is read with; not read")
        }
        // The count reads UTF-8 bytes: a quote in a wider character's bytes would hide the
        // brackets after it (a review), and the parser reads those encodings.
        if data.prefix(4).contains(0), let fault = JSONSyntaxFault.first(in: data) { return ManifestError(fault) }
        guard let problem = JSONShape.problem(in: data, depthLimit: maximumDepth, valueLimit: maximumValues) else {
            return nil
        }
        let typical =
            switch problem {
            case .tooDeep: " (a manifest nests 5)"
            case .tooManyValues: " (a manifest holds about 25 an item)"
            case .numberTooLong: ""
            }
        return ManifestError(path: "", "\(problem)\(typical); not read")
    }
}
