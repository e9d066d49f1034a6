import Foundation
import StoryMedia

/// A contact sheet of a transition: five evenly spaced frames side by side, each scaled to
/// 240 pixels high, built while the frames stream past and written as one PNG.
public final class Filmstrip {
    /// How many frames the strip shows.
    public static let tileCount = 5
    /// The height of every tile (and of the strip) in pixels.
    public static let tileHeight = 240

    /// The frame indices shown, left to right: `round(i × (N − 1) / 4)` for i = 0…4.
    public let frameIndices: [Int]
    /// The width of one tile: `round(240 × width / height)`.
    public let tileWidth: Int
    /// The strip's width: five tiles.
    public var width: Int { tileWidth * Filmstrip.tileCount }
    /// The strip's height.
    public var height: Int { Filmstrip.tileHeight }

    private let resizer: RGBAResizer
    private var pixels: [UInt8]

    /// A strip for `frameCount` frames of `frameWidth` × `frameHeight`. Throws `.unsupported`
    /// when the strip would be wider than an image storyreel writes (``problem(frameWidth:frameHeight:)``).
    public init(frameCount: Int, frameWidth: Int, frameHeight: Int) throws {
        precondition(frameCount > 0, "a filmstrip needs frames")
        if let problem = Filmstrip.problem(frameWidth: frameWidth, frameHeight: frameHeight) {
            throw MediaError(.unsupported, problem)
        }
        frameIndices = Filmstrip.frameIndices(frameCount: frameCount)
        tileWidth = Filmstrip.tileWidth(frameWidth: frameWidth, frameHeight: frameHeight)
        resizer = try RGBAResizer(
            sourceWidth: frameWidth, sourceHeight: frameHeight, width: tileWidth, height: Filmstrip.tileHeight)
        pixels = [UInt8](repeating: 0, count: tileWidth * Filmstrip.tileCount * Filmstrip.tileHeight * 4)
    }

    /// The width of one tile for frames of `frameWidth` × `frameHeight`.
    static func tileWidth(frameWidth: Int, frameHeight: Int) -> Int {
        max(1, Int((Double(Filmstrip.tileHeight) * Double(frameWidth) / Double(max(1, frameHeight))).rounded()))
    }

    /// Why a strip of frames of `frameWidth` × `frameHeight` cannot be written (wider than
    /// ``PixelBudget/maximumSide``: a canvas more than about 6.8 times as wide as it is high), or
    /// nil. Checked before any work: the strip was refused only once every frame was rendered.
    public static func problem(frameWidth: Int, frameHeight: Int) -> String? {
        let width = tileWidth(frameWidth: frameWidth, frameHeight: frameHeight) * tileCount
        guard width > PixelBudget.maximumSide else { return nil }
        return "a filmstrip of a \(frameWidth)x\(frameHeight) canvas would be \(width)x\(tileHeight), over storyreel's "
            + "limit of \(PixelBudget.maximumSide) pixels a side; give a less wide --size, or no --filmstrip"
    }

    /// Indices of five evenly spaced frames out of `frameCount`, first and last included.
    public static func frameIndices(frameCount: Int) -> [Int] {
        (0..<tileCount).map { Int((Double($0 * (frameCount - 1)) / Double(tileCount - 1)).rounded()) }
    }

    /// Offers frame `index` (RGBA, the size given at init); it is kept when the strip shows it.
    public func offer(frame index: Int, rgba: UnsafeBufferPointer<UInt8>) throws {
        let slots = frameIndices.indices.filter { frameIndices[$0] == index }
        guard !slots.isEmpty else { return }
        let tile = try resizer.resize(rgba)
        let rowBytes = tileWidth * 4
        let stripRowBytes = width * 4
        pixels.withUnsafeMutableBytes { strip in
            tile.pixels.withUnsafeBytes { source in
                for slot in slots {
                    for row in 0..<Filmstrip.tileHeight {
                        (strip.baseAddress! + row * stripRowBytes + slot * rowBytes)
                            .copyMemory(from: source.baseAddress! + row * rowBytes, byteCount: rowBytes)
                    }
                }
            }
        }
    }

    /// The strip so far, as a picture.
    public var image: RGBAImageBuffer { RGBAImageBuffer(width: width, height: height, pixels: pixels) }

    /// The strip as PNG bytes.
    public func pngData() throws -> Data { try ImageEncoder.encode(image, format: .png) }
}
