import Foundation

/// The per-frame constants of the cube projection and the column-by-column inverse mapping of
/// "Cube transition spec v1", evaluated in `Double` exactly as the normative per-pixel rule states.
struct CubeFrameGeometry {
    /// The canvas width as a `Double`.
    let width: Double
    /// The canvas height as a `Double`.
    let height: Double
    /// The canvas height in pixels.
    let rowCount: Int
    /// The perspective distance `D = perspective * width`.
    let distance: Double
    /// The hinge position `h = width * (1 - p)`.
    let hinge: Double
    /// `sin(θA)` for the outgoing face, `θA = 90° * p`.
    let outgoingSine: Double
    /// `cos(θA)`.
    let outgoingCosine: Double
    /// `sin(θB)` for the incoming face, `θB = 90° * (1 - p)`.
    let incomingSine: Double
    /// `cos(θB)`.
    let incomingCosine: Double

    /// Sets up the projection for forward progress `progress` on a `width` x `height` canvas.
    init(width: Int, height: Int, perspective: Double, progress: Double) {
        self.width = Double(width)
        self.height = Double(height)
        self.rowCount = height
        self.distance = perspective * Double(width)
        self.hinge = Double(width) * (1 - progress)
        let outgoingAngle = Double.pi / 2 * progress
        let incomingAngle = Double.pi / 2 * (1 - progress)
        self.outgoingSine = sin(outgoingAngle)
        self.outgoingCosine = cos(outgoingAngle)
        self.incomingSine = sin(incomingAngle)
        self.incomingCosine = cos(incomingAngle)
    }

    /// Returns where screen column `x` samples, or nil when the whole column is background.
    ///
    /// A pixel centre exactly on the hinge (`Δ == 0`) is treated as the outgoing face's hinge edge (`d = 0`).
    func column(_ x: Int) -> CubeColumnGeometry? {
        let delta = (Double(x) + 0.5) - hinge
        let depth: Double
        let sourceX: Double
        let sine: Double
        let outgoing: Bool
        if delta <= 0 {
            let denominator = distance * outgoingCosine + delta * outgoingSine
            guard denominator > 0 else { return nil }
            depth = -delta * distance / denominator
            sourceX = width - depth
            sine = outgoingSine
            outgoing = true
        } else {
            let denominator = distance * incomingCosine - delta * incomingSine
            guard denominator > 0 else { return nil }
            depth = delta * distance / denominator
            sourceX = depth
            sine = incomingSine
            outgoing = false
        }
        guard depth >= 0, depth <= width else { return nil }
        let scale = distance / (distance + depth * sine)
        guard let rows = onFaceRows(scale: scale) else { return nil }
        return CubeColumnGeometry(
            showsOutgoingFace: outgoing,
            sourceX: sourceX,
            sineOfAngle: sine,
            firstRow: rows.lowerBound,
            endRow: rows.upperBound,
            firstSourceRow: sourceRow(ofScreenRow: rows.lowerBound, scale: scale),
            sourceRowStep: (distance + depth * sine) / distance
        )
    }

    /// The source row `v = H/2 + (ys − H/2) / s` of screen row `y` (centre `ys = y + 0.5`).
    @inline(__always)
    private func sourceRow(ofScreenRow y: Int, scale: Double) -> Double {
        height / 2 + ((Double(y) + 0.5) - height / 2) / scale
    }

    /// The screen rows whose source row lies in [0, H], found from the closed form and then settled with the
    /// exact per-pixel expression so the boundary rows match the normative rule bit for bit.
    private func onFaceRows(scale: Double) -> Range<Int>? {
        let halfExtent = height / 2 * scale
        let estimatedFirst = (height / 2 - halfExtent - 0.5).rounded(.up)
        let estimatedEnd = (height / 2 + halfExtent - 0.5).rounded(.down) + 1
        var first = Int(min(max(estimatedFirst, 0), height))
        var end = Int(min(max(estimatedEnd, 0), height))
        while first > 0 && sourceRow(ofScreenRow: first - 1, scale: scale) >= 0 { first -= 1 }
        while first < rowCount && sourceRow(ofScreenRow: first, scale: scale) < 0 { first += 1 }
        end = max(end, first)
        while end < rowCount && sourceRow(ofScreenRow: end, scale: scale) <= height { end += 1 }
        while end > first && sourceRow(ofScreenRow: end - 1, scale: scale) > height { end -= 1 }
        return end > first ? first..<end : nil
    }
}
