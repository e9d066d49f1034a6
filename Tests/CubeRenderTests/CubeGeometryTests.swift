import CubeRender
import Foundation
import Testing

/// Where things land on screen: the hinge, the far face edges, the top and bottom edges, the endpoints.
struct CubeGeometryTests {
    static let red = RGBAImage(width: 64, height: 96, filledWith: 255, 0, 0)
    static let blue = RGBAImage(width: 64, height: 96, filledWith: 0, 0, 255)

    /// The pixel at (x, y) as an array [r, g, b, a].
    static func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let value = image.pixel(x: x, y: y)
        return [value.red, value.green, value.blue, value.alpha]
    }

    static let black: [UInt8] = [0, 0, 0, 255]

    @Test("the hinge column splits the outgoing face from the incoming face")
    func hingeSeparatesFaces() throws {
        let spec = CubeTransitionSpec(width: 64, height: 96)
        let renderer = try CubeRenderer(from: Self.red, to: Self.blue, spec: spec)
        // p = 0.5: hinge at x = 32, both faces at 45°, shaded by 1 - 0.3 * sin 45° = 0.7879 -> 201.
        let frame = renderer.renderImage(progress: 0.5)
        for y in [0, 1, 48, 94, 95] {
            #expect(Self.pixel(frame, 31, y) == [201, 0, 0, 255], "row \(y) left of the hinge")
            #expect(Self.pixel(frame, 32, y) == [0, 0, 201, 255], "row \(y) right of the hinge")
        }
        // p = 0.25: hinge at x = 48; A at 22.5° (shade 0.8852 -> 226), B at 67.5° (shade 0.7228 -> 184).
        let quarter = renderer.renderImage(progress: 0.25)
        #expect(Self.pixel(quarter, 47, 48) == [226, 0, 0, 255])
        #expect(Self.pixel(quarter, 48, 48) == [0, 0, 184, 255])
    }

    @Test("a pixel centre exactly on the hinge shows the outgoing face's hinge edge")
    func pixelOnHingeBelongsToOutgoingFace() throws {
        // p = 1 - 31.5 / 64 puts the hinge exactly on the centre of column 31.
        let p = 1 - 31.5 / 64
        let spec = CubeTransitionSpec(width: 64, height: 96)
        let from = TestFaces.textured(width: 64, height: 96, seed: 11)
        let to = TestFaces.textured(width: 64, height: 96, seed: 12)
        let frame = try CubeRenderer(from: from, to: to, spec: spec).renderImage(progress: p)
        let reference = ReferenceCubeRenderer(from: from, to: to, spec: spec).render(progress: p)
        let shade = 1 - 0.3 * sin(Double.pi / 2 * p)
        for y in [0, 40, 95] {
            // d = 0: u = W (clamped to the last column's centre), v = ys.
            let source = from.pixel(x: 63, y: y)
            let expected = [source.red, source.green, source.blue].map { UInt8((Double($0) * shade).rounded()) }
            let actual = Self.pixel(frame, 31, y)
            for channel in 0..<3 {
                #expect(abs(Int(actual[channel]) - Int(expected[channel])) <= 1, "row \(y) channel \(channel)")
            }
            #expect(Self.pixel(reference, 31, y).prefix(3).elementsEqual(expected))
        }
    }

    @Test("beyond the far edge of the outgoing face is background")
    func outgoingFarEdge() throws {
        // A short perspective distance (D = W / 2) pulls the far edge on screen.
        let spec = CubeTransitionSpec(width: 64, height: 96, perspective: 0.5)
        let frame = try CubeRenderer(from: Self.red, to: Self.blue, spec: spec).renderImage(progress: 0.6)
        let distance = 32.0
        let angle = Double.pi / 2 * 0.6
        let hinge = 64 * 0.4
        let edge = hinge - 64 * distance * cos(angle) / (distance + 64 * sin(angle))  // about 11.2
        #expect(edge > 10 && edge < 12)
        for x in 0..<64 {
            let xs = Double(x) + 0.5
            if xs < edge - 0.01 {
                for y in 0..<96 {
                    #expect(Self.pixel(frame, x, y) == Self.black, "(\(x), \(y)) lies beyond the far edge")
                }
            } else if xs > edge + 0.01 && xs < hinge {
                #expect(Self.pixel(frame, x, 48)[0] > 100, "column \(x) shows the outgoing face")
            }
        }
        // Column 12 is deep (d ≈ 51) so the face is scaled by s = D / (D + d sin θ) ≈ 0.44 towards the middle.
        let delta = 12.5 - hinge
        let depth = -delta * distance / (distance * cos(angle) + delta * sin(angle))
        let halfHeight = 48 * distance / (distance + depth * sin(angle))
        #expect(halfHeight > 20 && halfHeight < 22)
        let firstRow = Int((48 - halfHeight - 0.5).rounded(.up))
        let lastRow = Int((48 + halfHeight - 0.5).rounded(.down))
        #expect(Self.pixel(frame, 12, firstRow - 1) == Self.black)
        #expect(Self.pixel(frame, 12, firstRow)[0] > 100)
        #expect(Self.pixel(frame, 12, lastRow)[0] > 100)
        #expect(Self.pixel(frame, 12, lastRow + 1) == Self.black)
    }

    @Test("beyond the far edge of the incoming face is background")
    func incomingFarEdge() throws {
        let spec = CubeTransitionSpec(width: 64, height: 96, perspective: 0.5)
        let frame = try CubeRenderer(from: Self.red, to: Self.blue, spec: spec).renderImage(progress: 0.4)
        let distance = 32.0
        let angle = Double.pi / 2 * 0.6
        let hinge = 64 * 0.6
        let edge = hinge + 64 * distance * cos(angle) / (distance + 64 * sin(angle))  // about 52.8
        #expect(edge > 52 && edge < 54)
        for x in 0..<64 {
            let xs = Double(x) + 0.5
            if xs > edge + 0.01 {
                for y in 0..<96 {
                    #expect(Self.pixel(frame, x, y) == Self.black, "(\(x), \(y)) lies beyond the far edge")
                }
            } else if xs < edge - 0.01 && xs > hinge {
                #expect(Self.pixel(frame, x, 48)[2] > 100, "column \(x) shows the incoming face")
            }
        }
    }

    @Test("the top and bottom edges recede with depth")
    func topAndBottomEdges() throws {
        let spec = CubeTransitionSpec(width: 64, height: 96)
        let frame = try CubeRenderer(from: Self.red, to: Self.blue, spec: spec).renderImage(progress: 0.5)
        // Next to the hinge the face is full height; at the far edges it is shorter.
        #expect(Self.pixel(frame, 31, 0) != Self.black)
        #expect(Self.pixel(frame, 31, 95) != Self.black)
        #expect(Self.pixel(frame, 0, 0) == Self.black)
        #expect(Self.pixel(frame, 0, 95) == Self.black)
        #expect(Self.pixel(frame, 63, 0) == Self.black)
        #expect(Self.pixel(frame, 63, 95) == Self.black)
        #expect(Self.pixel(frame, 0, 48) != Self.black)
        #expect(Self.pixel(frame, 63, 48) != Self.black)
        // Each column is symmetric about the horizontal centre line.
        for x in [0, 10, 20, 40, 55, 63] {
            for y in 0..<48 {
                #expect((Self.pixel(frame, x, y) == Self.black) == (Self.pixel(frame, x, 95 - y) == Self.black))
            }
        }
    }

    @Test("progress 0 is exactly the outgoing face and progress 1 exactly the incoming face")
    func endpointsAreTheFaces() throws {
        let from = TestFaces.textured(width: 64, height: 96, seed: 21)
        let to = TestFaces.textured(width: 64, height: 96, seed: 22)
        let renderer = try CubeRenderer(from: from, to: to, spec: CubeTransitionSpec(width: 64, height: 96))
        #expect(ImageComparison.differingBytes(renderer.renderImage(progress: 0), from) == 0)
        #expect(ImageComparison.differingBytes(renderer.renderImage(progress: 1), to) == 0)
    }

    @Test("frames next to the endpoints are nearly the faces")
    func framesNearEndpoints() throws {
        let from = TestFaces.textured(width: 64, height: 96, seed: 23)
        let to = TestFaces.textured(width: 64, height: 96, seed: 24)
        // 100 frames with smooth easing: the first frame has p = 0.00029, the last p = 0.99971.
        let spec = CubeTransitionSpec(width: 64, height: 96, duration: 10, fps: 10)
        let renderer = try CubeRenderer(from: from, to: to, spec: spec)
        #expect(spec.progress(ofFrame: 0) < 0.0003)
        let first = ImageComparison(renderer.renderImage(frame: 0), from, tolerance: 8)
        let last = ImageComparison(renderer.renderImage(frame: 99), to, tolerance: 8)
        #expect(first.psnr > 30)
        #expect(last.psnr > 30)
        #expect(first.fractionWithinTolerance > 0.9)
        #expect(last.fractionWithinTolerance > 0.9)
        // Not identical, though: the hinge has moved by W * p and the faces turned a little.
        #expect(renderer.renderImage(frame: 0) != from)
    }
}
