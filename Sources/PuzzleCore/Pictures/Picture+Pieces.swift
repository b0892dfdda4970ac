/// A rectangle of pixels inside a picture: what one puzzle piece shows.
public struct PixelRect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// True when the rectangle covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }
}

extension Picture {
    /// The rectangle shown by the piece at (`row`, `col`) of a `rows` × `cols` cut.
    ///
    /// Boundaries are `floor(i * width / cols)` and `floor(j * height / rows)`,
    /// so the pieces tile the whole picture with no gaps or overlaps even when
    /// the sizes do not divide, and piece sizes differ by at most one pixel.
    /// A piece is never empty as long as `width >= cols` and
    /// `height >= rows`; callers should scale a picture to at least that size
    /// (e.g. with `scaled(width:height:)`) before cutting it.
    public func rect(row: Int, col: Int, rows: Int, cols: Int) -> PixelRect {
        precondition(rows > 0 && cols > 0, "a cut needs at least one row and column")
        precondition((0..<rows).contains(row) && (0..<cols).contains(col), "piece (\(row), \(col)) outside \(rows)x\(cols)")
        let x0 = col * width / cols
        let x1 = (col + 1) * width / cols
        let y0 = row * height / rows
        let y1 = (row + 1) * height / rows
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The mean colour of `rect`, each channel rounded to nearest.
    ///
    /// The rectangle is clipped to the picture; an empty (or fully outside)
    /// rectangle has no pixels to average and gives black.
    public func averageColor(in rect: PixelRect) -> RGB {
        let x0 = max(rect.x, 0)
        let y0 = max(rect.y, 0)
        let x1 = min(rect.x + max(rect.width, 0), width)
        let y1 = min(rect.y + max(rect.height, 0), height)
        guard x0 < x1, y0 < y1 else { return RGB(r: 0, g: 0, b: 0) }
        return averageColor(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// Mean over the half-open box [x0, x1) × [y0, y1), which must be non-empty and inside.
    func averageColor(x0: Int, y0: Int, x1: Int, y1: Int) -> RGB {
        var r = 0, g = 0, b = 0
        for y in y0..<y1 {
            let rowStart = y * width
            for x in x0..<x1 {
                let pixel = pixels[rowStart + x]
                r += Int(pixel.r)
                g += Int(pixel.g)
                b += Int(pixel.b)
            }
        }
        let count = (x1 - x0) * (y1 - y0)
        let half = count / 2
        return RGB(r: UInt8((r + half) / count), g: UInt8((g + half) / count), b: UInt8((b + half) / count))
    }
}
