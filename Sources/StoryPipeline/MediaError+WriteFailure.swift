import Foundation
import StoryMedia

extension MediaError {
    /// True for an error writing into `folder` (a full disk, a read-only folder): a failure to
    /// create or write a file inside it, as opposed to an input that cannot be used. `render`
    /// stops on one (73/74) instead of skipping a clip; `ingest` reports the clip not ingested
    /// rather than rejected.
    func isWriteFailure(inside folder: String) -> Bool {
        guard kind == .cannotCreateOutput || kind == .ioFailure, let path else { return false }
        let container = URL(fileURLWithPath: folder).standardizedFileURL.path
        return BundlePaths.isInside(URL(fileURLWithPath: path).standardizedFileURL.path, container)
    }
}
