import CubeRender
import Foundation
import Testing

/// The public renderer's preconditions guard its raw-pointer writes, so they must survive the
/// optimiser: the package builds with `-O`, never `-Ounchecked` (which removes them), and carries
/// no `unsafeFlags` (which would also stop other packages depending on it). A call that breaks
/// one traps instead of writing out of bounds.
struct CubeRendererPreconditionTests {
    /// A 64x64, 15-frame renderer with two flat faces.
    static func renderer() throws -> CubeRenderer {
        let face = try RGBAImage(width: 64, height: 64, pixels: [UInt8](repeating: 200, count: 64 * 64 * 4))
        return try CubeRenderer(from: face, to: face, spec: CubeTransitionSpec(width: 64, height: 64))
    }

    @Test func packageUsesNoUnsafeFlags() throws {
        let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        #expect(text.contains("name: \"CubeRender\""), "not storyreel's Package.swift: \(manifest.path)")
        #expect(!text.contains("unsafeFlags"))
        #expect(!text.contains("-Ounchecked"))
    }

    @Test func aBufferTooSmallForTheFrameTraps() async {
        await #expect(processExitsWith: .failure) {
            let renderer = try Self.renderer()
            // Memory for the whole frame, but a buffer that says it holds one row less: an
            // unchecked renderer writes past the buffer's end without crashing.
            let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 * 64 * 4)
            let short = UnsafeMutableBufferPointer(rebasing: storage[..<(63 * 64 * 4)])
            renderer.render(frame: 0, into: short)
        }
    }

    @Test func aFrameOutsideTheTransitionTraps() async {
        await #expect(processExitsWith: .failure) {
            let renderer = try Self.renderer()
            var output = [UInt8](repeating: 0, count: 64 * 64 * 4)
            output.withUnsafeMutableBufferPointer { renderer.render(frame: renderer.frameCount, into: $0) }
        }
    }

    @Test func aProgressOutsideZeroToOneTraps() async {
        await #expect(processExitsWith: .failure) {
            let renderer = try Self.renderer()
            var output = [UInt8](repeating: 0, count: 64 * 64 * 4)
            output.withUnsafeMutableBufferPointer { renderer.render(progress: 1.5, into: $0) }
        }
    }

    @Test func aValidCallDoesNotTrap() async {
        await #expect(processExitsWith: .success) {
            let renderer = try Self.renderer()
            var output = [UInt8](repeating: 0, count: 64 * 64 * 4)
            output.withUnsafeMutableBufferPointer { renderer.render(frame: renderer.frameCount - 1, into: $0) }
        }
    }
}
