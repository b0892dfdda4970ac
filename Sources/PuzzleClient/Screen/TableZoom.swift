import PuzzleCore

/// How large the table is drawn: half-block pixels per board cell, from large
/// detailed pieces down to an overview where a 100x100 table fits a terminal.
///
/// A screen cell is one pixel wide and two high (the upper and lower halves of
/// `▀`), so a pixel is about square and a piece is `pixelsPerCell` pixels each
/// way. Levels below one pixel a cell show several cells in one pixel.
public struct TableZoom: Hashable, Sendable, CustomStringConvertible {
    /// Pixels and cells: `pixels` pixels show `cells` board cells.
    public let pixels: Int
    public let cells: Int

    /// Every level, largest first.
    public static let levels: [TableZoom] = [
        TableZoom(pixels: 16, cells: 1), TableZoom(pixels: 12, cells: 1), TableZoom(pixels: 8, cells: 1),
        TableZoom(pixels: 6, cells: 1), TableZoom(pixels: 4, cells: 1), TableZoom(pixels: 3, cells: 1),
        TableZoom(pixels: 2, cells: 1), TableZoom(pixels: 1, cells: 1), TableZoom(pixels: 1, cells: 2),
        TableZoom(pixels: 1, cells: 4), TableZoom(pixels: 1, cells: 8),
    ]
    /// The level before a table has been fitted: a piece 8 columns by 4 rows.
    public static let standard = TableZoom(pixels: 8, cells: 1)

    public init(pixels: Int, cells: Int) {
        self.pixels = pixels
        self.cells = cells
    }

    public var description: String { cells == 1 ? "\(pixels) px a piece" : "\(cells) pieces a pixel" }

    /// Table units in `pixels` pixels' worth of cells (the divisor of every mapping).
    var unitsPerStep: Int { TableGeometry.unitsPerCell * cells }

    /// The pixel (relative to the view's first) showing table unit `u` (relative to the view's first).
    @inline(__always)
    public func pixel(_ u: Int) -> Int { Self.floorDiv(u * pixels, unitsPerStep) }

    /// The table unit (relative to the view) under the middle of pixel `p`, a half pixel `p + 1/2`.
    public func unit(atPixelCentre halfPixels: Int) -> Int { Self.floorDiv(halfPixels * unitsPerStep, 2 * pixels) }

    /// How many table units `p` pixels span (rounded down).
    public func units(inPixels p: Int) -> Int { p * unitsPerStep / pixels }

    /// Fine units a table unit holds: every level's pixel edges and middles
    /// fall on whole fine units (a pixel is a quarter, a third, a half, ...
    /// of a unit, or several units), so a view can start at any pixel.
    public static let finePerUnit = 24

    /// Fine units a pixel spans at this level.
    public var finePerPixel: Int { Self.finePerUnit * unitsPerStep / pixels }

    /// Pixels a piece spans (at least one).
    public var piecePixels: Int { max(1, pixels / cells) }

    /// The next level in (larger pieces), or this one at the largest.
    public var zoomedIn: TableZoom {
        guard let i = Self.levels.firstIndex(of: self), i > 0 else { return self }
        return Self.levels[i - 1]
    }

    /// The next level out (smaller pieces), or this one at the smallest.
    public var zoomedOut: TableZoom {
        guard let i = Self.levels.firstIndex(of: self), i + 1 < Self.levels.count else { return self }
        return Self.levels[i + 1]
    }

    @inline(__always)
    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
