import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// ``VideoClipWriter/append(drawing:)``: pictures drawn straight into the encoder's yuv420p planes
/// from ``VideoClipWriter/yuv420Planes(of:)`` are the pictures ``VideoClipWriter/append(rgba:)``
/// converts, so the two clips are the same bytes, capped (encoded again) or not.
@Suite struct VideoClipWriterDrawingTests {
    let folder: TemporaryFolder
    init() throws {
        FFmpegLog.silence()
        folder = try TemporaryFolder()
    }

    static let frameCount = 8

    /// Frame `index`: noise over a gradient, 128x96.
    static func picture(_ index: Int) -> RGBAImageBuffer {
        var state = UInt64(index + 7) &* 0x9E37_79B9_7F4A_7C15
        var pixels = [UInt8](repeating: 255, count: 128 * 96 * 4)
        for offset in stride(from: 0, to: pixels.count, by: 4) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let x = offset / 4 % 128
            pixels[offset] = UInt8(truncatingIfNeeded: x * 2 + Int(state >> 60))
            pixels[offset + 1] = UInt8(truncatingIfNeeded: state >> 56)
            pixels[offset + 2] = UInt8(truncatingIfNeeded: 200 - x + index * 9)
        }
        return RGBAImageBuffer(width: 128, height: 96, pixels: pixels)
    }

    func writer(_ name: String, cap: Int?) throws -> VideoClipWriter {
        let settings = VideoEncoder.Settings(width: 128, height: 96, fps: 30, tuning: .shortClip, maxBitrate: cap)
        return try VideoClipWriter(path: folder.path(name), settings: settings)
    }

    /// Copies the planes into the ones `append(drawing:)` hands out, row by row at their strides.
    static func draw(_ planes: PlanarPicture) -> VideoClipWriter.PlaneDrawing {
        { luma, lumaStride, blue, blueStride, red, redStride in
            for (source, target, stride, width, height) in [
                (planes.luma, luma, lumaStride, 128, 96), (planes.blueChroma, blue, blueStride, 64, 48),
                (planes.redChroma, red, redStride, 64, 48),
            ] {
                source.withUnsafeBytes { bytes in
                    for row in 0..<height {
                        (target + row * stride).copyMemory(from: bytes.baseAddress! + row * width, byteCount: width)
                    }
                }
            }
        }
    }

    func bytes(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: folder.path(name))) }

    @Test func drawnPlanesMakeTheClipThatRGBAMakes() throws {
        let converted = try writer("rgba.mp4", cap: nil)
        let drawn = try writer("drawn.mp4", cap: nil)
        for index in 0..<Self.frameCount {
            let picture = Self.picture(index)
            try picture.pixels.withUnsafeBufferPointer { try converted.append(rgba: $0) }
            let planes = try VideoClipWriter.yuv420Planes(of: picture)
            #expect(planes.luma.count == 128 * 96 && planes.blueChroma.count == 64 * 48)
            try drawn.append(drawing: Self.draw(planes))
        }
        let rgbaOutcome = try converted.finish()
        let drawnOutcome = try drawn.finish()
        #expect(drawnOutcome == rgbaOutcome)
        #expect(try bytes("drawn.mp4") == bytes("rgba.mp4"))
        let stream = try TestEnvironment.ffprobeVideoStream(folder.path("drawn.mp4"))
        #expect(stream["nb_read_frames"] as? String == "\(Self.frameCount)")
        #expect(stream["pix_fmt"] as? String == "yuv420p")
        #expect(stream["color_space"] as? String == "bt709")
    }

    @Test func aCappedClipIsDrawnAgainForEachFurtherPass() throws {
        let plain = try writer("plain.mp4", cap: nil)
        for index in 0..<Self.frameCount {
            try Self.picture(index).pixels.withUnsafeBufferPointer { try plain.append(rgba: $0) }
        }
        let cap = try plain.finish().bitRate / 3
        let converted = try writer("rgba.mp4", cap: cap)
        let drawn = try writer("drawn.mp4", cap: cap)
        let planes = try (0..<Self.frameCount).map { try VideoClipWriter.yuv420Planes(of: Self.picture($0)) }
        for index in 0..<Self.frameCount {
            try Self.picture(index).pixels.withUnsafeBufferPointer { try converted.append(rgba: $0) }
            try drawn.append(drawing: Self.draw(planes[index]))
        }
        let rgbaOutcome = try converted.finish(replay: { append in
            for index in 0..<Self.frameCount {
                try Self.picture(index).pixels.withUnsafeBufferPointer { try append($0) }
            }
        })
        var redraws = 0
        let drawnOutcome = try drawn.finishDrawn(redraw: { append in
            redraws += 1
            for index in 0..<Self.frameCount { try append(Self.draw(planes[index])) }
        })
        #expect(redraws >= 1 && drawnOutcome.passes == redraws + 1)
        #expect(drawnOutcome.fitsCap && drawnOutcome.bitRate <= cap)
        #expect(drawnOutcome == rgbaOutcome)
        #expect(try bytes("drawn.mp4") == bytes("rgba.mp4"))
    }
}
