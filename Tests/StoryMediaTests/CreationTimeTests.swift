import Testing

@testable import StoryMedia

/// `creationTime` is an ISO 8601 moment that can exist, or null: a tag written by hand was
/// passed on as it was, `2099-13-45T99:99:99Z` included (a QA pass).
@Suite struct CreationTimeTests {
    @Test func momentsThatExistArePassedOnAsTheyAre() {
        for text in [
            "2024-05-01T12:00:00.000000Z", "2024-02-29T23:59:59Z", "2000-02-29T00:00:00Z", "1904-01-01T00:00:00Z",
            "2016-12-31T23:59:60Z", "2024-05-01T12:00:00+02:00", "2024-05-01T12:00:00.5-07:30",
        ] {
            #expect(CreationTime.validated(text) == text, "\(text)")
        }
    }

    /// Apple writes its offsets without the colon (`com.apple.quicktime.creationdate`): a QA pass
    /// found `2024-05-06T07:08:09+0200` reported as no creation time. It is given back with the
    /// colon, as JSON readers' ISO 8601 parsers (RFC 3339) take it.
    @Test func anOffsetWithoutItsColonIsAMomentWrittenWithIt() {
        #expect(CreationTime.validated("2024-05-06T07:08:09+0200") == "2024-05-06T07:08:09+02:00")
        #expect(CreationTime.validated("2024-05-06T07:08:09.25-0730") == "2024-05-06T07:08:09.25-07:30")
        for text in ["2024-05-06T07:08:09+2400", "2024-05-06T07:08:09+020", "2024-05-06T07:08:09+02000"] {
            #expect(CreationTime.validated(text) == nil, "\(text)")
        }
    }

    /// From an inspect QA pass: FFmpeg wrote the `mvhd` time as `2012-05-01 12:00:00` before
    /// 2016, a time in UTC, as every `mvhd` time is; MediaInfo reads it so, and storyreel gave
    /// null. A leap second counts only where one was added (2024-12-31T23:59:60Z was taken).
    @Test func aTimeWithASpaceOrNoZoneIsInUTCAndALeapSecondMustHaveHappened() {
        #expect(CreationTime.validated("2012-05-01 12:00:00") == "2012-05-01T12:00:00Z")
        #expect(CreationTime.validated("2024-05-01T10:11:12") == "2024-05-01T10:11:12Z")
        #expect(CreationTime.validated("2024-05-01 10:11:12.5+0200") == "2024-05-01T10:11:12.5+02:00")
        #expect(CreationTime.validated("2015-06-30T23:59:60.5Z") == "2015-06-30T23:59:60.5Z")
        #expect(CreationTime.validated("2017-01-01T00:59:60+01:00") == "2017-01-01T00:59:60+01:00")
        #expect(CreationTime.validated("1972-06-30T19:59:60-04:00") == "1972-06-30T19:59:60-04:00")
        #expect(CreationTime.daysSinceEpoch(year: 1970, month: 1, day: 1) == 0)
        #expect(CreationTime.daysSinceEpoch(year: 2000, month: 3, day: 1) == 11017)
        #expect(CreationTime.daysSinceEpoch(year: 1904, month: 1, day: 1) == -24107)
    }

    @Test func anythingElseIsNone() {
        for text in [
            "2099-13-45T99:99:99Z", "2023-02-29T12:00:00Z", "1900-02-29T12:00:00Z", "2024-04-31T12:00:00Z",
            "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z", "2024-05-01", "2024-05-01_12:00:00Z",
            "2024-05-01T12:00:00.Z", "2024-05-01T12:00:00Zjunk", "2024-5-1T12:00:00Z", "yesterday", "",
            "2024-05-01T12:00:00+24:00", "٢٠٢٤-05-01T12:00:00Z", "2024-12-31T23:59:60Z", "2016-12-31T23:58:60Z",
            "2016-12-31T23:59:60+01:00", "2024-05-01T12:00:00 ",
        ] {
            #expect(CreationTime.validated(text) == nil, "\(text)")
        }
        #expect(CreationTime.validated(nil) == nil)
    }

    /// `8.4` is profile 8, compatibility 4; compatibility 10 read as profile 9 (a QA pass).
    @Test func aDolbyVisionCompatibilityIdTheNumberCannotHoldLeavesTheProfileAlone() {
        #expect(ClipProbe.dolbyVisionProfile((profile: 8, compatibilityID: 4)) == 8.4)
        #expect(ClipProbe.dolbyVisionProfile((profile: 5, compatibilityID: 0)) == 5)
        #expect(ClipProbe.dolbyVisionProfile((profile: 8, compatibilityID: 10)) == 8)
        #expect(ClipProbe.dolbyVisionProfile((profile: 127, compatibilityID: 15)) == 127)
    }
}
