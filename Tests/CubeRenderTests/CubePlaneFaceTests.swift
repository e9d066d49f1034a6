import Testing

@testable import CubeRender

/// The face layout, byte for byte against its definition: the 8 x 8 block transpose and the
/// pixel-at-a-time edges must give the same bytes at every size, including sides that are not
/// multiples of 8, planes narrower than a block and rows with bytes after the picture.
struct CubePlaneFaceTests {
    @Test(
        "every column holds its padded rows' pairs",
        arguments: [
            (1, 1, 1), (2, 2, 2), (7, 5, 7), (8, 8, 8), (9, 8, 9), (9, 9, 12), (16, 16, 16), (17, 16, 17),
            (16, 17, 20), (33, 41, 40), (100, 160, 128), (540, 962, 544),
        ])
    func layoutMatchesDefinition(width: Int, height: Int, rowBytes: Int) {
        var generator = UInt32(width * 7919 + height * 104_729 + rowBytes)
        let plane = (0..<rowBytes * height).map { _ -> UInt8 in
            generator = generator &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: generator >> 24)
        }
        let face = plane.withUnsafeBytes {
            CubePlaneFace(plane: $0.baseAddress!, width: width, height: height, rowBytes: rowBytes)
        }
        #expect(face.columnBytes == (height + 2) * 2)
        var differing: [String] = []
        for x in 0..<width {
            for paddedRow in 0..<(height + 2) {
                let row = min(max(paddedRow - 1, 0), height - 1)
                let expected = (plane[row * rowBytes + x], plane[row * rowBytes + min(x + 1, width - 1)])
                let offset = x * face.columnBytes + paddedRow * 2
                let laidOut = (
                    face.bytes.load(fromByteOffset: offset, as: UInt8.self),
                    face.bytes.load(fromByteOffset: offset + 1, as: UInt8.self)
                )
                if laidOut != expected, differing.count < 5 {
                    differing.append("column \(x), padded row \(paddedRow): \(laidOut), not \(expected)")
                }
            }
        }
        #expect(differing.isEmpty, "\(width)x\(height) (rows \(rowBytes) bytes apart): \(differing)")
    }
}
