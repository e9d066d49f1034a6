import CFFmpeg

/// How a stored picture is turned to display upright, from the display-matrix side data.
public struct DisplayOrientation: Sendable, Equatable {
    /// Clockwise degrees to turn the stored picture to display it upright: 0, 90, 180 or 270.
    /// This is (−display-matrix rotation) mod 360: ffprobe prints −90 for an iPhone portrait
    /// clip, whose rotation here is 90.
    public var rotation: Int
    /// True when the picture is also mirrored left to right (applied before turning).
    public var mirrored: Bool
    /// The clockwise turn the display matrix asks for, 0..<360 degrees, when it is not a right
    /// angle (a 45° matrix): ``rotation`` is then the nearest right angle, as storyreel shows it
    /// (players differ). Nil for a right angle.
    public var unsnappedDegrees: Double?
    /// True when the display matrix turns no picture (all zeros, or one that flattens it to a
    /// line): ffprobe gives it no angle; ``rotation`` is then 0.
    public var isDegenerate = false
    /// True when the display matrix skews the picture (its rows are not at right angles: a shear),
    /// which no turn or mirror does; ``rotation`` is then the angle of its first row.
    public var isSkewed = false

    /// No turn, no mirror.
    public static let upright = DisplayOrientation(rotation: 0, mirrored: false)

    /// Makes an orientation from its parts.
    public init(rotation: Int, mirrored: Bool, unsnappedDegrees: Double? = nil) {
        self.rotation = rotation
        self.mirrored = mirrored
        self.unsnappedDegrees = unsnappedDegrees
    }

    /// Reads an orientation from a display matrix of 9 fixed-point values (a stream's, or a
    /// decoded frame's, such as the mjpeg decoder makes of a JPEG's EXIF orientation).
    init(matrix: [Int32]) {
        let copy = Array(matrix.prefix(9)) + [Int32](repeating: 0, count: max(0, 9 - matrix.count))
        // A mirroring matrix is the turn after a left-to-right mirror: its angle is the turn's,
        // read with the mirror taken off (the stored x axis, entries a and b, negated). Read as
        // it is, a plain left-to-right mirror gave 180°, and an upside-down flip 0°.
        let determinant = Int64(copy[0]) * Int64(copy[4]) - Int64(copy[1]) * Int64(copy[3])
        var turn = copy
        if determinant < 0 {
            turn[0] = copy[0] == Int32.min ? Int32.max : -copy[0]
            turn[1] = copy[1] == Int32.min ? Int32.max : -copy[1]
        }
        let degrees = turn.withUnsafeMutableBufferPointer { av_display_rotation_get($0.baseAddress!) }
        self.init(matrix: copy, counterClockwiseDegrees: degrees)
        // A turn or a mirror keeps the rows [a b] and [c d] at right angles (a shear such as
        // [1 0; 1 1] does not, and read as upright in silence: a QA pass).
        let (a, b, c, d) = (Double(copy[0]), Double(copy[1]), Double(copy[3]), Double(copy[4]))
        let rowLengths = (a * a + b * b).squareRoot() * (c * c + d * d).squareRoot()
        isSkewed = !isDegenerate && abs(a * c + b * d) > 0.01 * rowLengths
    }

    /// Reads an orientation from a display matrix and FFmpeg's `av_display_rotation_get` angle.
    init(matrix: [Int32], counterClockwiseDegrees: Double) {
        let determinant = Int64(matrix[0]) * Int64(matrix[4]) - Int64(matrix[1]) * Int64(matrix[3])
        mirrored = determinant < 0
        guard counterClockwiseDegrees.isFinite, determinant != 0 else {
            rotation = 0
            isDegenerate = true
            return
        }
        let rounded = Int((-counterClockwiseDegrees / 90).rounded()) * 90
        rotation = ((rounded % 360) + 360) % 360
        let clockwise = (-counterClockwiseDegrees).truncatingRemainder(dividingBy: 360)
        let offBy = abs(-counterClockwiseDegrees - Double(rounded))
        unsnappedDegrees = offBy > 1 ? (clockwise < 0 ? clockwise + 360 : clockwise) : nil
    }

    /// True when the turn swaps width and height.
    public var swapsDimensions: Bool { rotation == 90 || rotation == 270 }

    /// What a person should hear of a display matrix that is not a plain turn or mirror (all
    /// zeros, a skew, an angle that is not a right one), as `inspect` and `thumbnail` say it;
    /// empty for a plain one.
    public var warnings: [String] {
        var warnings: [String] = []
        if isDegenerate {
            // All zeros: ffprobe's rotation is NaN, and a player may draw nothing (a QA pass).
            warnings.append(
                "the display matrix is degenerate (all zeros, or it flattens the picture to a line): storyreel shows "
                    + "the picture upright, and players may show nothing")
        }
        if isSkewed {
            warnings.append(
                "the display matrix skews the picture (it is not a turn or a mirror): storyreel shows it turned by "
                    + "\(rotation)°, and players differ")
        } else if let degrees = unsnappedDegrees {
            // Else: a skew's angle is its first row's, and the skew's warning says it all (a QA
            // pass: both were given).
            warnings.append(
                "the display matrix turns the picture by \(Int(degrees.rounded()))°, not a right angle: storyreel "
                    + "shows it turned by \(rotation)°, the nearest, and players differ")
        }
        return warnings
    }
}
