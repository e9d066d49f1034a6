import StoryMedia
import StoryPipeline
import StoryreelTestSupport
import Testing

/// The peak rule's arithmetic: the floor scales with the canvas, the peak is twice the higher of
/// the two clips' bit rates when that is more, and a clip's rate is its video stream's.
@Suite struct TransitionBitrateTests {
    @Test func floorIs2MbpsAt720x1280ScaledByPixels() {
        #expect(TransitionBitrate.floor(width: 720, height: 1280) == 2_000_000)
        #expect(TransitionBitrate.floor(width: 1080, height: 1920) == 4_500_000)
        #expect(TransitionBitrate.floor(width: 540, height: 960) == 1_125_000)
        #expect(TransitionBitrate.floor(width: 1280, height: 720) == 2_000_000)
    }

    @Test func peakIsTwiceTheHigherClipOrTheFloor() {
        // The demo's transitions: 2 × the higher clip when that beats the floor…
        #expect(TransitionBitrate.peak(width: 540, height: 960, from: 713_929, to: 304_340) == 1_427_858)
        #expect(TransitionBitrate.peak(width: 540, height: 960, from: 155_280, to: 1_381_520) == 2_763_040)
        // …and the floor when it does not.
        #expect(TransitionBitrate.peak(width: 1080, height: 1920, from: 713_929, to: 304_340) == 4_500_000)
        #expect(TransitionBitrate.peak(width: 720, height: 1280, from: 1_000_000, to: 999_999) == 2_000_000)
        #expect(TransitionBitrate.peak(width: 720, height: 1280, from: 1_000_001, to: 0) == 2_000_002)
        // An unknown rate counts for nothing.
        #expect(TransitionBitrate.peak(width: 1080, height: 1920, from: nil, to: nil) == 4_500_000)
        #expect(TransitionBitrate.peak(width: 540, height: 960, from: nil, to: 3_000_000) == 6_000_000)
        #expect(TransitionBitrate.peak(width: 2, height: 2, from: Int.max, to: 1) == Int.max)
    }

    @Test func clipBitRateIsTheVideoStreamsAsFFprobeReportsIt() throws {
        // ben_k/1.mp4 has audio: 155 kb/s of video in 268 kb/s overall.
        let path = TestEnvironment.sample("stories/ben_k/1.mp4")
        let stream = try TestEnvironment.ffprobeVideoStream(path)
        let expected = try #require((stream["bit_rate"] as? String).flatMap { Int($0) })
        let info = try ClipProbe.inspect(path: path)
        #expect(info.video?.bitRate == expected)
        #expect(TransitionBitrate.clipBitRate(info) == expected)
        #expect(try #require(info.bitRate) > expected, "the container's rate counts the audio too")
    }
}
