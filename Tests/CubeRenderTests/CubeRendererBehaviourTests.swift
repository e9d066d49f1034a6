import CubeRender
import Testing

/// Direction, threading and buffer handling of `CubeRenderer`.
struct CubeRendererBehaviourTests {
    static let from = TestFaces.textured(width: 96, height: 128, seed: 31)
    static let to = TestFaces.textured(width: 96, height: 128, seed: 32)

    @Test("backward(A, B) frame k is forward(B, A) frame N - 1 - k")
    func backwardIsReversedForward() throws {
        let forwardSpec = CubeTransitionSpec(width: 96, height: 128, duration: 0.3, fps: 30)
        var backwardSpec = forwardSpec
        backwardSpec.direction = .backward
        let forward = try CubeRenderer(from: Self.to, to: Self.from, spec: forwardSpec)
        let backward = try CubeRenderer(from: Self.from, to: Self.to, spec: backwardSpec)
        #expect(forward.frameCount == 9 && backward.frameCount == 9)
        for k in 0..<9 {
            let difference = ImageComparison.differingBytes(
                backward.renderImage(frame: k),
                forward.renderImage(frame: 8 - k))
            #expect(difference == 0, "frame \(k)")
        }
    }

    @Test("a backward transition starts on the `from` face and ends on the `to` face")
    func backwardStartsAndEndsOnTheRightFaces() throws {
        let red = RGBAImage(width: 96, height: 128, filledWith: 255, 0, 0)
        let blue = RGBAImage(width: 96, height: 128, filledWith: 0, 0, 255)
        let spec = CubeTransitionSpec(width: 96, height: 128, direction: .backward)
        let renderer = try CubeRenderer(from: red, to: blue, spec: spec)
        func share(of channel: Int, in image: RGBAImage) -> Double {
            var count = 0
            for index in stride(from: channel, to: image.pixels.count, by: 4) where image.pixels[index] > 150 {
                count += 1
            }
            return Double(count) / Double(image.width * image.height)
        }
        let first = renderer.renderImage(frame: 0)
        let last = renderer.renderImage(frame: renderer.frameCount - 1)
        #expect(share(of: 0, in: first) > 0.9)
        #expect(share(of: 2, in: last) > 0.9)
        // Backward: `to` swings in from the left while `from` leaves to the right.
        let middle = renderer.renderImage(frame: renderer.frameCount / 2)
        #expect(middle.pixel(x: 10, y: 64).blue > 150)
        #expect(middle.pixel(x: 85, y: 64).red > 150)
    }

    @Test("several threads render exactly what one thread renders", arguments: [2, 3, 4, 7])
    func threadsAgree(threads: Int) throws {
        let spec = CubeTransitionSpec(width: 96, height: 128)
        let single = try CubeRenderer(from: Self.from, to: Self.to, spec: spec)
        let multi = try CubeRenderer(from: Self.from, to: Self.to, spec: spec, threads: threads)
        #expect(multi.threads == threads)
        for p in [0.1, 0.5, 0.85] {
            let difference = ImageComparison.differingBytes(
                multi.renderImage(progress: p),
                single.renderImage(progress: p))
            #expect(difference == 0, "p \(p)")
        }
    }

    @Test("more threads than column blocks still renders every column")
    func moreThreadsThanBlocks() throws {
        let face = TestFaces.textured(width: 18, height: 8, seed: 33)
        let other = TestFaces.textured(width: 18, height: 8, seed: 34)
        let spec = CubeTransitionSpec(width: 18, height: 8)
        let single = try CubeRenderer(from: face, to: other, spec: spec)
        let multi = try CubeRenderer(from: face, to: other, spec: spec, threads: 5)
        #expect(
            ImageComparison.differingBytes(multi.renderImage(progress: 0.4), single.renderImage(progress: 0.4))
                == 0)
        #expect(ImageComparison.differingBytes(multi.renderImage(progress: 0), face) == 0)
    }

    @Test("render(frame:into:) fills a caller buffer, at any byte alignment, and leaves the rest alone")
    func rendersIntoCallerBuffer() throws {
        let spec = CubeTransitionSpec(width: 96, height: 128)
        let renderer = try CubeRenderer(from: Self.from, to: Self.to, spec: spec)
        let expected = renderer.renderImage(frame: 5)
        let byteCount = 96 * 128 * 4
        var storage = [UInt8](repeating: 7, count: byteCount + 3)
        storage.withUnsafeMutableBufferPointer { buffer in
            let shifted = UnsafeMutableBufferPointer(rebasing: buffer[1..<(byteCount + 1)])
            renderer.render(frame: 5, into: shifted)
            renderer.render(frame: 5, into: shifted)  // rendering twice changes nothing
        }
        #expect(ImageComparison.differingBytes(Array(storage[1..<(byteCount + 1)]), expected.pixels) == 0)
        #expect(storage[0] == 7 && storage[byteCount + 1] == 7 && storage[byteCount + 2] == 7)
    }

    @Test("every pixel is written: a dirty buffer gives the same frame as a clean one")
    func overwritesEveryPixel() throws {
        let spec = CubeTransitionSpec(width: 96, height: 128, perspective: 0.5)
        let renderer = try CubeRenderer(from: Self.from, to: Self.to, spec: spec)
        for frame in [0, 4, 7, 14] {
            var dirty = [UInt8](repeating: 0xAB, count: 96 * 128 * 4)
            dirty.withUnsafeMutableBufferPointer { renderer.render(frame: frame, into: $0) }
            #expect(ImageComparison.differingBytes(dirty, renderer.renderImage(frame: frame).pixels) == 0)
            #expect(dirty.count == 96 * 128 * 4)
        }
    }

    @Test("frame k renders progress(ofFrame: k)")
    func frameUsesSpecProgress() throws {
        let spec = CubeTransitionSpec(width: 96, height: 128, duration: 0.2, fps: 30, easing: .linear)
        let renderer = try CubeRenderer(from: Self.from, to: Self.to, spec: spec)
        #expect(renderer.frameCount == 6)
        for k in 0..<6 {
            let difference = ImageComparison.differingBytes(
                renderer.renderImage(frame: k),
                renderer.renderImage(progress: Double(k + 1) / 7))
            #expect(difference == 0, "frame \(k)")
        }
    }
}
