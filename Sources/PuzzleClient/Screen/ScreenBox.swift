/// A rectangle of screen cells (rows and columns of the frame): where a
/// window lies over the table, or what of the table it must keep clear of.
/// `TableCanvas` uses it for rectangles of its half-block pixels too (a
/// piece, a ring, a bracket), rows then being pixel rows.
struct ScreenBox: Hashable, Sendable {
    var top: Int
    var left: Int
    var height: Int
    var width: Int

    /// Whether a screen cell lies inside.
    func contains(row: Int, column: Int) -> Bool {
        row >= top && row < top + height && column >= left && column < left + width
    }

    /// Whether the two share a cell.
    func intersects(_ other: ScreenBox) -> Bool {
        top < other.top + other.height && other.top < top + height && left < other.left + other.width && other.left < left + width
    }

    /// The first column past the right edge.
    var right: Int { left + width }
    /// The first row past the bottom edge.
    var bottom: Int { top + height }

    /// `by` cells bigger on every side (smaller when negative).
    func outset(by d: Int) -> ScreenBox {
        ScreenBox(top: top - d, left: left - d, height: height + 2 * d, width: width + 2 * d)
    }

    /// Moved `x` columns right and `y` rows down.
    func offset(x: Int, y: Int) -> ScreenBox {
        ScreenBox(top: top + y, left: left + x, height: height, width: width)
    }
}

// An extension, so that the struct keeps its memberwise initializer.
extension ScreenBox {
    /// The rectangle from (`left`, `top`) up to, not including, (`right`, `bottom`).
    init(left: Int, top: Int, right: Int, bottom: Int) {
        self.init(top: top, left: left, height: bottom - top, width: right - left)
    }
}
