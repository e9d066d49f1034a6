import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryMedia

/// Issue 9, items 6 and 8 (the media layer's half): numbers a file or a caller controls never
/// reach a trapping conversion or a trapping `+`, `-` or `*`. Each case here used to trap.
@Suite struct CheckedConversionTests {
    @Test func hugeTimeoutsAreClampedNotTrapped() throws {
        for seconds: Double in [1e300, .infinity, Double(Int64.max), 9.3e12] {
            #expect(!Deadline(seconds: seconds).hasPassed, "\(seconds)")
        }
        for seconds: Double in [.nan, 0, -1, -.infinity] {
            let deadline = Deadline(seconds: seconds)
            withExtendedLifetime(deadline) { #expect(deadline.storage.pointee == 0, "\(seconds) means no deadline") }
        }
        let info = try ClipProbe.inspect(path: HostileFiles.goodClip, timeout: 1e300)
        #expect(info.video?.width == 720)
        let source = try ClipFrameSource(path: HostileFiles.goodClip, timeout: .infinity)
        #expect(try source.firstFrame(size: .width(64)).width == 64)
    }

    @Test func indexEntryEndSaturates() {
        let entry = IndexEntry(timestamp: 0, position: .max - 10, size: 1 << 29, isKeyframe: true, isDiscarded: false)
        #expect(entry.end == .max)
        let normal = IndexEntry(timestamp: 0, position: 100, size: 28, isKeyframe: true, isDiscarded: false)
        #expect(normal.end == 128)
    }

    @Test func frameDurationsOfHostileTimestampsCountAsVariable() {
        func entries(_ timestamps: [Int64]) -> [IndexEntry] {
            timestamps.map { IndexEntry(timestamp: $0, position: 0, size: 1, isKeyframe: true, isDiscarded: false) }
        }
        #expect(ClipProbe.hasVariableFrameDurations(entries([.min, 0, .max])))
        #expect(ClipProbe.hasVariableFrameDurations(entries([.min, .max, .max])))
        #expect(!ClipProbe.hasVariableFrameDurations(entries([0, 512, 1024, 1536])))
    }

    /// From an inspect QA pass: one tick of slack was one whole frame at a timescale of 25, so a
    /// 25 fps clip with dropped frames (steps of 1 and 2 ticks, 40 and 80 ms) was constant. A
    /// re-check: 240 fps at a timescale of 600 (2 and 3 ticks) and 120 fps at 1000 (8 and 9)
    /// stay constant.
    @Test func oneTickOfSlackUnlessAStepIsOneTick() {
        func entries(_ steps: [Int64]) -> [IndexEntry] {
            steps.reduce(into: [Int64(0)]) { $0.append($0[$0.count - 1] + $1) }.map {
                IndexEntry(timestamp: $0, position: 0, size: 1, isKeyframe: true, isDiscarded: false)
            }
        }
        #expect(ClipProbe.hasVariableFrameDurations(entries([1, 1, 2, 1, 1, 2, 1, 1])))
        #expect(!ClipProbe.hasVariableFrameDurations(entries([1, 1, 1, 1, 1, 1])))
        // 29.97 fps at a timescale of 1000: steps of 33 and 34 ms are rounding.
        #expect(!ClipProbe.hasVariableFrameDurations(entries([33, 34, 33, 33, 34, 33, 34])))
        #expect(ClipProbe.hasVariableFrameDurations(entries([33, 34, 33, 35, 34, 33, 34])))
        #expect(!ClipProbe.hasVariableFrameDurations(entries([2, 3, 2, 3, 2, 3, 2, 3])))
        #expect(!ClipProbe.hasVariableFrameDurations(entries([8, 8, 9, 8, 8, 9, 8, 8, 9])))
        #expect(ClipProbe.hasVariableFrameDurations(entries([2, 3, 2, 5, 2, 3, 2, 3])))
    }

    @Test func editListTrimsAndRoundedEndsAreNotVariableFrameRate() {
        func entry(_ timestamp: Int64, discarded: Bool = false) -> IndexEntry {
            IndexEntry(timestamp: timestamp, position: 0, size: 1, isKeyframe: false, isDiscarded: discarded)
        }
        // B-frames: hidden lead-in samples interleave with shown ones in decode order.
        let cut =
            [entry(-2048, discarded: true), entry(-1536), entry(-1024, discarded: true), entry(-512)]
            + (0..<8).map { entry(Int64($0) * 512) }
        #expect(!ClipProbe.hasVariableFrameDurations(cut))
        #expect(!ClipProbe.hasVariableFrameDurations(cut.shuffled()))
        // The first and last samples rounded by a few ticks.
        let durations: [Int64] = [509] + [Int64](repeating: 512, count: 6) + [500]
        let rounded = durations.reduce(into: [entry(0)]) { entries, duration in
            entries.append(entry(entries[entries.count - 1].timestamp + duration))
        }
        #expect(!ClipProbe.hasVariableFrameDurations(rounded))
        // An end held far longer (a frame held a second; ffmpeg's fragmented muxer's first frame
        // of 840 ticks among 512) or cut far shorter is variable (an inspect QA pass: "constant").
        for ends: (Int64, Int64) in [(15360, 512), (512, 15360), (840, 512), (512, 100)] {
            let steps = [ends.0] + [Int64](repeating: 512, count: 6) + [ends.1]
            let held = steps.reduce(into: [entry(0)]) { entries, duration in
                entries.append(entry(entries[entries.count - 1].timestamp + duration))
            }
            #expect(ClipProbe.hasVariableFrameDurations(held), "ends \(ends)")
        }
        // Uneven in the middle is variable.
        let uneven = (0..<4).map { entry(Int64($0) * 512) } + (0..<4).map { entry(2048 + Int64($0) * 1024) }
        #expect(ClipProbe.hasVariableFrameDurations(uneven))
    }

    @Test func sizesFromDegenerateDimensionsDoNotTrap() {
        #expect(FrameSize.evenRescale(360, numerator: 1280, denominator: 0) > 0)
        #expect(FrameSize.evenRescale(8192, numerator: .max, denominator: 1) > 0)
        #expect(FrameSize.evenRescale(360, numerator: 1280, denominator: 720) == 640)
        #expect(FrameSize.fill(width: 64, height: 64).scaledSize(displayWidth: 0, displayHeight: 0) == (64, 64))
        #expect(FrameSize.width(64).outputSize(displayWidth: 1, displayHeight: .max).height > 0)
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: 1e300) == .max)
        #expect(Int(saturating: -1e300) == .min)
        #expect(Int(saturating: 12.9) == 12)
        #expect(Int64.max.saturatingAdd(1) == .max)
        #expect(Int64.min.saturatingAdd(-1) == .min)
        #expect(HDRToneMapper.byte(.nan) == 0)
        #expect(HDRToneMapper.byte(.infinity) == 255)
    }

    /// A clip can claim a bit rate over half of `Int.max` (see `HostileFiles.hugeVideoBitRateClip`),
    /// which makes the transition's peak `Int.max`; its byte budget over 10 s is then above
    /// `Int64.max` (a QA pass: `cube --duration 10` of such a clip trapped here, with SIGILL).
    @Test func aPeakOfIntMaxGivesTheLargestBudgetNotATrap() {
        let budget = { (rate: Int, frames: Int, fps: Double) in
            VideoClipWriter.budget(maxBitrate: rate, frames: frames, fps: fps, parameterSetBytes: 40)
        }
        #expect(budget(.max, 10, 1) == .max)
        #expect(budget(.max, 1000, 0.1) == .max)
        #expect(budget(.max, 15, 30) > 1 << 58)
        #expect(budget(4_500_000, 15, 30) == 281_250 - (40 + 1024 + 8 * 15))
        #expect(budget(100, 15, 30) == 0)
    }

    @Test func anAtomSizeNearTwoToTheSixtyFourIsATruncatedFileNotATrap() throws {
        let folder = try TemporaryFolder()
        var bytes = Data([0, 0, 0, 20]) + Data("ftypisom".utf8) + Data([0, 0, 2, 0]) + Data("isom".utf8)
        // A 64-bit atom size: size field 1, then the real size, here 2^64 − 16.
        bytes += Data([0, 0, 0, 1]) + Data("mdat".utf8) + Data([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0])
        bytes += Data(count: 64)
        let path = try folder.write("huge-atom.mp4", bytes)
        let result = try TestEnvironment.storyreel(["inspect", path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            result.stderr == "storyreel: error: \(path): moov atom not found: the file is truncated or still uploading "
                + "(the index is written last)\n")
    }
}
