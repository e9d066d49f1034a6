import Foundation
import StoryreelTestSupport
import Testing

/// `storyreel inspect --json` agrees with ffprobe on every sample clip.
@Suite struct InspectMatchesFFprobeTests {
    static let clips = (TestEnvironment.sampleClips + TestEnvironment.storyClips).map(\.path)

    @Test func everySampleClipIsInspected() throws {
        #expect(Self.clips.count >= 14, "samples/ should hold 5 sample clips and 9 story clips")
        let result = try TestEnvironment.storyreel(["inspect", "--json"] + Self.clips)
        #expect(result.status == 0, "\(result.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["path"] as? String } == Self.clips)
    }

    @Test(arguments: clips)
    func metadataAgreesWithFFprobe(clip: String) throws {
        let result = try TestEnvironment.storyreel(["inspect", "--json", clip])
        #expect(result.status == 0, "\(result.stderr)")
        let ours = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        let probe = try TestEnvironment.ffprobe(clip)
        let format = try #require(probe["format"] as? [String: Any])
        let streams = try #require(probe["streams"] as? [[String: Any]])
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })

        let duration = try #require(Double(format["duration"] as? String ?? ""))
        #expect(abs((ours["duration"] as? Double ?? -1) - duration) < 0.001)
        #expect((ours["size"] as? Int).map(String.init) == format["size"] as? String)
        #expect((ours["bitRate"] as? Int).map(String.init) == format["bit_rate"] as? String)

        let ourVideo = try #require(ours["video"] as? [String: Any])
        #expect(ourVideo["codec"] as? String == video["codec_name"] as? String)
        #expect(ourVideo["width"] as? Int == video["width"] as? Int)
        #expect(ourVideo["height"] as? Int == video["height"] as? Int)
        #expect(ourVideo["pixelFormat"] as? String == video["pix_fmt"] as? String)
        #expect(ourVideo["profile"] as? String == video["profile"] as? String)
        #expect((ourVideo["bitRate"] as? Int).map(String.init) == video["bit_rate"] as? String)
        let rate = (video["avg_frame_rate"] as? String ?? "0/1").split(separator: "/").compactMap { Double($0) }
        #expect(abs((ourVideo["frameRate"] as? Double ?? 0) - rate[0] / rate[1]) < 1e-9)

        let sideData = video["side_data_list"] as? [[String: Any]] ?? []
        let ffprobeRotation = sideData.compactMap { $0["rotation"] as? Int }.first ?? 0
        #expect(ourVideo["rotation"] as? Int == ((-ffprobeRotation) % 360 + 360) % 360)
        let swapped = ffprobeRotation % 180 != 0
        #expect(ourVideo["displayWidth"] as? Int == (swapped ? video["height"] : video["width"]) as? Int)
        #expect(ourVideo["colorTransfer"] as? String == video["color_transfer"] as? String)

        let audio = streams.first { $0["codec_type"] as? String == "audio" }
        let ourAudio = ours["audio"] as? [String: Any]
        #expect((ourAudio == nil) == (audio == nil))
        if let audio, let ourAudio {
            #expect(ourAudio["codec"] as? String == audio["codec_name"] as? String)
            #expect(ourAudio["channels"] as? Int == audio["channels"] as? Int)
            #expect((ourAudio["sampleRate"] as? Int).map(String.init) == audio["sample_rate"] as? String)
        }
    }

    @Test func iphoneClipIsPortraitHLGWithRotation90() throws {
        let clip = TestEnvironment.sample("iphone-hevc-hdr.mov")
        let result = try TestEnvironment.storyreel(["inspect", "--json", clip])
        let ours = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        let video = try #require(ours["video"] as? [String: Any])
        #expect(ours["container"] as? String == "mov")
        #expect(video["rotation"] as? Int == 90)
        #expect(video["displayWidth"] as? Int == 720)
        #expect(video["displayHeight"] as? Int == 1280)
        #expect(video["hdr"] as? String == "hlg")
        #expect(video["bitDepth"] as? Int == 10)
        #expect(video["codecTag"] as? String == "hvc1")
    }

    @Test func editListClipCountsOnlyShownFrames() throws {
        let clip = TestEnvironment.sample("edit-list.mp4")
        let result = try TestEnvironment.storyreel(["inspect", "--json", clip])
        let ours = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        let video = try #require(ours["video"] as? [String: Any])
        let counted = try TestEnvironment.run(
            "ffprobe",
            [
                "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries",
                "stream=nb_read_packets", "-of", "csv=p=0", clip,
            ])
        let packets = try #require(Int(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let frameCount = try #require(video["frameCount"] as? Int)
        #expect(frameCount < packets, "the edit list hides the lead-in samples")
        let duration = try #require(ours["duration"] as? Double)
        #expect(abs(Double(frameCount) / 30 - duration) < 0.05)
    }

    @Test func humanOutputIsAnAlignedBlockPerClip() throws {
        let clip = TestEnvironment.sample("iphone-hevc-hdr.mov")
        let result = try TestEnvironment.storyreel(["inspect", clip])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(clip + "\n"))
        for label in [
            "container", "video", "coded size", "display size", "frame rate", "frames", "pixel format",
            "transfer", "HDR", "audio",
        ] {
            #expect(result.stdout.contains("\n  \(label) "), "missing row \(label)")
        }
        #expect(result.stdout.contains("720x1280 (rotation 90°)"))
        #expect(result.stdout.contains("hlg"))
    }
}
