import StoryMedia
import StoryreelKit

/// The size storyreel writes each kind of image at, worked out once for the worker that makes
/// it and for the checks that take a file under its name as storyreel's (`render` without its
/// ledger) or as whole (`validate`).
enum ImageSize {
    /// The `width` × `height` of the image of `kind` made from a picture shown at `picture`
    /// (a clip's display size) on `canvas`: a poster is the picture shrunk to fit the canvas, a
    /// thumbnail is ``RenderOptions/thumbnailWidth`` wide, a still fills the canvas, an avatar is
    /// ``RenderOptions/avatarSize`` square. Nil for clips and transitions, and when a size it
    /// depends on is not one render makes (a hand-edited manifest's canvas of `Int.min`, whose
    /// own fault `validate` reports once rather than at every image).
    static func of(
        _ kind: WorkUnit.Kind, picture: (width: Int, height: Int), canvas: (width: Int, height: Int)
    ) -> Manifest.Size? {
        guard kind == .avatar || isCanvas(canvas) else { return nil }
        switch kind {
        case .poster, .thumbnail:
            let sides = 1...PixelBudget.maximumSide
            guard sides.contains(picture.width), sides.contains(picture.height) else { return nil }
            let size = frameSize(of: kind, picture: picture, canvas: canvas)
                .outputSize(displayWidth: picture.width, displayHeight: picture.height)
            return Manifest.Size(width: size.width, height: size.height)
        case .firstFrame, .lastFrame:
            return Manifest.Size(width: canvas.width, height: canvas.height)
        case .avatar:
            return avatar
        case .clip, .transition:
            return nil
        }
    }

    /// True when `canvas` is one render can make (2 to 8192 pixels a side, as the schema says).
    static func isCanvas(_ canvas: (width: Int, height: Int)) -> Bool {
        let sides = 2...PixelBudget.maximumSide
        return sides.contains(canvas.width) && sides.contains(canvas.height)
    }

    /// An avatar's size, whatever it is made from: ``RenderOptions/avatarSize`` square.
    static let avatar = Manifest.Size(width: RenderOptions.avatarSize, height: RenderOptions.avatarSize)

    /// How far a file's size may be from ``of(_:picture:canvas:)`` for it to be taken as that image:
    /// a poster and a thumbnail are sized from the frame decoded for them, which can differ from
    /// the clip's header by a pixel (a cropped or non-square picture); stills and avatars not.
    static func tolerance(of kind: WorkUnit.Kind) -> Int {
        kind == .poster || kind == .thumbnail ? 2 : 0
    }

    /// How the worker asks the media layer for the poster or the thumbnail of a clip shown at
    /// `picture` (its display size), so that the picture is scaled once, from the decoded frame:
    /// ``of(_:picture:canvas:)``'s size, relative to the frame's own display size.
    static func pictureSize(
        of kind: WorkUnit.Kind, picture: (width: Int, height: Int), canvas: (width: Int, height: Int)
    ) -> FrameSize {
        guard of(kind, picture: picture, canvas: canvas) != nil else { return .original }
        return frameSize(of: kind, picture: picture, canvas: canvas)
    }

    /// How a poster or a thumbnail is scaled from a picture of `picture`: the poster only when
    /// it is larger than the canvas, along the side that binds.
    private static func frameSize(
        of kind: WorkUnit.Kind, picture: (width: Int, height: Int), canvas: (width: Int, height: Int)
    ) -> FrameSize {
        guard kind == .poster else {
            // A picture over 45 times as tall as it is wide (16x1080) would make a 180-wide
            // thumbnail taller than any picture storyreel makes, and the clip was skipped for it
            // (a QA pass): it is as tall as that limit allows instead.
            let thumbnail = FrameSize.width(RenderOptions.thumbnailWidth)
            let height = thumbnail.outputSize(displayWidth: picture.width, displayHeight: picture.height).height
            return height > PixelBudget.maximumSide ? .height(PixelBudget.maximumSide) : thumbnail
        }
        guard picture.width > canvas.width || picture.height > canvas.height else { return .original }
        let widthLimited =
            Double(canvas.width) / Double(picture.width) <= Double(canvas.height) / Double(picture.height)
        return widthLimited ? .width(canvas.width) : .height(canvas.height)
    }
}
