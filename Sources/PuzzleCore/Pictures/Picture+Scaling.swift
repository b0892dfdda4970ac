extension Picture {
    /// A copy resized to `width` × `height` (each side within `1...maxSide`,
    /// area within `maxPixelCount`).
    ///
    /// Each output pixel takes the box `[floor(x * W / w), floor((x + 1) * W / w))`
    /// of the source (and likewise vertically) and averages it. When a side
    /// shrinks every source pixel falls in exactly one box (a box filter);
    /// when it grows the box is widened to the single pixel at its start
    /// (nearest neighbour). Integer arithmetic only, so the result is the
    /// same everywhere; scaling to the same size returns the picture unchanged.
    public func scaled(width newWidth: Int, height newHeight: Int) -> Picture {
        precondition((try? Picture.validate(width: newWidth, height: newHeight)) != nil,
                     "cannot scale to \(newWidth)x\(newHeight)")
        if newWidth == width && newHeight == height { return self }
        let columns = Self.boxes(from: width, to: newWidth)
        let rows = Self.boxes(from: height, to: newHeight)
        var out: [RGB] = []
        out.reserveCapacity(newWidth * newHeight)
        for row in rows {
            for column in columns {
                out.append(averageColor(x0: column.lowerBound, y0: row.lowerBound,
                                        x1: column.upperBound, y1: row.upperBound))
            }
        }
        return Picture(validWidth: newWidth, height: newHeight, pixels: out)
    }

    /// The source interval each of `target` output positions reads from.
    private static func boxes(from source: Int, to target: Int) -> [Range<Int>] {
        (0..<target).map { index in
            let start = index * source / target
            let end = max((index + 1) * source / target, start + 1)
            return start..<end
        }
    }
}
