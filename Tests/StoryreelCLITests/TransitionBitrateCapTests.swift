import Foundation
import StoryPipeline
import StoryreelTestSupport
import Testing

@testable import StoryreelCLI

/// `cube`'s capped CRF: a cap well under the CRF size holds (the file's and the video packets'
/// bytes over ffprobe's duration), for H.264 and HEVC; a generous cap changes nothing; the peak
/// rule applies by itself between two clips; the default CRF is 23; HEVC is smaller than H.264
/// at no less PSNR; `--max-bitrate` takes `4.5M`, `4500k`, `4500000` and `auto` and refuses the rest
/// with 64. `--max-bitrate 200M`, far above any CRF 23 turn at 270x480, stands for no peak.
@Suite struct TransitionBitrateCapTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    // ben_k/10 → chloe/morning: the demo's costliest turn; at 270x480 CRF 23 makes about 3 Mb/s.
    static let fromClip = TestEnvironment.sample("stories/ben_k/10.mp4")
    static let toClip = TestEnvironment.sample("stories/chloe/morning.mp4")

    /// Runs `cube` between the two clips at 270x480 into `name` and returns its path.
    func cube(_ name: String, _ options: [String]) throws -> (path: String, stderr: String) {
        let path = folder.path(name)
        let result = try TestEnvironment.storyreel(
            ["cube", Self.fromClip, Self.toClip, "--size", "270x480", "-o", path] + options)
        #expect(result.status == 0, "\(result.stderr)")
        return (path, result.stderr)
    }

    /// The clip's average bit rate: the whole file's bytes × 8 over ffprobe's duration of the video.
    /// The video packets alone (what ffprobe's stream `bit_rate` counts) weigh less.
    func averageBitRate(_ path: String) throws -> Double {
        let result = try TestEnvironment.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size", "-of", "csv=p=0", path])
        let videoBytes = result.stdout.split(separator: "\n").compactMap { Int($0) }.reduce(0, +)
        let fileBytes = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(videoBytes > 0 && videoBytes < fileBytes)
        let stream = try TestEnvironment.ffprobeVideoStream(path)
        let duration = try #require((stream["duration"] as? String).flatMap { Double($0) })
        #expect(abs(duration - 0.5) < 1e-6)
        return Double(fileBytes) * 8 / duration
    }

    @Test(arguments: ["h264", "hevc"])
    func aCapWellUnderTheCRFSizeHolds(codec: String) throws {
        let plain = try averageBitRate(try cube("plain.mp4", ["--codec", codec, "--max-bitrate", "200M"]).path)
        for cap in [900_000, 400_000] {
            #expect(plain > 2 * Double(cap), "the cap must bind: CRF 23 makes \(plain) b/s")
            let capped = try cube("capped-\(cap).mp4", ["--codec", codec, "--max-bitrate", String(cap)])
            let rate = try averageBitRate(capped.path)
            #expect(rate <= Double(cap), "\(rate) b/s over the \(cap) cap")
            #expect(rate >= 0.85 * Double(cap), "\(rate) b/s leaves much of the \(cap) cap unused")
            #expect(capped.stderr.contains("passes"), "\(capped.stderr)")
            #expect(try TestEnvironment.ffprobeVideoStream(capped.path)["nb_read_frames"] as? String == "15")
        }
    }

    /// A clip whose video stream claims about 5 × 10^18 bit/s, which it does not have (a QA
    /// pass: the byte budget of that peak over 10 s overflowed `Int64`, and `cube` died of
    /// SIGILL, leaving its temporary file). Its one huge sample is a sparse file's hole, which
    /// since a re-check of preallocated uploads is a part not written yet: `cube` refuses it
    /// (65) in one line, leaving nothing. The peak of `Int.max` binding nothing, and the budget
    /// it makes, are checked in `TransitionBitrateTests` and `CheckedConversionTests`.
    @Test func aClipClaimingAnEnormousBitRateIsRefusedWithoutACrash() throws {
        let from = folder.path("claims.mp4")
        try HostileFiles.hugeVideoBitRateClip(at: from)
        let inspected = try TestEnvironment.storyreel(["inspect", "--json", from])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        let claimed = try #require(try TestEnvironment.ffprobeVideoStream(from)["bit_rate"] as? String)
        #expect(try #require(Double(claimed)) > Double(Int.max / 2), "the clip must claim over Int.max / 2: \(claimed)")
        let output = folder.path("turn.mp4")
        let result = try TestEnvironment.storyreel(
            ["cube", from, Self.toClip, "-o", output, "--duration", "10", "--fps", "1", "--size", "64x64"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                "lies in a part of the file not written yet: the file looks preallocated and still being written\n"),
            "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")) == ["claims.mp4"])
    }

    /// The clip's mean luma PSNR against the lossless frames in `frames`.
    func lumaPSNR(_ path: String, frames: String) throws -> Double {
        let decoded = try PixelComparison.ffmpegFrames(
            path, width: 270, height: 480, options: PixelComparison.mediaLayerScaling)
        let values = try decoded.enumerated().map { index, picture in
            let png = try PixelComparison.ffmpegImage(
                "\(frames)/\(String(format: "frame_%04d.png", index))", width: 270, height: 480)
            return PixelComparison.lumaPSNR(picture, png)
        }
        return values.reduce(0, +) / Double(values.count)
    }

    @Test func hevcIsSmallerThanH264AtNoLessPSNR() throws {
        let frames = folder.path("frames")
        let lossless = try TestEnvironment.storyreel(
            ["cube", Self.fromClip, Self.toClip, "--size", "270x480", "--frames-dir", frames])
        #expect(lossless.status == 0, "\(lossless.stderr)")
        let h264 = try cube("h264.mp4", ["--max-bitrate", "200M"]).path
        let hevc = try cube("hevc.mp4", ["--codec", "hevc", "--max-bitrate", "200M"]).path
        let size = { (path: String) in try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 }
        let (hevcBytes, h264Bytes) = (try size(hevc), try size(h264))
        #expect(hevcBytes < h264Bytes * 9 / 10, "HEVC \(hevcBytes) B, H.264 \(h264Bytes) B")
        let (hevcPSNR, h264PSNR) = (try lumaPSNR(hevc, frames: frames), try lumaPSNR(h264, frames: frames))
        #expect(hevcPSNR >= h264PSNR - 0.1, "HEVC \(hevcPSNR) dB, H.264 \(h264PSNR) dB")
    }

    @Test func aGenerousCapIsPlainCRF() throws {
        // Byte for byte what the uncapped writer makes (CappedClipWriterTests checks that in
        // process): one pass at CRF 23, whatever the cap above it.
        let generous = try cube("generous.mp4", ["--max-bitrate", "200M"])
        let lessGenerous = try cube("less.mp4", ["--max-bitrate", "20M"])
        let bytes = { (path: String) in try Data(contentsOf: URL(fileURLWithPath: path)) }
        #expect(try bytes(generous.path) == bytes(lessGenerous.path))
        #expect(generous.stderr.contains("CRF 23, 1 pass"), "\(generous.stderr)")
        #expect(lessGenerous.stderr.contains("CRF 23, 1 pass"), "\(lessGenerous.stderr)")
    }

    @Test func betweenTwoClipsThePeakRuleApplies() throws {
        // The rule from ffprobe's own figures: max(2 × the higher video bit rate, 2 Mb/s scaled).
        let rates = try [Self.fromClip, Self.toClip].map { path in
            try #require((try TestEnvironment.ffprobeVideoStream(path)["bit_rate"] as? String).flatMap { Int($0) })
        }
        let peak = max(2 * rates.max()!, 2_000_000 * 270 * 480 / (720 * 1280))
        let ruled = try cube("rule.mp4", [])
        let rate = try averageBitRate(ruled.path)
        #expect(rate <= Double(peak))
        #expect(rate >= 0.85 * Double(peak), "the rule's peak binds here")
        #expect(ruled.stderr.contains(String(format: "peak of %.2f Mb/s", Double(peak) / 1e6)), "\(ruled.stderr)")
    }

    @Test func defaultCRFIs23() throws {
        #expect(CubeTransitionJob.Parameters().crf == 23)
        let byDefault = try cube("default.mp4", ["--max-bitrate", "200M"])
        let explicit = try cube("explicit.mp4", ["--max-bitrate", "200M", "--crf", "23"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: byDefault.path))
        #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: explicit.path))))
        // x264 writes its settings into the stream.
        #expect(String(decoding: bytes, as: UTF8.self).contains("crf=23.0"))
        let help = try TestEnvironment.storyreel(["cube", "--help"])
        #expect(help.stdout.contains("(HEVC encodes at N + 4, at most 51). Default: 23."), "\(help.stdout)")
    }

    /// From a QA pass: `render --max-bitrate 100k` made its transitions 5 to 7.6 times over the
    /// peak at CRF 51 without a word, where `cube` warns. Each is a warning of the render's.
    @Test func aRenderWhoseTransitionsCannotMeetThePeakSaysSo() throws {
        let fixture = try BundleFixture()
        let (result, summary) = try fixture.render(into: "reel", ["--max-bitrate", "100k", "--size", "360x640"])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = try #require(summary["warnings"] as? [String])
        let transitions = try fixture.manifest("reel").transitions
        #expect(!transitions.isEmpty)
        for transition in transitions {
            let warning = try #require(warnings.first { $0.hasPrefix("\(transition.src): ") }, "\(warnings)")
            #expect(
                warning.hasSuffix(
                    "Mb/s against a peak of 0.10 Mb/s: over it even at CRF 51, the smallest the encoder "
                        + "makes; give a higher --max-bitrate, a lower --fps or a smaller --size"), "\(warning)")
            #expect(try averageBitRate("\(fixture.folder.path("reel"))/\(transition.src)") > 100_000)
        }
        #expect(result.stderr.contains("storyreel: warning: \(transitions[0].src): "), "\(result.stderr)")
        // A shard warns of those it made (a re-check: a sharded job never saw the warning).
        let (shard, shardSummary) = try fixture.render(
            into: "shard", ["--max-bitrate", "100k", "--size", "360x640", "--shard", "1/1"])
        #expect(shard.status == 0, "\(shard.stderr)")
        let shardWarnings = try #require(shardSummary["warnings"] as? [String])
        #expect(
            shardWarnings.filter { $0.contains("over it even at CRF 51") }.count == transitions.count,
            "\(shardWarnings)")
    }

    @Test func maxBitrateTakesSuffixesAndAuto() throws {
        let range = OptionRange.peakBitRate.orAutomatic
        for (text, bits) in [("4.5M", 4_500_000), ("4500k", 4_500_000), ("4500000", 4_500_000), ("100k", 100_000)] {
            #expect(range.bitRate(text) == bits, "\(text)")
        }
        #expect(range.accepts("auto"))
        let byDefault = try cube("default.mp4", [])
        let automatic = try cube("auto.mp4", ["--max-bitrate", "auto"])
        #expect(byDefault.stderr.contains("peak of 1.43 Mb/s"), "\(byDefault.stderr)")
        let bytes = { (path: String) in try Data(contentsOf: URL(fileURLWithPath: path)) }
        #expect(try bytes(byDefault.path) == bytes(automatic.path))
    }

    @Test func outOfRangeMaxBitrateExits64AndWritesNothing() throws {
        for value in ["0", "99k", "201M", "4.5G", "none", "fast"] {
            let result = try TestEnvironment.storyreel(
                ["cube", Self.fromClip, Self.toClip, "-o", folder.path("c.mp4"), "--max-bitrate", value])
            #expect(result.status == 64, "\(value): \(result.stderr)")
            #expect(result.stderr.hasPrefix("storyreel: error: --max-bitrate must be bits per second"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        }
    }
}
