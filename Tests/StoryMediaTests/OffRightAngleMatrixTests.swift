import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryMedia

/// A display matrix that is not a right-angle turn (a 45° one, made with `-metadata:s:v
/// rotate=45`) was snapped to the nearest right angle without a word, where ffprobe says 45 and
/// MediaInfo 315; browsers draw such a clip unturned, so its stills would not match the video.
@Suite struct OffRightAngleMatrixTests {
    @Test func aFortyFiveDegreeMatrixIsReportedAndWarned() throws {
        let folder = try TemporaryFolder()
        let upright = folder.path("upright.mp4")
        let turned = folder.path("turned-45.mp4")
        try HostileFiles.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48:r=30:d=0.2", "-c:v", "libx264", upright])
        try HostileFiles.ffmpeg(["-i", upright, "-c", "copy", "-metadata:s:v:0", "rotate=45", turned])
        let info = try ClipProbe.inspect(path: turned)
        #expect(info.video?.rotation == 270)
        #expect(
            info.warnings == [
                "the display matrix turns the picture by 315°, not a right angle: storyreel shows it turned by 270°, "
                    + "the nearest, and players differ"
            ])
        #expect(try ClipProbe.inspect(path: upright).warnings.isEmpty)
        #expect(DisplayOrientation(matrix: [0, 1 << 16, 0, -(1 << 16), 0, 0, 0, 0, 1 << 30]).unsnappedDegrees == nil)
        // thumbnail says it too (a QA pass: its poster came out turned by 270° in silence).
        let poster = try TestEnvironment.storyreel(["thumbnail", turned, "-o", folder.path("p.png")])
        #expect(poster.status == 0)
        #expect(
            poster.stderr == "storyreel: warning: \(turned): the display matrix turns the picture by 315°, not a right "
                + "angle: storyreel shows it turned by 270°, the nearest, and players differ\n", "\(poster.stderr)")
        let plain = try TestEnvironment.storyreel(["thumbnail", upright, "-o", folder.path("u.png")])
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
    }

    /// From a QA pass: an all-zero matrix (ffprobe: no angle) was read as upright in silence.
    @Test func anAllZeroMatrixIsWarned() throws {
        let folder = try TemporaryFolder()
        var (bytes, matrix) = try uprightClip(in: folder)
        for index in matrix..<matrix + 36 { bytes[index] = 0 }
        let zeroed = folder.path("zero-matrix.mp4")
        try Data(bytes).write(to: URL(fileURLWithPath: zeroed))
        let info = try ClipProbe.inspect(path: zeroed)
        #expect(info.video?.rotation == 0)
        #expect(
            info.warnings == [
                "the display matrix is degenerate (all zeros, or it flattens the picture to a line): storyreel shows "
                    + "the picture upright, and players may show nothing"
            ])
        #expect(DisplayOrientation(matrix: [Int32](repeating: 0, count: 9)).isDegenerate)
        #expect(!DisplayOrientation(matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1 << 30]).isDegenerate, "scaled down, not flat")
    }

    /// From a QA pass: a shear ([1 0; 1 1]) was read as upright in silence. Turns, mirrors and
    /// scales are not skews.
    @Test func aSkewingMatrixIsWarned() throws {
        let folder = try TemporaryFolder()
        var (bytes, matrix) = try uprightClip(in: folder)
        // Entry c (the second row's first), 1.0 in 16.16: [1 0; 1 1].
        bytes.replaceSubrange((matrix + 12)..<(matrix + 16), with: [0, 1, 0, 0])
        let skewed = folder.path("skewed.mp4")
        try Data(bytes).write(to: URL(fileURLWithPath: skewed))
        let info = try ClipProbe.inspect(path: skewed)
        #expect(
            info.warnings == [
                "the display matrix skews the picture (it is not a turn or a mirror): storyreel shows it turned by 0°, "
                    + "and players differ"
            ], "\(info.warnings)")
        let one: Int32 = 1 << 16
        for turnOrMirror in [
            [0, one, 0, -one, 0, 0, 0, 0, 1 << 30], [-one, 0, 0, 0, one, 0, 0, 0, 1 << 30],
            [2 * one, 0, 0, 0, one, 0, 0, 0, 1 << 30], [46341, 46341, 0, -46341, 46341, 0, 0, 0, 1 << 30],
        ] {
            #expect(!DisplayOrientation(matrix: turnOrMirror).isSkewed, "\(turnOrMirror)")
        }
        #expect(DisplayOrientation(matrix: [one, 0, 0, one, one, 0, 0, 0, 1 << 30]).isSkewed)
        // [1 0.5; 0 1]: its first row reads as a 27° turn; the skew's warning alone is given (a
        // QA pass: both were).
        bytes.replaceSubrange((matrix + 12)..<(matrix + 16), with: [0, 0, 0, 0])
        bytes.replaceSubrange((matrix + 4)..<(matrix + 8), with: [0, 0, 0x80, 0])
        try Data(bytes).write(to: URL(fileURLWithPath: skewed))
        let half = try ClipProbe.inspect(path: skewed)
        #expect(half.warnings.count == 1 && half.warnings[0].hasPrefix("the display matrix skews"), "\(half.warnings)")
    }

    /// A small upright clip's bytes, and where its `tkhd` display matrix starts in them.
    private func uprightClip(in folder: TemporaryFolder) throws -> (bytes: [UInt8], matrix: Int) {
        let upright = folder.path("upright.mp4")
        try HostileFiles.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48:r=30:d=0.2", "-c:v", "libx264", upright])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: upright)))
        let atom = try #require(Data(bytes).range(of: Data("tkhd".utf8))?.lowerBound)
        // After 'tkhd': version and flags, times, track ID, reserved, duration, reserved, layer,
        // group, volume, reserved (40 bytes in version 0, 52 in 1), then the 9 matrix entries.
        return (bytes, atom + 4 + (bytes[atom + 4] == 1 ? 52 : 40))
    }
}
