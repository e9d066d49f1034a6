import CubeRender
import Foundation

/// A slow, obviously correct renderer written straight from the normative rule of "Cube transition spec v1":
/// one inverse mapping per screen pixel, all in `Double`, bilinear sampling with clamp-to-edge, shading on RGB.
struct ReferenceCubeRenderer {
    /// The face shown before the transition.
    let from: RGBAImage
    /// The face shown after the transition.
    let to: RGBAImage
    /// The transition parameters.
    let spec: CubeTransitionSpec

    /// Renders output frame `k`: forward frame `k` of (from, to), or for a backward spec forward frame
    /// `N - 1 - k` of (to, from).
    func render(frame k: Int) -> RGBAImage {
        let count = spec.frameCount
        let forwardFrame = spec.direction == .forward ? k : count - 1 - k
        let t = Double(forwardFrame + 1) / Double(count + 1)
        let p = spec.easing.progress(at: t)
        return spec.direction == .forward
            ? render(progress: p, outgoing: from, incoming: to)
            : render(progress: p, outgoing: to, incoming: from)
    }

    /// Renders the forward-geometry frame at progress `p` with the faces assigned the way `CubeRenderer`
    /// assigns them for this spec's direction.
    func render(progress p: Double) -> RGBAImage {
        spec.direction == .forward
            ? render(progress: p, outgoing: from, incoming: to)
            : render(progress: p, outgoing: to, incoming: from)
    }

    /// Renders the forward-geometry frame at progress `p`: `outgoing` turns away about the hinge, `incoming`
    /// turns in.
    func render(progress p: Double, outgoing: RGBAImage, incoming: RGBAImage) -> RGBAImage {
        let width = Double(spec.width)
        let height = Double(spec.height)
        let distance = spec.perspective * width
        let hinge = width * (1 - p)
        let outgoingAngle = Double.pi / 2 * p
        let incomingAngle = Double.pi / 2 * (1 - p)
        var bytes = [UInt8](repeating: 0, count: spec.width * spec.height * 4)
        for y in 0..<spec.height {
            for x in 0..<spec.width {
                let offset = (y * spec.width + x) * 4
                bytes[offset + 3] = 255
                let xs = Double(x) + 0.5
                let ys = Double(y) + 0.5
                let delta = xs - hinge
                let face: RGBAImage
                let depth: Double
                let u: Double
                let angle: Double
                if delta <= 0 {
                    // Δ == 0 belongs to the outgoing face (d = 0), as in CubeRenderer.
                    let denominator = distance * cos(outgoingAngle) + delta * sin(outgoingAngle)
                    guard denominator > 0 else { continue }
                    depth = -delta * distance / denominator
                    u = width - depth
                    angle = outgoingAngle
                    face = outgoing
                } else {
                    let denominator = distance * cos(incomingAngle) - delta * sin(incomingAngle)
                    guard denominator > 0 else { continue }
                    depth = delta * distance / denominator
                    u = depth
                    angle = incomingAngle
                    face = incoming
                }
                guard depth >= 0, depth <= width else { continue }
                let scale = distance / (distance + depth * sin(angle))
                let v = height / 2 + (ys - height / 2) / scale
                guard v >= 0, v <= height else { continue }
                let sample = Self.sampleBilinear(face, u: u, v: v)
                let shadeFactor = 1 - spec.shade * sin(angle)
                for channel in 0..<3 {
                    bytes[offset + channel] = Self.toByte(sample[channel] * shadeFactor)
                }
                bytes[offset + 3] = Self.toByte(sample[3])
            }
        }
        return try! RGBAImage(width: spec.width, height: spec.height, pixels: bytes)
    }

    /// Samples `image` bilinearly at (u, v), pixel `i` centred at `i + 0.5`, the point clamped to the centres
    /// of the edge pixels. Returns RGBA as unrounded `Double`s.
    static func sampleBilinear(_ image: RGBAImage, u: Double, v: Double) -> [Double] {
        let width = Double(image.width)
        let height = Double(image.height)
        let sx = min(max(u, 0.5), width - 0.5) - 0.5
        let sy = min(max(v, 0.5), height - 0.5) - 0.5
        let x0 = Int(sx.rounded(.down))
        let y0 = Int(sy.rounded(.down))
        let x1 = min(x0 + 1, image.width - 1)
        let y1 = min(y0 + 1, image.height - 1)
        let fx = sx - Double(x0)
        let fy = sy - Double(y0)
        var result = [Double](repeating: 0, count: 4)
        for channel in 0..<4 {
            func value(_ x: Int, _ y: Int) -> Double {
                Double(image.pixels[(y * image.width + x) * 4 + channel])
            }
            let top = value(x0, y0) * (1 - fx) + value(x1, y0) * fx
            let bottom = value(x0, y1) * (1 - fx) + value(x1, y1) * fx
            result[channel] = top * (1 - fy) + bottom * fy
        }
        return result
    }

    /// Rounds to the nearest byte value, clamping to 0...255.
    static func toByte(_ value: Double) -> UInt8 {
        UInt8(min(max(value.rounded(), 0), 255))
    }
}
