import Foundation
import StoryMedia

/// `storyreel validate`: checks a manifest against every rule of `schema/manifest.schema.json`
/// and what a schema cannot say (unique ids, transitions between adjacent stories, files that
/// are regular files inside the bundle, clips that still have their recorded SHA-256).
///
/// It never reads outside the bundle: referenced paths are resolved without following `..` or
/// symlinks out of it, and only regular files are opened (a FIFO or a device is reported, not
/// read). It checks in two passes over one model: ``ManifestSchemaChecker`` holds the JSON to the
/// schema (a key the schema forbids is reported even though ``Manifest`` would ignore it), then
/// the JSON is decoded as StoryreelKit's ``Manifest`` and ``ManifestRuleChecker`` checks what
/// types cannot say.
public enum ManifestValidator {
    /// The largest manifest read: StoryreelKit's own limit, far above what a hundred thousand
    /// items need.
    public static let maximumManifestSize = UInt64(Manifest.maximumByteCount)

    /// The most problems listed: a line per value of a 30 MB manifest took 2.7 GB and 51 s (a
    /// QA pass), and a bundle that wrong is fixed from its first lines.
    public static let problemLimit = 1000

    /// The problems found in the manifest at `path`, one line each, starting with a JSON path;
    /// empty when it is valid.
    ///
    /// - Parameters:
    ///   - root: a folder referenced files may be anywhere inside (a `--reference` bundle's
    ///     clips live beside it); default, and never less than, the manifest's folder.
    ///   - timeout: seconds each clip may take to hash, and the manifest to read; nil: no limit.
    /// - Throws: `MediaError` when the manifest (or `root`) is missing or not a readable regular
    ///   file, and ``MediaError/Kind/systemLimit`` when the system ran short (open files) while
    ///   the files were checked: the lines would blame the manifest.
    public static func problems(inManifestAt path: String, root: String? = nil, timeout: Double? = 30) throws
        -> [String]
    {
        let data: Data
        do {
            data = try RegularFile.contents(of: path, maxSize: maximumManifestSize, timeout: timeout)
        } catch let error as MediaError where error.kind == .invalidMedia {
            // Over the size a manifest may have (the one `.invalidMedia` reading it throws): one
            // problem of the manifest, as one nested too deep is (a QA pass: `--json` gave a
            // missing manifest's shape instead, and the README's `jq -r '.problems[]'` failed).
            return ["manifest: \(error.reason); not read"]
        }
        let resolver = try BundleFileResolver(folder: path.containingFolder, root: root)
        // Refused before it is parsed (``Manifest/shapeFault(in:)``): the generic decoding below
        // took minutes.
        if let fault = Manifest.shapeFault(in: data) { return [fault.description] }
        let json: JSONValue
        do {
            json = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            // Text Foundation cannot read at all: say why (its encoding, or where it breaks).
            return [ManifestError.unreadable(data).description]
        }
        var schema = ManifestSchemaChecker()
        // JSON browsers refuse, and a key given twice (lost in `json`): StoryreelKit refuses the
        // manifest for either.
        for fault in ManifestError.structuralFaults(in: data) { schema.report(fault.path, fault.message) }
        schema.check(manifest: json)
        let manifest: Manifest
        do {
            manifest = try Manifest(jsonData: data)
        } catch let error as ManifestError {
            return schema.problems.isEmpty ? [error.description] : listed(schema.problems, isCut: schema.isCut)
        }
        var rules = ManifestRuleChecker(resolver: resolver, timeout: timeout)
        let limitsBefore = MediaError.systemLimitsMet.count
        rules.check(manifest)
        let limits = MediaError.systemLimitsMet
        if limits.count != limitsBefore, let latest = limits.latest { throw latest }
        // A value the schema already faulted is not reported twice.
        let faulted = Set(schema.problems.map { $0.prefix { $0 != ":" } })
        return listed(
            schema.problems + rules.problems.filter { !faulted.contains($0.prefix { $0 != ":" }) },
            isCut: schema.isCut || rules.isCut)
    }

    /// The first ``problemLimit`` of `problems`, and a last line saying more were found when
    /// there are more, or when the checkers stopped keeping them (`isCut`).
    private static func listed(_ problems: [String], isCut: Bool) -> [String] {
        guard isCut || problems.count > problemLimit else { return problems }
        return problems.prefix(problemLimit)
            + ["manifest: more problems than these \(problemLimit), not listed (fix these and validate again)"]
    }
}
