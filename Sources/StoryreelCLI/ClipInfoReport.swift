import Foundation
import StoryMedia

/// The human-readable `inspect` block for one clip: aligned label/value rows.
enum ClipInfoReport {
    /// The block for `info`, ending with a newline; every line of it is one line of text.
    static func text(_ info: ClipInfo) -> String {
        var rows: [(String, String)] = []
        let duration = info.duration.map { String(format: "%.3f s", $0) } ?? "unknown duration"
        let brand = info.majorBrand.map { " (\($0.trimmingCharacters(in: .whitespaces)))" } ?? ""
        var container = "\(info.container)\(brand), \(duration), \(byteCount(info.size))"
        if let bitRate = info.bitRate { container += ", " + Self.bitRate(bitRate) }
        rows.append(("container", container))
        if let video = info.video {
            // The codecs string (the tag, then the profile and level: `avc1.64001f`) and the
            // stream's own rate, as ffprobe and MediaInfo give them (a QA pass: both were in the
            // JSON only, and a person read the container's rate, audio included, as the video's).
            let profile = video.profile.map { " (\($0))" } ?? ""
            let codecs = video.codecs.isEmpty ? video.codecTag : video.codecs
            let streamRate = video.bitRate.map { ", " + Self.bitRate($0) } ?? ""
            rows.append(("video", "\(video.codec)\(profile)" + (codecs.isEmpty ? "" : ", \(codecs)") + streamRate))
            rows.append(("coded size", "\(video.width)x\(video.height)"))
            let mirror = video.mirrored ? ", mirrored" : ""
            rows.append(
                ("display size", "\(video.displayWidth)x\(video.displayHeight) (rotation \(video.rotation)°\(mirror))"))
            // An unknown rate is not called constant (a QA pass: "unknown rate, constant (CFR)").
            let rate =
                video.frameRate.map {
                    Self.frameRate($0) + ", " + (video.variableFrameRate ? "variable (VFR)" : "constant (CFR)")
                } ?? (video.variableFrameRate ? "unknown, variable (VFR)" : "unknown")
            rows.append(("frame rate", rate))
            rows.append(("frames", "\(video.frameCount)"))
            let depth = video.bitDepth.map { ", \($0)-bit" } ?? ""
            rows.append(("pixel format", "\(video.pixelFormat ?? "unknown")\(depth)"))
            // The HDR transfer's common name beside FFmpeg's (a QA pass: `arib-std-b67`, where
            // MediaInfo says HLG).
            let transferName = ["arib-std-b67": " (HLG)", "smpte2084": " (PQ)"][video.colorTransfer ?? ""] ?? ""
            rows.append(("transfer", (video.colorTransfer ?? "unspecified") + transferName))
            rows.append(("primaries", video.colorPrimaries ?? "unspecified"))
            rows.append(("matrix", video.colorSpace ?? "unspecified"))
            let range = video.colorRange.map { $0 == "pc" ? "pc (full)" : $0 == "tv" ? "tv (limited)" : $0 }
            rows.append(("range", range ?? "unspecified"))
            var hdr = video.hdr
            if let profile = video.dolbyVisionProfile { hdr += " (Dolby Vision \(dolbyVisionLabel(profile)))" }
            rows.append(("HDR", hdr))
            // HDR10's light metadata, as MediaInfo gives it (an inspect QA pass: only `pq`).
            if let light = video.lightMetadata {
                if let display = light.masteringDisplay {
                    let luminance = [display.minLuminance, display.maxLuminance].map { $0.map(Self.luminance) ?? "?" }
                    let range =
                        display.minLuminance == nil && display.maxLuminance == nil
                        ? nil : luminance.joined(separator: "–") + " cd/m²"
                    let gamut = display.gamut ?? (display.primaries == nil ? nil : "custom primaries")
                    rows.append(("mastering", [gamut, range].compactMap { $0 }.joined(separator: ", ")))
                }
                let levels = [
                    light.maxContentLightLevel.map { "MaxCLL \($0)" },
                    light.maxFrameAverageLightLevel.map { "MaxFALL \($0)" },
                ].compactMap { $0 }
                if !levels.isEmpty { rows.append(("light level", levels.joined(separator: ", ") + " cd/m²")) }
            }
        } else {
            rows.append(("video", "none"))
        }
        if let audio = info.audio {
            // The codecs string, as the video row gives it; the layout and the language, and the
            // other tracks, as ffprobe and MediaInfo show them (an inspect QA pass: a second
            // track, in French, was nowhere in the block).
            var text = audio.codec + (audio.codecs.map { ", \($0)" } ?? "")
            text += ", \(audio.sampleRate) Hz, \(audio.channels) channel\(audio.channels == 1 ? "" : "s")"
            if let layout = audio.channelLayout { text += " (\(layout))" }
            if let language = audio.language { text += ", \(language)" }
            if audio.trackCount > 1 { text += "; the first enabled of \(audio.trackCount) audio tracks" }
            rows.append(("audio", text))
        } else {
            rows.append(("audio", "none"))
        }
        if let created = info.creationTime { rows.append(("created", created)) }
        let appleTags = [
            ("make", "com.apple.quicktime.make"), ("model", "com.apple.quicktime.model"),
            ("software", "com.apple.quicktime.software"), ("creation date", "com.apple.quicktime.creationdate"),
            ("location", "com.apple.quicktime.location.ISO6709"),
        ]
        // Other cameras' make and model, where Apple's keys are not there: the plain tags
        // (Canon, Sony, ffmpeg's `-metadata make=`) and Android's (an inspect QA pass: in the JSON
        // only).
        let fallbacks = [
            "com.apple.quicktime.make": ["make", "com.android.manufacturer"],
            "com.apple.quicktime.model": ["model", "com.android.model"],
        ]
        for (label, key) in appleTags {
            if let value = ([key] + (fallbacks[key] ?? [])).lazy.compactMap({ info.tags[$0] }).first {
                rows.append((label, value))
            }
        }
        // ffmpeg's and Android's cameras write the place as the plain `location` tag (a QA pass:
        // shown only in the JSON).
        if info.tags["com.apple.quicktime.location.ISO6709"] == nil, let place = info.tags["location"] {
            rows.append(("location", place))
        }
        for warning in info.warnings { rows.append(("warning", warning)) }
        let width = rows.map(\.0.count).max() ?? 0
        // The path and the values from the file (tags, warnings) are escaped: each stays one line.
        let lines = rows.map {
            "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + Console.escaped($0.1)
        }
        return Console.escaped(info.path) + "\n" + lines.joined(separator: "\n") + "\n"
    }

    /// A frame rate to the thousandth, or, below what that shows (frames hours apart, as a
    /// corrupt time table gives), to three significant digits: an inspect QA pass read
    /// `0.000 fps, constant (CFR)`, where ffprobe's rate is 15360/2147483647.
    static func frameRate(_ rate: Double) -> String {
        rate > 0 && rate < 0.0005 ? String(format: "%.3g fps", rate) : String(format: "%.3f fps", rate)
    }

    /// A luminance in cd/m² as MediaInfo writes it: `1000`, `0.0001`, `0.005` (at most four
    /// decimals, no trailing zeros).
    static func luminance(_ value: Double) -> String {
        var text = String(format: "%.4f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `1976 kb/s`, or `107 b/s` below 1 kb/s (a QA pass: an hour of a still picture read `0 kb/s`).
    static func bitRate(_ bitsPerSecond: Int) -> String {
        bitsPerSecond < 1000 ? "\(bitsPerSecond) b/s" : String(format: "%.0f kb/s", Double(bitsPerSecond) / 1000)
    }

    /// `999 bytes`, `1.5 kB`, `12.3 MB`, `5.0 GB`: the unit is picked after rounding to one
    /// decimal, so 999,960 bytes is `1.0 MB` (a QA pass: `1000.0 kB`, and 5 GB as `5000.0 MB`).
    static func byteCount(_ bytes: UInt64) -> String {
        let value = Double(bytes)
        for (unit, scale) in [("GB", 1e9), ("MB", 1e6), ("kB", 1e3)] where value >= scale * 0.999_95 {
            return String(format: "%.1f \(unit)", value / scale)
        }
        return "\(bytes) bytes"
    }

    /// `8.4` for profile 8 with base-layer compatibility 4, and the profile alone, `8` or `5`,
    /// where the JSON has a whole number (no compatible base layer, or an id of 10 or more). A
    /// QA pass: `%.1f` showed those as `8.0` and `5.0`, a compatibility id of 0 the file does
    /// not have.
    static func dolbyVisionLabel(_ profile: Double) -> String {
        profile == profile.rounded(.down) && abs(profile) < 1e15
            ? String(Int(profile)) : String(format: "%.1f", profile)
    }
}
