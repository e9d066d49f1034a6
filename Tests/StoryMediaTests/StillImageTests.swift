import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// PNG and JPEG stills decode to the pictures the ffmpeg CLI sees, through their own demuxer
/// whitelist, and are filled to a canvas by scaling and centre-cropping.
@Suite struct StillImageTests {
    let folder: TemporaryFolder
    init() throws {
        FFmpegLog.silence()  // broken stills are meant to make FFmpeg complain
        folder = try TemporaryFolder()
    }

    func makeStill(_ name: String, size: String = "160x120") throws -> String {
        let path = folder.path(name)
        let made = try TestEnvironment.run(
            "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(size)", "-frames:v", "1", path])
        guard made.status == 0 else { throw TestFailure("ffmpeg could not make \(name): \(made.stderr)") }
        return path
    }

    /// A JPEG of more scans than an encoder writes is refused before it is decoded. From an
    /// audit: each scan of a progressive JPEG is decoded over the whole picture and no deadline
    /// reaches the decoder, so a 1.1 MB avatar.jpg of 10,000 scans took 119 s at --timeout 5.
    @Test func aJPEGOfMoreScansThanAnEncoderWritesIsRefused() throws {
        let fine = folder.path("progressive.jpg")
        try HostileFiles.progressiveJPEG(acScans: 10).write(to: URL(fileURLWithPath: fine))
        let image = try StillImage.load(path: fine)
        #expect(image.width == 504 && image.height == 8)
        // A phone's Motion Photo appends an MP4 after the picture's end, whose bytes hold FF DA
        // pairs at random: not scans (a review: a 6 MB one was refused).
        let motion = folder.path("motion.jpg")
        let trailer = (0..<300).flatMap { [0xFF, 0xDA, UInt8(truncatingIfNeeded: $0), 0x42] as [UInt8] }
        try (HostileFiles.progressiveJPEG(acScans: 10) + Data(trailer)).write(to: URL(fileURLWithPath: motion))
        #expect(try StillImage.load(path: motion).width == 504)
        // Scans inside a segment FFmpeg's decoder steps into (FF F0, JPG0) are decoded, and
        // counted (a review hid 149 there).
        let one = HostileFiles.progressiveJPEG(acScans: 1)
        let none = HostileFiles.progressiveJPEG(acScans: 0)
        let scan = one[(none.count - 2)..<(one.count - 2)]
        let hiddenScans = Data(repeating: 0, count: 0) + Array(repeating: scan, count: 101).flatMap { $0 }
        let wrapped =
            none.prefix(none.count - 2)
            + Data([0xFF, 0xF0, UInt8((hiddenScans.count + 2) >> 8), UInt8((hiddenScans.count + 2) & 0xFF)])
            + hiddenScans + Data([0xFF, 0xD9])
        let hidden = folder.path("hidden.jpg")
        try wrapped.write(to: URL(fileURLWithPath: hidden))
        #expect(throws: MediaError.self) { _ = try StillImage.load(path: hidden) }
        let bomb = folder.path("scans.jpg")
        try HostileFiles.progressiveJPEG(acScans: 100).write(to: URL(fileURLWithPath: bomb))
        #expect(throws: MediaError.self) { _ = try StillImage.load(path: bomb) }
        // As an MJPEG clip's frame too (a re-audit: a 2.1 MB clip of one 20,000-scan frame took
        // 38 s at --timeout 5).
        let clip = folder.path("scans.mov")
        try HostileFiles.ffmpeg(["-i", bomb, "-c:v", "copy", clip])
        let thumbnail = try TestEnvironment.storyreel(["thumbnail", clip, "-o", folder.path("poster.jpg")])
        #expect(thumbnail.status == 65, "\(thumbnail.stderr)")
        #expect(thumbnail.stderr.contains(": a JPEG of more than 100 scans"), "\(thumbnail.stderr)")
        do {
            _ = try StillImage.load(path: bomb)
        } catch let error as MediaError {
            #expect(error.kind == .invalidMedia)
            #expect(error.reason.hasPrefix("a JPEG of more than 100 scans"), "\(error)")
        }
    }

    @Test(arguments: ["still.png", "still.jpg"])
    func stillMatchesFFmpegDecode(name: String) throws {
        let path = try makeStill(name)
        let image = try StillImage.load(path: path)
        #expect(image.width == 160 && image.height == 120)
        let reference = try PixelComparison.ffmpegImage(
            path, width: 160, height: 120, options: PixelComparison.mediaLayerScaling)
        #expect(PixelComparison.psnr(image.pixels, reference) >= 40)
    }

    /// An RGB still keeps its colours, scaled or not, at 8 and 16 bits: libswscale scaled RGB
    /// through a YUV of its own with BT.601 in and BT.709 out, so a red of 253 came out 230 in
    /// every scaled PNG face and avatar, and in every 16-bit PNG (a QA pass; about 27 dB).
    @Test(arguments: ["rgb24", "rgba", "rgb48be", "rgba64be"])
    func pngStillsKeepTheirColoursScaledOrNot(pixelFormat: String) throws {
        let path = folder.path("still-\(pixelFormat).png")
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120", "-frames:v", "1", "-pix_fmt",
                pixelFormat, path,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        for (width, height) in [(160, 120), (80, 60)] {
            let image = try StillImage.load(path: path, size: .fill(width: width, height: height))
            let reference = try PixelComparison.ffmpegImage(
                path, width: width, height: height,
                options: PixelComparison.mediaLayerScaling + ["-vf", "scale=\(width):\(height)"])
            #expect(PixelComparison.psnr(image.pixels, reference) >= 40, "\(pixelFormat) at \(width)x\(height)")
        }
    }

    /// Transparency is drawn over black, the cube's background (a JPEG avatar or poster has no
    /// alpha either): a fully transparent PNG came out as the red stored under its pixels.
    @Test func transparentPixelsAreDrawnOverBlack() throws {
        for (alpha, expected) in [("0.0", [0, 0, 0]), ("0.5", [128, 0, 0]), ("1.0", [255, 0, 0])] {
            let path = folder.path("red-\(alpha).png")
            let made = try TestEnvironment.run(
                "ffmpeg",
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i", "color=0xFF0000@\(alpha):s=32x32,format=rgba",
                    "-frames:v", "1", path,
                ])
            try #require(made.status == 0, "\(made.stderr)")
            let image = try StillImage.load(path: path)
            let pixel = Array(image.pixels[(16 * 32 + 16) * 4..<(16 * 32 + 16) * 4 + 4]).map(Int.init)
            #expect(zip(pixel.prefix(3), expected).allSatisfy { abs($0 - $1) <= 1 }, "alpha \(alpha): \(pixel)")
            #expect(pixel[3] == 255)
        }
    }

    /// The colour stored under transparent pixels does not bleed into the visible ones when the
    /// picture is scaled (a QA pass of stills: an orange-brown fringe between a transparent red
    /// half and an opaque green one, on cube faces and avatars). Red is nowhere in the picture as
    /// drawn over black, so no pixel of the scaled one has more than rounding gives (1).
    @Test func transparentPixelsDoNotBleedWhenScaled() throws {
        let path = folder.path("edge.png")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "color=0xFF0000@0.0:s=32x48,format=rgba", "-f", "lavfi", "-i",
            "color=0x00C000:s=32x48,format=rgba", "-filter_complex", "[0][1]hstack", "-frames:v", "1", path,
        ])
        for size in [FrameSize.fill(width: 640, height: 480), .fill(width: 16, height: 12), .original] {
            let image = try StillImage.load(path: path, size: size)
            let reds = stride(from: 0, to: image.pixels.count, by: 4).map { Int(image.pixels[$0]) }
            #expect(reds.max() ?? 0 <= 2, "\(size): red up to \(reds.max() ?? -1)")
            let greens = stride(from: 1, to: image.pixels.count, by: 4).map { Int(image.pixels[$0]) }
            #expect(greens.max() ?? 0 >= 0xB0, "\(size): the green half shows")
        }
    }

    /// A JPEG coding FFmpeg does not implement (arithmetic, SOF9) is refused as what it is: its
    /// decoder's bare -1 read "Operation not permitted", a permissions problem (a QA pass).
    @Test func aJPEGCodingTheDecoderDoesNotImplementIsSaidSo() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try makeStill("baseline.jpg"))))
        let frame = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[frame + 1] = 0xC9
        let arithmetic = try folder.write("arithmetic.jpg", Data(bytes))
        #expect {
            try StillImage.load(path: arithmetic)
        } throws: {
            let error = $0 as? MediaError
            return error?.kind == .invalidMedia
                && error?.reason
                    == "cannot decode: the mjpeg decoder refused the data (a coding it does not implement, or damage)"
        }
    }

    /// A flat grey 8x8 JPEG of 12-bit samples (extended sequential, one block, DC only): `level`
    /// of 4095.
    static func twelveBitGreyJPEG(level: Int) -> Data {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        // A flat block's DC coefficient is 8 × (level − 2048), quantised by 1: category 14.
        let dc = 8 * (level - 2048)
        let magnitude = dc < 0 ? dc + (1 << 14) - 1 : dc
        let bits = [1, 0] + (0..<14).reversed().map { magnitude >> $0 & 1 } + [0]  // DC '10', 14 bits, EOB '0'
        let padded = bits + Array(repeating: 1, count: (8 - bits.count % 8) % 8)
        let entropy = stride(from: 0, to: padded.count, by: 8).flatMap { start -> [UInt8] in
            let byte = UInt8(padded[start..<start + 8].reduce(0) { $0 << 1 | $1 })
            return byte == 0xFF ? [0xFF, 0x00] : [byte]
        }
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xDB, [0x00] + Array(repeating: 1, count: 64))
        bytes += segment(0xC1, [12, 0, 8, 0, 8, 1, 0x01, 0x11, 0x00])  // 12 bits, 8x8, one component
        bytes += segment(0xC4, [0x00, 1, 1] + Array(repeating: 0, count: 14) + [0x00, 0x0E])  // DC: '0' 0, '10' 14
        bytes += segment(0xC4, [0x10, 1] + Array(repeating: 0, count: 15) + [0x00])  // AC: '0' is EOB
        bytes += segment(0xDA, [0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]) + entropy
        return Data(bytes + [0xFF, 0xD9])
    }

    /// JPEG is full range whatever its sample precision: a 12-bit grey JPEG, which FFmpeg decodes
    /// to `gray16le` with no range, was read as limited range (a QA pass of stills: 52 came out
    /// 42). The ffmpeg CLI reads it as storyreel now does.
    @Test func aTwelveBitGreyJPEGIsFullRange() throws {
        let path = try folder.write("grey12.jpg", Self.twelveBitGreyJPEG(level: 832))
        let image = try StillImage.load(path: path)
        #expect(image.width == 8 && image.height == 8)
        let expected = (832 * 255 + 2047) / 4095  // 52
        #expect(abs(Int(image.pixels[(4 * 8 + 4) * 4]) - expected) <= 1, "\(image.pixels.prefix(4))")
        let peer = try TestEnvironment.run(
            "ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        #expect(peer.status == 0, "\(peer.stderr)")
        #expect(abs(Int(peer.stdout.utf8.first.map { Int($0) } ?? -99) - expected) <= 1, "the ffmpeg CLI's reading")
    }

    @Test func fillScalesToCoverAndCropsTheMiddle() throws {
        let path = try makeStill("wide.png", size: "320x120")
        let image = try StillImage.load(path: path, size: .fill(width: 60, height: 60))
        #expect(image.width == 60 && image.height == 60)
        let original = try StillImage.load(path: path)
        // 320x120 → 160x60, then the middle 60 columns (50..<110).
        let reference = try StillImage.load(path: path, size: .fill(width: 160, height: 60))
        #expect(reference.width == 160)
        let cropped = reference.centreCropped(width: 60, height: 60)
        #expect(cropped == image)
        #expect(original.centreCropped(width: 320, height: 120) == original)
    }

    @Test func stillOfTheCanvasSizeIsUsedAsIs() throws {
        let path = try makeStill("exact.png")
        #expect(try StillImage.load(path: path, size: .fill(width: 160, height: 120)) == StillImage.load(path: path))
    }

    @Test func garbageAndEmptyFilesAreInvalidMedia() throws {
        let garbage = try folder.write("garbage.png", Data((0..<2048).map { UInt8(truncatingIfNeeded: $0 * 7919) }))
        #expect { try StillImage.load(path: garbage) } throws: { ($0 as? MediaError)?.kind == .invalidMedia }
        let empty = try folder.write("empty.jpg", Data())
        #expect { try StillImage.load(path: empty) } throws: { ($0 as? MediaError)?.kind == .invalidMedia }
        var truncated = try Data(contentsOf: URL(fileURLWithPath: try makeStill("cut.png")))
        truncated = truncated.prefix(40)
        let cut = try folder.write("truncated.png", truncated)
        #expect { try StillImage.load(path: cut) } throws: { ($0 as? MediaError)?.kind == .invalidMedia }
    }

    /// A still cut short (an interrupted upload) is refused, as a clip's truncated upload is,
    /// rather than decoded to its top rows over a flat fill. (The old decoder concealed the
    /// missing rows of a JPEG and gave a picture.)
    @Test(arguments: ["cut.jpg", "cut.png"])
    func truncatedStillIsInvalidMedia(name: String) throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: try makeStill(name, size: "320x240")))
        let path = try folder.write("short-" + name, whole.prefix(whole.count / 2))
        #expect(throws: MediaError.self) { try StillImage.load(path: path) }
        do {
            _ = try StillImage.load(path: path)
        } catch let error as MediaError {
            #expect(error.kind == .invalidMedia && error.path == path, "\(error)")
        }
        #expect(try StillImage.load(path: folder.path(name)).width == 320, "the whole still decodes")
    }

    @Test func missingStillIsMissingInput() throws {
        #expect { try StillImage.load(path: folder.path("nope.png")) } throws: {
            ($0 as? MediaError)?.kind == .missingInput
        }
    }

    @Test func clipsAndStillsDoNotCrossWhitelists() throws {
        let png = try makeStill("picture.png")
        let disguised = folder.path("picture.mov")
        try FileManager.default.copyItem(atPath: png, toPath: disguised)
        #expect { try InputFile(path: disguised) } throws: { ($0 as? MediaError)?.kind == .invalidMedia }
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        #expect { try StillImage.load(path: clip) } throws: { ($0 as? MediaError)?.kind == .invalidMedia }
    }

    @Test func stillPathsAreRecognisedByExtension() {
        #expect(StillImage.isStillPath("a/b/FACE.PNG"))
        #expect(StillImage.isStillPath("x.jpeg"))
        #expect(!StillImage.isStillPath("clip.mov"))
        #expect(!StillImage.isStillPath("folder.png/clip"))
    }
}
