import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryMedia

/// ``BitstreamColour`` reads a file's bytes: every cut and every garbling of a real decoder
/// configuration record gives an answer or nil, never a trap.
@Suite struct BitstreamColourTests {
    /// The `avcC` or `hvcC` record of `clip`, cut out of the file by its box.
    func record(_ box: String, of clip: String) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))
        let found = try #require(Data(bytes).range(of: Data(box.utf8))?.lowerBound)
        let size = bytes[(found - 4)..<found].reduce(0) { $0 << 8 | Int($1) }
        return Array(bytes[(found + 4)..<(found - 4 + size)])
    }

    @Test func theSamplesVUIsAreRead() throws {
        let avc = try record("avcC", of: TestEnvironment.sample("portrait-h264.mp4"))
        let h264 = try #require(BitstreamColour.read(.h264, extradata: avc))
        #expect(h264.fullRange == false && h264.transfer == 1 && h264.primaries == 1 && h264.matrix == 1, "\(h264)")
        let hvc = try record("hvcC", of: TestEnvironment.sample("iphone-hevc-hdr.mov"))
        let hevc = try #require(BitstreamColour.read(.hevc, extradata: hvc))
        // HLG (18), BT.2020 primaries (9) and its non-constant matrix (9), limited range.
        #expect(hevc.fullRange == false && hevc.transfer == 18 && hevc.primaries == 9 && hevc.matrix == 9, "\(hevc)")
    }

    @Test func cutOrGarbledRecordsNeverTrap() throws {
        let records: [(BitstreamColour.Codec, [UInt8])] = [
            (.h264, try record("avcC", of: TestEnvironment.sample("portrait-h264.mp4"))),
            (.hevc, try record("hvcC", of: TestEnvironment.sample("iphone-hevc-hdr.mov"))),
        ]
        var generator = SystemRandomNumberGenerator()
        for (codec, bytes) in records {
            for length in 0..<bytes.count { _ = BitstreamColour.read(codec, extradata: Array(bytes[..<length])) }
            for _ in 0..<2000 {
                var garbled = bytes
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    garbled[Int.random(in: 0..<garbled.count, using: &generator)] = UInt8.random(in: 0...255)
                }
                _ = BitstreamColour.read(codec, extradata: garbled)
            }
            _ = BitstreamColour.read(codec, extradata: [1] + [UInt8](repeating: 0xFF, count: 64))
            _ = BitstreamColour.read(codec, extradata: [0, 0, 1] + [UInt8](repeating: 0, count: 64))
        }
    }
}
