// Render-only micro benchmark for the cube renderer:
//
//     storyreel-bench [--width 1080] [--height 1920] [--frames 60] [--repeat 3]
//
// Builds two synthetic textured faces, renders every frame of a `frames`-frame transition on one thread and
// then on all cores, and prints the best of `repeat` passes as megapixels per second.
//
//     storyreel-bench --clip-frames FROM TO OUT.yuv [--width 1080] [--height 1920]
//
// Writes the raw yuv420p frames `storyreel cube FROM TO --size WxH --shade 0 -o` encodes, for the
// bench's CPU floor (libx264 alone on them).
import CubeRender
import Dispatch
import Foundation
import StoryPipeline

/// Prints `message` as the bench tool's one error line and exits 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("storyreel-bench: \(message)\n".utf8))
    exit(1)
}

/// The positive integer after `name` on the command line, or `fallback`.
func integerOption(_ name: String, default fallback: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let value = Int(arguments[index + 1]), value > 0
    else { return fallback }
    return value
}

/// A synthetic face: horizontal and vertical gradients, a 32-pixel checkerboard and per-pixel noise.
func texturedFace(width: Int, height: Int, seed: UInt32) -> RGBAImage {
    var bytes = [UInt8](repeating: 255, count: width * height * 4)
    var state = seed
    for y in 0..<height {
        for x in 0..<width {
            state = state &* 1_664_525 &+ 1_013_904_223
            let noise = UInt8(truncatingIfNeeded: state >> 27)
            let checker: UInt8 = ((x / 32) + (y / 32)) % 2 == 0 ? 40 : 0
            let offset = (y * width + x) * 4
            bytes[offset] = UInt8(truncatingIfNeeded: x * 200 / width) &+ checker &+ noise
            bytes[offset + 1] = UInt8(truncatingIfNeeded: y * 200 / height) &+ checker
            bytes[offset + 2] = UInt8(truncatingIfNeeded: (x + y) * 100 / (width + height)) &+ noise
        }
    }
    return try! RGBAImage(width: width, height: height, pixels: bytes)
}

/// Seconds since an arbitrary point, from the monotonic clock.
func now() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}

let width = integerOption("--width", default: 1080)
let height = integerOption("--height", default: 1920)

if let index = CommandLine.arguments.firstIndex(of: "--clip-frames") {
    let paths = CommandLine.arguments.dropFirst(index + 1).prefix(3)
    guard paths.count == 3 else { fail("--clip-frames needs FROM, TO and OUT.yuv") }
    let (fromPath, toPath, outPath) = (
        paths[paths.startIndex], paths[paths.startIndex + 1], paths[paths.startIndex + 2]
    )
    var parameters = CubeTransitionJob.Parameters()
    (parameters.width, parameters.height, parameters.shade) = (width, height, 0)
    guard FileManager.default.createFile(atPath: outPath, contents: nil),
        let output = FileHandle(forWritingAtPath: outPath)
    else { fail("cannot create \(outPath)") }
    do {
        try CubeTransitionJob(from: fromPath, to: toPath, parameters: parameters).drawClipFrames { frame in
            try output.write(contentsOf: frame)
        }
        try output.close()
    } catch {
        fail("\(error)")
    }
    exit(0)
}
let frames = integerOption("--frames", default: 60)
let repeats = integerOption("--repeat", default: 3)
let spec = CubeTransitionSpec(width: width, height: height, duration: Double(frames) / 30, fps: 30)
let from = texturedFace(width: width, height: height, seed: 1)
let to = texturedFace(width: width, height: height, seed: 2)
let cores = ProcessInfo.processInfo.activeProcessorCount

/// Times one renderer on 1 thread and on all cores: `make` builds it for a thread count (its set-up
/// is timed on 1 thread), `render` draws frame `k` with it. Prints the best of `repeats` passes
/// over the whole transition (the machine may be shared) after one warm-up frame.
func bench<Renderer>(
    _ name: String, setup: String, frameCount: Int, make: (Int) throws -> Renderer,
    render: (Renderer, Int) -> Void
) {
    for threads in cores > 1 ? [1, cores] : [1] {
        let setupStart = now()
        let renderer: Renderer
        do {
            renderer = try make(threads)
        } catch {
            print("storyreel-bench: \(error)")
            exit(1)
        }
        let setupSeconds = now() - setupStart
        render(renderer, frameCount / 2)  // warm up caches and the thread pool
        var seconds = Double.infinity
        for _ in 0..<repeats {
            let start = now()
            for frame in 0..<frameCount {
                render(renderer, frame)
            }
            seconds = min(seconds, now() - start)
        }
        let megapixels = Double(width * height * frameCount) / 1e6
        let label = threads == 1 ? "1 thread" : "\(threads) threads"
        print(
            String(
                format: "render %@%dx%d %@: %.1f Mpixel/s (%.2f ms/frame)", name, width, height, label,
                megapixels / seconds, seconds * 1000 / Double(frameCount)))
        if threads == 1 {
            print(String(format: "setup %@%dx%d (%@): %.1f ms", name, width, height, setup, setupSeconds * 1000))
        }
    }
}

var output = [UInt8](repeating: 0, count: width * height * 4)
output.withUnsafeMutableBufferPointer { buffer in
    bench(
        "", setup: "transpose both faces", frameCount: spec.frameCount,
        make: { try CubeRenderer(from: from, to: to, spec: spec, threads: $0) },
        render: { $0.render(frame: $1, into: buffer) })
}

/// `face` as yuv420p planes for the planar renderer, by the BT.709 limited-range rule with chroma
/// taken from the top-left pixel of each 2 x 2 block (any fixed rule does for timing).
func yuvFace(_ face: RGBAImage) -> YUV420Image {
    var planes = [[UInt8]](repeating: [], count: 3)
    for y in 0..<face.height {
        for x in 0..<face.width {
            let (r, g, b, _) = face.pixel(x: x, y: y)
            let (red, green, blue) = (Double(r), Double(g), Double(b))
            planes[0].append(UInt8(16 + (0.1826 * red + 0.6142 * green + 0.0620 * blue).rounded()))
            if x % 2 == 0, y % 2 == 0 {
                planes[1].append(UInt8(128 + (-0.1006 * red - 0.3386 * green + 0.4392 * blue).rounded()))
                planes[2].append(UInt8(128 + (0.4392 * red - 0.3989 * green - 0.0403 * blue).rounded()))
            }
        }
    }
    return try! YUV420Image(
        width: face.width, height: face.height, luma: planes[0], blueChroma: planes[1], redChroma: planes[2])
}

let yuvFrom = yuvFace(from)
let yuvTo = yuvFace(to)
var planeBytes = [UInt8](repeating: 0, count: width * height * 3 / 2)
planeBytes.withUnsafeMutableBytes { buffer in
    let base = buffer.baseAddress!
    let planes = YUV420Planes(
        luma: base, lumaStride: width, blueChroma: base + width * height, blueChromaStride: width / 2,
        redChroma: base + width * height * 5 / 4, redChromaStride: width / 2)
    bench(
        "yuv420p ", setup: "lay out both faces' planes", frameCount: spec.frameCount,
        make: { try CubeYUVRenderer(from: yuvFrom, to: yuvTo, spec: spec, threads: $0) },
        render: { $0.render(frame: $1, into: planes) })
}
