import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// The RFC 6381 codecs string `inspect` reports (and the manifest lists) matches the one built
/// from the stream's own parameter sets as ffmpeg's `trace_headers` bitstream filter prints
/// them: the SPS's profile_idc, constraint flags and level_idc for H.264, the VPS's
/// profile_tier_level for HEVC (ISO/IEC 14496-15 Annex E).
@Suite struct CodecsStringTests {
    /// The syntax elements of the first parameter set ffmpeg traces: name, bits and value.
    static func tracedFields(_ path: String) throws -> [(name: String, bits: String, value: Int)] {
        let result = try TestEnvironment.run(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "debug", "-i", path, "-map", "0:v:0", "-c:v", "copy", "-bsf:v",
                "trace_headers", "-frames:v", "1", "-f", "null", "-",
            ])
        var fields: [(String, String, Int)] = []
        for line in result.stderr.split(separator: "\n") where line.hasPrefix("[trace_headers") {
            let parts = line.split(separator: "]", maxSplits: 1).last?.split(separator: " ") ?? []
            // "OFFSET NAME BITS = VALUE"
            guard parts.count == 5, Int(parts[0]) != nil, parts[3] == "=", let value = Int(parts[4]) else { continue }
            let name = String(parts[1])
            if name == "forbidden_zero_bit", !fields.isEmpty { break }  // the next NAL unit
            fields.append((name, String(parts[2]), value))
        }
        return fields
    }

    /// The codecs string built by hand from the traced fields.
    static func expectedCodecs(_ path: String, tag: String) throws -> String? {
        let fields = try tracedFields(path)
        func value(_ name: String) -> Int? { fields.first { $0.name == name }?.value }
        func hex(_ value: Int) -> String { String(format: "%02x", value) }
        if let profile = value("profile_idc"), let level = value("level_idc") {
            let first = try #require(fields.firstIndex { $0.name == "constraint_set0_flag" })
            let last = try #require(fields.firstIndex { $0.name == "level_idc" })
            let bits = fields[first..<last].map(\.bits).joined()
            #expect(bits.count == 8)
            return "avc1." + hex(profile) + hex(Int(bits, radix: 2) ?? -1) + hex(level)
        }
        guard let space = value("general_profile_space"), let tier = value("general_tier_flag"),
            let profile = value("general_profile_idc"), let level = value("general_level_idc")
        else { return nil }
        var compatibility = 0
        for flag in 0..<32 where value("general_profile_compatibility_flag[\(flag)]") == 1 {
            compatibility |= 1 << flag
        }
        let first = try #require(fields.firstIndex { $0.name == "general_profile_compatibility_flag[31]" }) + 1
        let last = try #require(fields.firstIndex { $0.name == "general_level_idc" })
        let bits = fields[first..<last].map(\.bits).joined()
        #expect(bits.count == 48)
        var bytes = stride(from: 0, to: 48, by: 8).map { start in
            Int(String(bits.dropFirst(start).prefix(8)), radix: 2) ?? 0
        }
        while bytes.last == 0 { bytes.removeLast() }
        return "\(tag).\(["", "A", "B", "C"][space])\(profile).\(String(compatibility, radix: 16, uppercase: true))."
            + "\(tier == 1 ? "H" : "L")\(level)" + bytes.map { "." + String($0, radix: 16, uppercase: true) }.joined()
    }

    @Test(arguments: (TestEnvironment.sampleClips + TestEnvironment.storyClips).map(\.path))
    func codecsMatchTheTracedParameterSets(_ path: String) throws {
        let video = try #require(try ClipProbe.inspect(path: path).video)
        let expected = try #require(try Self.expectedCodecs(path, tag: video.codecTag), "no parameter set traced")
        #expect(video.codecs == expected)
    }

    @Test func theSamplesCoverBothCodecs() throws {
        let hevc = try #require(
            try ClipProbe.inspect(path: TestEnvironment.samples.path + "/iphone-hevc-hdr.mov").video)
        #expect(hevc.codecs.hasPrefix("hvc1.2.4.L"), "Main 10, compatible with Main 10 only: \(hevc.codecs)")
        let probe = try TestEnvironment.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=profile,level", "-of", "csv=p=0",
                TestEnvironment.samples.path + "/sixty-fps.mp4",
            ])
        let h264 = try #require(try ClipProbe.inspect(path: TestEnvironment.samples.path + "/sixty-fps.mp4").video)
        let level = Int(probe.stdout.split(separator: ",").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        #expect(probe.stdout.hasPrefix("High,"), "\(probe.stdout)")
        #expect(h264.codecs == "avc1.6400" + String(format: "%02x", level ?? -1), "High is profile_idc 100 (0x64)")
    }

    @Test func fallbacksWithoutAConfigurationRecord() {
        #expect(CodecsString.make(codec: "h264", tag: "avc1", extradata: [], profile: 77, level: 30) == "avc1.4d001e")
        #expect(CodecsString.make(codec: "hevc", tag: "hvc1", extradata: [], profile: 1, level: 93) == "hvc1.1.2.L93")
        #expect(CodecsString.make(codec: "prores", tag: "apch", extradata: [], profile: 3, level: -1) == "prores")
        // Annex B extradata: the SPS after a start code.
        let annexB: [UInt8] = [0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x1E, 0xAB]
        #expect(CodecsString.make(codec: "h264", tag: "", extradata: annexB, profile: -1, level: -1) == "avc1.42c01e")
        // MPEG-4 Part 2: the visual object sequence header's byte (Simple Profile level 1 is 1,
        // Advanced Simple level 5 is 245), else the profile and level, else nothing.
        let sequence: [UInt8] = [0, 0, 1, 0xB0, 0xF5, 0, 0, 1, 0xB5, 0x89]
        #expect(
            CodecsString.make(codec: "mpeg4", tag: "mp4v", extradata: sequence, profile: -99, level: -99)
                == "mp4v.20.245")
        #expect(
            CodecsString.make(codec: "mpeg4", tag: "mp4v", extradata: [0, 0, 1, 0xB0], profile: 0, level: 1)
                == "mp4v.20.1")
        #expect(CodecsString.make(codec: "mpeg4", tag: "mp4v", extradata: [], profile: -99, level: -99) == "mp4v.20")
        // A truncated record never crashes.
        for size in 0..<13 {
            _ = CodecsString.make(
                codec: "hevc", tag: "hvc1", extradata: Array(repeating: 1, count: size), profile: -1,
                level: -1)
        }
    }

    /// AAC's string names the audio object type its AudioSpecificConfig begins with: five bits,
    /// or 31 and six more (ISO/IEC 14496-3 §1.6.2.1); FFmpeg's profile stands in without one.
    @Test func aacNamesTheObjectTypeOfItsConfig() {
        func aac(_ config: [UInt8], profile: Int = -99) -> String? {
            CodecsString.audio(codec: "aac", sampleRate: 44100, extradata: config, profile: profile)
        }
        #expect(aac([0x12, 0x10]) == "mp4a.40.2")  // AAC-LC, 44.1 kHz, stereo
        #expect(aac([0x2B, 0x92, 0x08, 0x00]) == "mp4a.40.5")  // HE-AAC signalled explicitly
        #expect(aac([0xEB, 0x09, 0x88]) == "mp4a.40.29")  // HE-AAC v2 (PS)
        #expect(aac([0xF8, 0xE0]) == "mp4a.40.39")  // 31, then 7: ER AAC ELD
        #expect(aac([0xF9, 0x40]) == "mp4a.40.42")  // 31, then 10: USAC
        #expect(aac([0xF8]) == "mp4a.40", "an escape cut short")
        #expect(aac([], profile: 1) == "mp4a.40.2", "FF_PROFILE_AAC_LOW")
        #expect(aac([], profile: 4) == "mp4a.40.5", "FF_PROFILE_AAC_HE")
        #expect(aac([]) == "mp4a.40")
        #expect(aac([0x00]) == "mp4a.40", "object type 0 is none")
        #expect(CodecsString.audio(codec: "mp3", sampleRate: 48000, extradata: [], profile: -99) == "mp4a.6B")
        #expect(CodecsString.audio(codec: "mp3", sampleRate: 24000, extradata: [], profile: -99) == "mp4a.69")
        #expect(CodecsString.audio(codec: "pcm_s16le", sampleRate: 48000, extradata: [], profile: -99) == nil)
    }
}
