import CubeRender

/// Deterministic textured test faces: gradients, a checkerboard and per-pixel noise, so sampling errors show.
enum TestFaces {
    /// A textured face. `seed` varies the noise and tint; `alphaVaries` makes alpha a gradient instead of 255.
    static func textured(width: Int, height: Int, seed: UInt32, alphaVaries: Bool = false) -> RGBAImage {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        var state = seed &* 2_654_435_761 &+ 12_345
        let cell = max(2, min(width, height) / 8)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 26)  // 0...63
                let checker = ((x / cell) + (y / cell)) % 2 == 0 ? 70 : 0
                let offset = (y * width + x) * 4
                bytes[offset] = UInt8(truncatingIfNeeded: (x * 150 / width + checker + noise) % 256)
                bytes[offset + 1] = UInt8(truncatingIfNeeded: (y * 170 / height + checker / 2 + Int(seed) * 29) % 256)
                bytes[offset + 2] = UInt8(truncatingIfNeeded: ((x + y) * 120 / (width + height) + noise * 2) % 256)
                if alphaVaries {
                    bytes[offset + 3] = UInt8(truncatingIfNeeded: 80 + (x * 170 / width + noise) % 176)
                }
            }
        }
        return try! RGBAImage(width: width, height: height, pixels: bytes)
    }
}
