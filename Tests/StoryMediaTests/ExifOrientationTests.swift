import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryMedia

/// A JPEG or PNG still (an avatar, a cube face) carrying an EXIF orientation comes out upright,
/// as a browser shows it: the same pixels as the ffmpeg CLI's decode of the stored picture turned
/// by the matching `transpose`/flip filter.
@Suite struct ExifOrientationTests {
    let folder: TemporaryFolder
    init() throws {
        folder = try TemporaryFolder()
    }

    /// EXIF orientation → the ffmpeg filter that turns the stored picture upright.
    static let uprightFilters: [(orientation: UInt16, filter: String)] = [
        (2, "hflip"), (3, "hflip,vflip"), (4, "vflip"), (5, "transpose=0"), (6, "transpose=1"),
        (7, "transpose=3"), (8, "transpose=2"),
    ]

    /// A TIFF structure with a one-entry IFD0: Orientation (0x0112, SHORT, 1) = `orientation`.
    static func tiff(orientation: UInt16, bigEndian: Bool = false) -> [UInt8] {
        func field(_ value: Int, bytes: Int) -> [UInt8] {
            let littleEndian = (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            return bigEndian ? littleEndian.reversed() : littleEndian
        }
        let byteOrder: [UInt8] = bigEndian ? Array("MM".utf8) : Array("II".utf8)
        var tiff: [UInt8] = byteOrder + field(42, bytes: 2) + field(8, bytes: 4)
        tiff += field(1, bytes: 2)  // one IFD entry
        tiff += field(0x0112, bytes: 2) + field(3, bytes: 2) + field(1, bytes: 4)  // Orientation, SHORT, 1
        tiff += field(Int(orientation), bytes: 2) + [0, 0]  // the value, left-justified in 4 bytes
        tiff += field(0, bytes: 4)  // no next IFD
        return tiff
    }

    /// The PNG chunk CRC (CRC-32 of type and data, ISO 3309).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A 160 × 96 PNG made by ffmpeg, and a copy with an `eXIf` chunk (CRC and all) right after
    /// `IHDR`, as browsers read it.
    func makePNGs(orientation: UInt16) throws -> (plain: String, oriented: String) {
        let plain = folder.path("plain.png")
        let made = try TestEnvironment.run(
            "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x96", "-frames:v", "1", plain])
        guard made.status == 0 else { throw TestFailure("ffmpeg could not make a PNG: \(made.stderr)") }
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        let afterHeader = 8 + 4 + 4 + 13 + 4  // signature, then IHDR's length, type, data and CRC
        #expect(png.count > afterHeader && Array(png[12..<16]) == Array("IHDR".utf8))
        let data = Self.tiff(orientation: orientation)
        let typed = Array("eXIf".utf8) + data
        let crc = Self.crc32(typed)
        let length = UInt32(data.count)
        var chunk: [UInt8] = (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * (3 - $0))) }
        chunk += typed
        chunk += (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * (3 - UInt32($0)))) }
        let bytes: [UInt8] = Array(png.prefix(afterHeader)) + chunk + Array(png.dropFirst(afterHeader))
        let oriented = try folder.write("oriented-\(orientation).png", Data(bytes))
        return (plain, oriented)
    }

    /// A 160 × 96 JPEG made by ffmpeg (which writes no EXIF), and a copy of it with an APP1
    /// segment right after SOI holding a one-entry IFD0: Orientation (0x0112, SHORT) =
    /// `orientation`, in the byte order `bigEndian` picks.
    func makeJPEGs(orientation: UInt16, bigEndian: Bool = false) throws -> (plain: String, oriented: String) {
        let plain = folder.path("plain.jpg")
        let made = try TestEnvironment.run(
            "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x96", "-frames:v", "1", plain])
        guard made.status == 0 else { throw TestFailure("ffmpeg could not make a JPEG: \(made.stderr)") }
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        let tiff = Self.tiff(orientation: orientation, bigEndian: bigEndian)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        let bytes: [UInt8] = Array(jpeg.prefix(2)) + app1 + Array(jpeg.dropFirst(2))
        let oriented = try folder.write("oriented-\(orientation).jpg", Data(bytes))
        return (plain, oriented)
    }

    @Test(arguments: uprightFilters.map(\.orientation))
    func orientedJPEGComesOutUpright(orientation: UInt16) throws {
        let (plain, oriented) = try makeJPEGs(orientation: orientation)
        let image = try expectUpright(oriented, matching: plain, orientation: orientation)
        // The stored picture is not symmetric, so a still left as stored would fail the check.
        let stored = try PixelComparison.ffmpegImage(
            plain, width: 160, height: 96, options: PixelComparison.mediaLayerScaling)
        if orientation < 5 { #expect(PixelComparison.psnr(image.pixels, stored) < 25) }
    }

    @Test(arguments: uprightFilters.map(\.orientation))
    func orientedPNGComesOutUpright(orientation: UInt16) throws {
        let (plain, oriented) = try makePNGs(orientation: orientation)
        try expectUpright(oriented, matching: plain, orientation: orientation)
    }

    /// Loads the `oriented` still and checks it against the `plain` one turned upright by
    /// ffmpeg's filter for `orientation`: sides swapped for 5–8, PSNR ≥ 40 dB. Returns the still.
    @discardableResult
    private func expectUpright(_ oriented: String, matching plain: String, orientation: UInt16) throws
        -> RGBAImageBuffer
    {
        let filter = try #require(Self.uprightFilters.first { $0.orientation == orientation }?.filter)
        let image = try StillImage.load(path: oriented)
        let swaps = orientation >= 5
        #expect(image.width == (swaps ? 96 : 160) && image.height == (swaps ? 160 : 96))
        let reference = try PixelComparison.ffmpegImage(
            plain, width: image.width, height: image.height,
            options: PixelComparison.mediaLayerScaling + ["-vf", filter])
        #expect(PixelComparison.psnr(image.pixels, reference) >= 40, "orientation \(orientation)")
        return image
    }

    /// A PNG's orientation turns into the very display matrix the mjpeg decoder attaches to a
    /// JPEG with the same orientation.
    @Test(arguments: uprightFilters.map(\.orientation))
    func pngOrientationMatrixIsTheMJPEGDecoders(orientation: UInt16) throws {
        let (_, jpeg) = try makeJPEGs(orientation: orientation)
        let file = try InputFile(path: jpeg, family: .stillImage)
        let stream = try #require(file.bestStream(.video))
        let frame = try Frame()
        #expect(try VideoFrameReader(stream: stream, threads: 1).next(into: frame))
        let decoders = try #require(frame.displayMatrix)
        #expect(ExifOrientation(value: Int(orientation))?.displayMatrix == decoders)
        #expect(ExifOrientation(value: 1)?.displayMatrix == nil)
    }

    @Test func malformedExifGivesNoOrientation() {
        let good = Self.tiff(orientation: 6)
        #expect(ExifOrientation(tiff: good)?.value == 6)
        #expect(ExifOrientation(tiff: Self.tiff(orientation: 6, bigEndian: true))?.value == 6)
        #expect(ExifOrientation(tiff: Self.tiff(orientation: 9)) == nil)
        #expect(ExifOrientation(tiff: Self.tiff(orientation: 0)) == nil)
        #expect(ExifOrientation(tiff: []) == nil)
        #expect(ExifOrientation(tiff: Array(good.prefix(12))) == nil, "cut inside the entry")
        var badOrder = good
        badOrder[0] = 0x41
        #expect(ExifOrientation(tiff: badOrder) == nil)
        var farDirectory = good
        farDirectory.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])  // IFD0 at 4 GB
        #expect(ExifOrientation(tiff: farDirectory) == nil)
        var manyEntries = good
        manyEntries.replaceSubrange(8..<10, with: [0xFF, 0xFF])  // 65535 entries, one present
        #expect(ExifOrientation(tiff: manyEntries)?.value == 6)
        var longType = good
        longType.replaceSubrange(12..<14, with: [4, 0])  // LONG, not SHORT
        #expect(ExifOrientation(tiff: longType) == nil)
    }

    /// From a cube QA pass: a JPEG's orientation was libavcodec's reading, from the last `Exif`
    /// APP1 segment and from the Exif sub-IFD too, where browsers, and the PNG path, take IFD0
    /// of the first; and a PNG `eXIf` chunk failing its CRC, which libpng drops, was applied.
    @Test func theOrientationIsReadAsBrowsersReadIt() throws {
        let (plain, _) = try makeJPEGs(orientation: 1)
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        func app1(_ tiff: [UInt8]) -> [UInt8] {
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            return [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        // IFD0 holds only an ExifIFD pointer (0x8769, LONG, at 26); the sub-IFD holds Orientation 6.
        var subIFD: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0, 1, 0, 0x69, 0x87, 4, 0, 1, 0, 0, 0, 26, 0, 0, 0]
        subIFD += [0, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
        let cases: [(name: String, segments: [UInt8], width: Int)] = [
            ("sub-ifd.jpg", app1(subIFD), 160),
            ("first-wins.jpg", app1(Self.tiff(orientation: 6)) + app1(Self.tiff(orientation: 3)), 96),
        ]
        for (name, segments, width) in cases {
            let path = try folder.write(name, Data(Array(jpeg.prefix(2)) + segments + Array(jpeg.dropFirst(2))))
            #expect(try StillImage.load(path: path).width == width, "\(name)")
        }
        let (_, png) = try makePNGs(orientation: 6)
        #expect(try StillImage.load(path: png).width == 96)
        var corrupt = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
        let exif = try #require(corrupt.firstRange(of: Array("eXIf".utf8)))
        corrupt[exif.upperBound + Self.tiff(orientation: 6).count] ^= 0xFF  // the chunk's CRC
        let badCRC = try folder.write("bad-crc.png", Data(corrupt))
        #expect(try StillImage.load(path: badCRC).width == 160)
    }

    @Test func bigEndianExifIsReadToo() throws {
        let (plain, oriented) = try makeJPEGs(orientation: 6, bigEndian: true)
        let image = try StillImage.load(path: oriented)
        #expect(image.width == 96 && image.height == 160)
        let reference = try PixelComparison.ffmpegImage(
            plain, width: 96, height: 160, options: PixelComparison.mediaLayerScaling + ["-vf", "transpose=1"])
        #expect(PixelComparison.psnr(image.pixels, reference) >= 40)
    }

    @Test func orientedFaceIsFilledAfterTurningUpright() throws {
        let (plain, oriented) = try makeJPEGs(orientation: 6)
        // Upright the photo is 96 × 160 (portrait): filling a 60 × 60 face scales it to 60 × 100
        // and keeps the middle 60 rows.
        let face = try StillImage.load(path: oriented, size: .fill(width: 60, height: 60))
        #expect(face.width == 60 && face.height == 60)
        let upright = try PixelComparison.ffmpegImage(
            plain, width: 60, height: 100,
            options: PixelComparison.mediaLayerScaling + ["-vf", "transpose=1,scale=60:100"])
        let rowBytes = 60 * 4
        let middle = Array(upright[(20 * rowBytes)..<(80 * rowBytes)])
        #expect(PixelComparison.psnr(face.pixels, middle) >= 30)
    }
}
