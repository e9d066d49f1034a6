import CFFmpeg

/// An HDR clip's static light metadata, as MediaInfo reports it: the display it was mastered on
/// (SMPTE ST 2086) and its content light levels (CTA-861.3, MaxCLL and MaxFALL). HDR10 carries
/// them in the container (`mdcv`, `clli`) or in SEI messages of the bitstream, which only a
/// decoded frame gives.
public struct HDRLightMetadata: Sendable, Equatable {
    /// The mastering display: its primaries and white point as CIE 1931 xy, and its luminance
    /// range in cd/m²; each nil where the metadata leaves it out.
    public struct MasteringDisplay: Sendable, Equatable {
        /// Red, green and blue, each `[x, y]`.
        public var primaries: [[Double]]?
        /// `[x, y]`.
        public var whitePoint: [Double]?
        /// The name of the standard gamut these primaries and white point are (`BT.2020`,
        /// `Display P3`, `DCI-P3`, `BT.709`), within 0.002, or nil.
        public var gamut: String?
        /// The darkest the display shows, in cd/m².
        public var minLuminance: Double?
        /// The brightest the display shows, in cd/m².
        public var maxLuminance: Double?
    }

    /// The mastering display, or nil when the clip gives none.
    public var masteringDisplay: MasteringDisplay?
    /// The brightest pixel of the content (MaxCLL), in cd/m², or nil.
    public var maxContentLightLevel: Int?
    /// The brightest frame average of the content (MaxFALL), in cd/m², or nil.
    public var maxFrameAverageLightLevel: Int?

    /// The metadata side data gives, or nil when it gives neither part: `mastering` holds an
    /// `AVMasteringDisplayMetadata`'s bytes, `light` an `AVContentLightMetadata`'s (each nil when
    /// absent, and passed over when too short for its struct).
    init?(mastering: [UInt8]?, light: [UInt8]?) {
        if let mastering, mastering.count >= MemoryLayout<AVMasteringDisplayMetadata>.size {
            masteringDisplay = MasteringDisplay(
                mastering.withUnsafeBytes { $0.loadUnaligned(as: AVMasteringDisplayMetadata.self) })
        }
        if let light, light.count >= MemoryLayout<AVContentLightMetadata>.size {
            let levels = light.withUnsafeBytes { $0.loadUnaligned(as: AVContentLightMetadata.self) }
            // 0 is "unknown" in CTA-861.3.
            maxContentLightLevel = levels.MaxCLL > 0 ? Int(levels.MaxCLL) : nil
            maxFrameAverageLightLevel = levels.MaxFALL > 0 ? Int(levels.MaxFALL) : nil
        }
        if masteringDisplay == nil && maxContentLightLevel == nil && maxFrameAverageLightLevel == nil { return nil }
    }

    /// The standard gamuts a mastering display is named by: red, green, blue and white, xy.
    static let gamuts: [(name: String, points: [[Double]])] = [
        ("BT.2020", [[0.708, 0.292], [0.170, 0.797], [0.131, 0.046], [0.3127, 0.3290]]),
        ("Display P3", [[0.680, 0.320], [0.265, 0.690], [0.150, 0.060], [0.3127, 0.3290]]),
        ("DCI-P3", [[0.680, 0.320], [0.265, 0.690], [0.150, 0.060], [0.314, 0.351]]),
        ("BT.709", [[0.640, 0.330], [0.300, 0.600], [0.150, 0.060], [0.3127, 0.3290]]),
    ]
}

extension HDRLightMetadata.MasteringDisplay {
    /// The display `metadata` describes, or nil when it has neither primaries nor luminance.
    /// A value whose denominator is not above 0 (a hostile file) is left out.
    init?(_ metadata: AVMasteringDisplayMetadata) {
        func value(_ rational: AVRational) -> Double? {
            rational.den > 0 && rational.num >= 0 ? Double(rational.num) / Double(rational.den) : nil
        }
        if metadata.has_primaries != 0 {
            let rows = withUnsafeBytes(of: metadata.display_primaries) { raw in
                (0..<3).map { colour in
                    (0..<2).map { axis in raw.load(fromByteOffset: (colour * 2 + axis) * 8, as: AVRational.self) }
                }
            }
            let points = rows.map { $0.compactMap(value) }
            let white = [value(metadata.white_point.0), value(metadata.white_point.1)].compactMap { $0 }
            if points.allSatisfy({ $0.count == 2 }), white.count == 2 {
                primaries = points
                whitePoint = white
                gamut =
                    HDRLightMetadata.gamuts.first { gamut in
                        zip(gamut.points, points + [white]).allSatisfy { expected, given in
                            zip(expected, given).allSatisfy { abs($0 - $1) <= 0.002 }
                        }
                    }?.name
            }
        }
        if metadata.has_luminance != 0 {
            minLuminance = value(metadata.min_luminance)
            maxLuminance = value(metadata.max_luminance)
        }
        if primaries == nil && minLuminance == nil && maxLuminance == nil { return nil }
    }
}
