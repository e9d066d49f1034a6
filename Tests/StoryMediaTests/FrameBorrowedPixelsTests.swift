import CFFmpeg
import Testing

@testable import StoryMedia

/// `Frame.borrow(rgba:)`: wide pictures are read in place; narrow ones are copied into a padded
/// buffer of the frame's own, because libswscale's vector readers load 16 bytes at a time and ran
/// past the end of a 2 to 6 pixel wide picture (valgrind, `cube --size 2x2`).
struct FrameBorrowedPixelsTests {
    static func pixels(width: Int, height: Int) -> [UInt8] {
        (0..<width * height * 4).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
    }

    /// An odd width too (17, 165, 719): libswscale reads pixels in pairs, and read 4 bytes past
    /// the end of the last row of a borrowed picture (a valgrind QA pass: the poster of a clip
    /// 165 pixels wide, `thumbnail --width 17`).
    @Test(arguments: [2, 6, 15, 17, 165, 719])
    func aNarrowOrOddWidthPictureIsCopiedWithPadding(width: Int) throws {
        let source = Self.pixels(width: width, height: 3)
        let frame = try Frame()
        try source.withUnsafeBufferPointer { pixels in
            try frame.borrow(rgba: pixels, width: width, height: 3)
            let data = try #require(frame.pointer.pointee.data.0)
            #expect(UnsafeRawPointer(data) != UnsafeRawPointer(pixels.baseAddress!))
            let stride = Int(frame.pointer.pointee.linesize.0)
            #expect(stride >= 16 && stride > width * 4, "room for the pixel past the end")
            for row in 0..<3 {
                let copied = Array(UnsafeBufferPointer(start: data + row * stride, count: width * 4))
                #expect(copied == Array(source[row * width * 4..<(row + 1) * width * 4]))
                let padding = Array(
                    UnsafeBufferPointer(start: data + row * stride + width * 4, count: stride - width * 4))
                #expect(padding.allSatisfy { $0 == 0 }, "the padding is zeroed")
            }
        }
        frame.unref()
        #expect(frame.pointer.pointee.data.0 == nil)
    }

    @Test func aWidePictureIsReadInPlace() throws {
        let source = Self.pixels(width: 16, height: 2)
        let frame = try Frame()
        try source.withUnsafeBufferPointer { pixels in
            try frame.borrow(rgba: pixels, width: 16, height: 2)
            #expect(UnsafeRawPointer(frame.pointer.pointee.data.0!) == UnsafeRawPointer(pixels.baseAddress!))
            #expect(frame.pointer.pointee.linesize.0 == 64)
            frame.unref()
        }
    }

    @Test func aNarrowPictureConvertsToTheSameValuesAsAWideOneOfItsColour() throws {
        // A 2x2 and a 32x2 picture of one colour give the same yuv420p values.
        let colour: [UInt8] = [200, 40, 90, 255]
        let narrow = try VideoClipWriter.yuv420Planes(
            of: RGBAImageBuffer(width: 2, height: 2, pixels: Array([[UInt8]](repeating: colour, count: 4).joined())))
        let wide = try VideoClipWriter.yuv420Planes(
            of: RGBAImageBuffer(width: 32, height: 2, pixels: Array([[UInt8]](repeating: colour, count: 64).joined())))
        #expect(narrow.luma == Array(wide.luma.prefix(4)))
        #expect(narrow.blueChroma == [wide.blueChroma[0]] && narrow.redChroma == [wide.redChroma[0]])
    }
}
