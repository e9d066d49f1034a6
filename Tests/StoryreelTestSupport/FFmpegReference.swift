import Foundation

/// Frames of a clip as the ffmpeg CLI shows them (auto-rotated, colour tags honoured), the
/// trusted peer for storyreel's frame extraction, scaled and converted to RGB with
/// ``scalingFlags``. Pictures come back as packed RGBA, ready for ``PixelComparison``.
public enum FFmpegReference {
    /// The media layer's libswscale flags (bicubic, accurate rounding, full chroma
    /// interpolation). The ffmpeg CLI's default `bicubic` places 4:2:0 chroma half a sample off
    /// when it shrinks a picture, and with accurate rounding alone its RGB is up to 2 levels dark.
    public static let scalingFlags = "bicubic+accurate_rnd+full_chroma_int"

    /// The HDR-to-SDR chain storyreel's tone mapping follows. The `geq` clips each component to
    /// 0...1 before the last `zscale`, whose handling of values outside that range differs
    /// between machines (the sign kept on some, clipped on an AVX2-only AMD EPYC), so the
    /// reference is the same on every machine.
    public static let toneMapChain =
        "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0,"
        + "geq=r='clip(r(X,Y),0,1)':g='clip(g(X,Y),0,1)':b='clip(b(X,Y),0,1)',"
        + "zscale=t=bt709:m=bt709:r=tv,format=yuv420p"

    /// The frame `ffmpeg -ss seconds` picks, through `filters` (if any) and `scale=width:height`:
    /// `ffmpeg -v error -ss T -i CLIP -frames:v 1 -vf scale=W:H:flags=… -f rawvideo -pix_fmt rgb24 -`.
    public static func frame(
        _ clip: String, at seconds: Double, width: Int, height: Int, filters: String? = nil
    ) throws -> [UInt8] {
        let frames = try decode(
            clip, input: ["-ss", String(format: "%.6f", seconds)], output: ["-frames:v", "1"], width: width,
            height: height, filters: filters)
        guard let first = frames.first else { throw TestFailure("ffmpeg gave no frame of \(clip) at \(seconds) s") }
        return first
    }

    /// The last frame the ffmpeg CLI decodes from the clip (decoding its last second). The
    /// decoded frames are reversed and only the first of them, the last decoded, goes through
    /// `filters` and the scaler: the tone-mapping chain on every frame of an HDR clip's last
    /// second took 5.8 s of CPU.
    public static func lastFrame(_ clip: String, width: Int, height: Int, filters: String? = nil) throws -> [UInt8] {
        let frames = try decode(
            clip, input: ["-sseof", "-1"], output: ["-frames:v", "1"], width: width, height: height,
            filters: "reverse,trim=end_frame=1" + (filters.map { "," + $0 } ?? ""))
        guard let last = frames.last else { throw TestFailure("ffmpeg gave no frame of \(clip)") }
        return last
    }

    /// Every frame decoded with `input` options before `-i` and `output` options after it, as
    /// packed RGBA.
    static func decode(
        _ clip: String, input: [String], output: [String], width: Int, height: Int, filters: String?
    ) throws -> [[UInt8]] {
        let graph = (filters.map { $0 + "," } ?? "") + "scale=\(width):\(height):flags=\(scalingFlags)"
        let folder = try TemporaryFolder()
        let raw = folder.path("frames.rgb")
        let arguments =
            ["-v", "error", "-y"] + input + ["-i", clip] + output
            + ["-vf", graph, "-f", "rawvideo", "-pix_fmt", "rgb24", raw]
        let result = try TestEnvironment.run("ffmpeg", arguments)
        guard result.status == 0 else { throw TestFailure("ffmpeg could not decode \(clip): \(result.stderr)") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let frameBytes = width * height * 3
        guard frameBytes > 0, bytes.count % frameBytes == 0 else {
            throw TestFailure("\(clip) did not decode to whole \(width)x\(height) frames (\(bytes.count) bytes)")
        }
        return stride(from: 0, to: bytes.count, by: frameBytes).map { start in
            var rgba = [UInt8](repeating: 255, count: width * height * 4)
            for pixel in 0..<(width * height) {
                rgba[pixel * 4] = bytes[start + pixel * 3]
                rgba[pixel * 4 + 1] = bytes[start + pixel * 3 + 1]
                rgba[pixel * 4 + 2] = bytes[start + pixel * 3 + 2]
            }
            return rgba
        }
    }

    /// The mean BT.601 luma (0...255) of a packed RGBA picture.
    public static func meanLuma(_ rgba: [UInt8]) -> Double {
        var total = 0.0
        for index in stride(from: 0, to: rgba.count, by: 4) {
            total += 0.299 * Double(rgba[index]) + 0.587 * Double(rgba[index + 1]) + 0.114 * Double(rgba[index + 2])
        }
        return total / Double(max(1, rgba.count / 4))
    }
}
