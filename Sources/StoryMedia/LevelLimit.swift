/// The largest picture the H.264 and HEVC levels allow: level 6.2's 139,264 macroblocks of
/// 16×16 pixels (35,651,584 pixels, 8192x4352), which HEVC's level 6.2 matches in luma
/// samples. libx264 and libx265 encode a larger picture all the same (libx264 tags it level
/// 6.2, libx265 255, no level); software decoders play it, and decoders in hardware (a
/// phone's) may refuse it.
public enum LevelLimit {
    /// The largest picture, in 16×16 macroblocks.
    public static let largestPictureMacroblocks = 139_264

    /// A warning for a `width` × `height` clip over the largest level, or nil when a level holds it.
    public static func warning(width: Int, height: Int) -> String? {
        let columns = width / 16 + (width % 16 == 0 ? 0 : 1)
        let rows = height / 16 + (height % 16 == 0 ? 0 : 1)
        let (macroblocks, overflow) = columns.multipliedReportingOverflow(by: rows)
        guard overflow || macroblocks > largestPictureMacroblocks else { return nil }
        return "a \(width)x\(height) clip is over the largest picture of any H.264 or HEVC level (139,264 blocks "
            + "of 16x16 pixels, such as 8192x4352): players that decode in hardware (phones) may refuse it; give a "
            + "smaller --size"
    }
}
