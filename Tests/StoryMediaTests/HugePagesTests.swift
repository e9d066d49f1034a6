import Foundation
import StoryMedia
import Testing

/// storyreel turns transparent huge pages off for its process, so libx264's big buffers are not
/// cleared 2 MB at a time.
@Suite struct HugePagesTests {
    @Test func disablingShowsInTheProcessStatus() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        try #require(status.contains("THP_enabled:"), "this kernel reports THP_enabled")
        #expect(HugePages.disable())
        let after = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        #expect(after.split(separator: "\n").contains("THP_enabled:\t0"))
    }
}
