/// A rectangle of screen cells (rows and columns of the frame): where a
/// window lies over the table, or what of the table it must keep clear of.
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
}
