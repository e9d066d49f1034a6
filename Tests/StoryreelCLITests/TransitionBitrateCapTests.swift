import Foundation
import StoryPipeline
import StoryreelTestSupport
import Testing

@testable import StoryreelCLI

/// `cube`'s capped CRF: a cap well under the CRF size holds (ffprobe's bytes over duration), a
/// generous cap changes nothing, the peak rule applies by itself between two clips, the default
/// CRF is 23, and `--max-bitrate` takes `4.5M`, `4500k` and `4500000` and refuses the rest with 64.
@Suite struct TransitionBitrateCapTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    // ben_k/10 → chloe/morning: the demo's costliest turn; at 270x480 CRF 23 makes about 3 Mb/s.
    static let fromClip = TestEnvironment.samples.appendingPathComponent("stories/ben_k/10.mp4").path
    static let toClip = TestEnvironment.samples.appendingPathComponent("stories/chloe/morning.mp4").path

    /// Runs `cube` between the two clips at 270x480 into `name` and returns its path.
    func cube(_ name: String, _ options: [String]) throws -> (path: String, stderr: String) {
        let path = folder.path(name)
        let result = try TestEnvironment.storyreel(
            ["cube", Self.fromClip, Self.toClip, "--size", "270x480", "-o", path] + options)
        #expect(result.status == 0, "\(result.stderr)")
        return (path, result.stderr)
    }

    /// The clip's average bit rate as the cap counts it: its video packets' bytes × 8 over its
    /// duration, both from ffprobe.
    func averageBitRate(_ path: String) throws -> Double {
        let result = try TestEnvironment.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size", "-of", "csv=p=0", path])
        let bytes = result.stdout.split(separator: "\n").compactMap { Int($0) }.reduce(0, +)
        let stream = try TestEnvironment.ffprobeVideoStream(path)
        let duration = try #require((stream["duration"] as? String).flatMap { Double($0) })
        #expect(abs(duration - 0.5) < 1e-6)
        return Double(bytes) * 8 / duration
    }

    @Test func aCapWellUnderTheCRFSizeHolds() throws {
        let plain = try averageBitRate(try cube("plain.mp4", ["--max-bitrate", "none"]).path)
        for cap in [1_000_000, 400_000] {
            #expect(plain > 2.5 * Double(cap), "the cap must bind: CRF 23 makes \(plain) b/s")
            let capped = try cube("capped-\(cap).mp4", ["--max-bitrate", String(cap)])
            let rate = try averageBitRate(capped.path)
            #expect(rate <= Double(cap), "\(rate) b/s over the \(cap) cap")
            #expect(rate >= 0.85 * Double(cap), "\(rate) b/s leaves much of the \(cap) cap unused")
            #expect(capped.stderr.contains("passes"), "\(capped.stderr)")
            #expect(try TestEnvironment.ffprobeVideoStream(capped.path)["nb_read_frames"] as? String == "15")
        }
    }

    @Test func aGenerousCapIsPlainCRF() throws {
        let plain = try cube("plain.mp4", ["--max-bitrate", "none"])
        let generous = try cube("generous.mp4", ["--max-bitrate", "1000M"])
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: generous.path))
                == Data(contentsOf: URL(fileURLWithPath: plain.path)))
        #expect(generous.stderr.contains("CRF 23, 1 pass"), "\(generous.stderr)")
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
        let byDefault = try cube("default.mp4", ["--max-bitrate", "none"])
        let explicit = try cube("explicit.mp4", ["--max-bitrate", "none", "--crf", "23"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: byDefault.path))
        #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: explicit.path))))
        // x264 writes its settings into the stream.
        #expect(String(decoding: bytes, as: UTF8.self).contains("crf=23.0"))
        let help = try TestEnvironment.storyreel(["cube", "--help"])
        #expect(help.stdout.contains("(default 23)"), "\(help.stdout)")
    }

    @Test func maxBitrateTakesSuffixesAndNone() {
        let range = OptionRange.maxBitrate
        #expect(range.bitRate("4.5M") == 4_500_000)
        #expect(range.bitRate("4500k") == 4_500_000)
        #expect(range.bitRate("4500K") == 4_500_000)
        #expect(range.bitRate("4500000") == 4_500_000)
        #expect(range.bitRate("100k") == 100_000)
        #expect(range.bitRate("1000M") == 1_000_000_000)
        #expect(range.bitRate("none") == 0)
        for bad in ["99999", "0", "1001M", "4.5G", "4.5Mb", "4.5m", "+5M", "1e6", "0x10", "", "M", "-1", "nan", "inf"] {
            #expect(range.bitRate(bad) == nil, "\(bad)")
        }
        #expect(range.description == "none or bits per second from 100k to 1000M (4500000, 4500k or 4.5M)")
    }

    @Test func outOfRangeMaxBitrateExits64AndWritesNothing() throws {
        for value in ["0", "99k", "1001M", "4.5G", "fast"] {
            let result = try TestEnvironment.storyreel(
                ["cube", Self.fromClip, Self.toClip, "-o", folder.path("c.mp4"), "--max-bitrate", value])
            #expect(result.status == 64, "\(value): \(result.stderr)")
            #expect(result.stderr.hasPrefix("storyreel: error: --max-bitrate must be none or bits per second"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        }
    }
}
