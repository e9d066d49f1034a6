import Testing

@testable import StoryPipeline

/// Which clips `render` and `ingest` say few players play, from the codec and its RFC 6381
/// codecs string: only what phones and browsers do not decode, never a clip they do.
@Suite struct PlaybackConcernTests {
    @Test(
        arguments: [
            ("h264", "avc1.42e01e", nil), ("h264", "avc1.64001f", nil), ("h264", "avc1.6e001e", "H.264 High 10"),
            ("h264", "avc1.f4001e", "H.264 High 4:4:4"), ("hevc", "hvc1.1.6.L93.90", nil),
            ("hevc", "hvc1.2.4.L120.90", nil), ("hevc", "hev1.1.6.L93.90", "HEVC tagged hev1"),
            ("hevc", "hvc1.4.10.L93.90", "HEVC range extensions"), ("vp9", "vp09.00.20.08", nil),
            ("vp9", "vp09.02.20.10", nil), ("vp9", "vp09.01.20.08", "VP9 profile 1"),
            ("av1", "av01.0.04M.08", nil), ("av1", "av01.1.04M.08", "AV1 High"), ("prores", "prores", "ProRes"),
            ("mjpeg", "mjpeg", "Motion JPEG"),
        ] as [(String, String, String?)])
    func fewPlayersPlayOnlyWhatPhonesAndBrowsersDoNotDecode(codec: String, codecs: String, expected: String?) {
        let concern = ClipRecord.playbackConcern(codec: codec, codecs: codecs)
        if let expected {
            #expect(concern?.hasPrefix("\(expected) (\(codecs))") == true, "\(concern ?? "none")")
        } else {
            #expect(concern == nil)
        }
    }

    /// Dolby Vision without a base layer other players show (profile 5, or a reserved
    /// compatibility id, which the number cannot hold) is named; 8.1, 8.4 and 7.6 are not.
    @Test func dolbyVisionWithoutACompatibleBaseLayerIsNamed() {
        for (profile, named) in [(5.0, true), (8.0, true), (10.0, true), (8.4, false), (8.1, false), (7.6, false)] {
            let concern = ClipRecord.playbackConcern(
                codec: "hevc", codecs: "hvc1.2.4.L120.90", dolbyVisionProfile: profile)
            #expect((concern != nil) == named, "\(profile): \(concern ?? "none")")
        }
        #expect(ClipRecord.playbackConcern(codec: "hevc", codecs: "hvc1.2.4.L120.90", dolbyVisionProfile: nil) == nil)
        #expect(
            ClipRecord.playbackConcern(codec: "hevc", codecs: "hvc1.2.4.L120.90", dolbyVisionProfile: 5)?.hasPrefix(
                "Dolby Vision profile 5 (hvc1.2.4.L120.90) has no base layer other players can show") == true)
    }
}
