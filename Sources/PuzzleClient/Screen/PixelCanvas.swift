/// The table view as half-block pixels (a screen cell is one pixel wide and two
/// high) plus text on top, turned into frame cells by `compose`.
///
/// Pixels are packed `0xRRGGBB` with flags above: `setBit` marks a drawn pixel
/// (an undrawn one shows the terminal's background), `pictureBit` a pixel of a
/// picture (the one kind plain mode shades with characters). `owner` records
/// what was drawn last at each pixel (a piece number, or one of the negative
/// kinds), so text is only put where its piece is still on top.
struct PixelCanvas {
    static let setBit: UInt32 = 1 << 24
    static let pictureBit: UInt32 = 1 << 25
    static let colorMask: UInt32 = 0xFF_FFFF
    /// Owner of a pixel nothing has been drawn on.
    static let nobody: Int32 = -1
    /// Owner of the empty table and board.
    static let background: Int32 = -2
    /// Owner of marks drawn over pieces (drop targets).
    static let mark: Int32 = -3
    /// Owner of the ring round a held piece in its holder's colour.
    static let ring: Int32 = -4

    /// Width in pixels (= screen columns) and height in pixels (= 2 × screen rows).
    let width: Int
    let height: Int
    var pixels: [UInt32]
    var owner: [Int32]
    /// Text per screen cell, over the pixels.
    var text: [Text?]

    /// A character drawn over the pixels of one screen cell. One scalar (digits,
    /// names, arrows, markers), so that the canvas copies as plain memory; a wide
    /// one (`DisplayWidth` 2) takes the next cell too, which holds its right half.
    struct Text {
        var character: Unicode.Scalar
        /// Nil: black or white, whichever reads on `background`.
        var foreground: TerminalColor?
        /// Nil: the mean of the cell's two pixels (the terminal's when none is drawn).
        var background: TerminalColor?
        var bold = true
        var inverse = false
        /// The right half of the wide character in the cell to the left: drawn by it.
        var isContinuation = false
    }

    init(width: Int, rows: Int) {
        self.width = max(0, width)
        height = 2 * max(0, rows)
        pixels = Array(repeating: 0, count: self.width * height)
        owner = Array(repeating: Self.nobody, count: self.width * height)
        text = Array(repeating: nil, count: self.width * max(0, rows))
    }

    var rows: Int { height / 2 }

    @inline(__always)
    mutating func set(_ x: Int, _ y: Int, _ color: UInt32, owner who: Int32) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        pixels[y * width + x] = color | Self.setBit
        owner[y * width + x] = who
    }

    /// Fills the pixel rectangle [x0, x1) × [y0, y1), clipped.
    mutating func fill(x0: Int, y0: Int, x1: Int, y1: Int, _ color: UInt32, owner who: Int32) {
        let lx = max(0, x0), hx = min(width, x1), ly = max(0, y0), hy = min(height, y1)
        guard lx < hx, ly < hy else { return }
        let xs = lx..<hx, ys = ly..<hy
        for y in ys {
            for x in xs {
                pixels[y * width + x] = color | Self.setBit
                owner[y * width + x] = who
            }
        }
    }

    /// Fills the pixels of `box`, clipped.
    mutating func fill(_ box: ScreenBox, _ color: UInt32, owner who: Int32) {
        fill(x0: box.left, y0: box.top, x1: box.right, y1: box.bottom, color, owner: who)
    }

    /// The one-pixel border of `box`, clipped.
    mutating func frame(_ box: ScreenBox, _ color: UInt32, owner who: Int32) {
        frame(x0: box.left, y0: box.top, x1: box.right, y1: box.bottom, color, owner: who)
    }

    /// The one-pixel border of [x0, x1) × [y0, y1), clipped.
    mutating func frame(x0: Int, y0: Int, x1: Int, y1: Int, _ color: UInt32, owner who: Int32) {
        fill(x0: x0, y0: y0, x1: x1, y1: y0 + 1, color, owner: who)
        fill(x0: x0, y0: y1 - 1, x1: x1, y1: y1, color, owner: who)
        fill(x0: x0, y0: y0, x1: x0 + 1, y1: y1, color, owner: who)
        fill(x0: x1 - 1, y0: y0, x1: x1, y1: y1, color, owner: who)
    }

    func owner(_ x: Int, _ y: Int) -> Int32 {
        guard x >= 0, y >= 0, x < width, y < height else { return Self.nobody }
        return owner[y * width + x]
    }

    /// Whether both pixels of screen cell (`row`, `column`) belong to `who`.
    func cellOwned(by who: Int32, row: Int, column: Int) -> Bool {
        owner(column, 2 * row) == who && owner(column, 2 * row + 1) == who
    }

    mutating func put(_ t: Text, row: Int, column: Int) {
        guard row >= 0, row < rows, column >= 0, column < width else { return }
        text[row * width + column] = t
    }

    /// Writes `string` from `row`, `column` rightwards, each character taking its display width
    /// (`DisplayWidth`, the frame's rule): a wide one two cells, a zero-width one none. A cell
    /// holds one scalar: a character of several (a base and its marks) is drawn as its first,
    /// as wide as that one is. A wide character that would cross the canvas's right edge is a space.
    ///
    /// - Returns: the columns `string` took.
    @discardableResult
    mutating func put(_ string: String, row: Int, column: Int, foreground: TerminalColor?, background: TerminalColor? = nil) -> Int {
        var current = column
        for character in string {
            guard let scalar = character.unicodeScalars.first else { continue }
            let columns = character.unicodeScalars.count == 1 ? DisplayWidth.of(character) : DisplayWidth.of(scalar)
            if columns == 0 { continue }
            if columns == 2 && current + 1 >= width {
                put(Text(character: " ", foreground: foreground, background: background), row: row, column: current)
            } else {
                put(Text(character: scalar, foreground: foreground, background: background), row: row, column: current)
                if columns == 2 {
                    put(Text(character: " ", foreground: foreground, background: background, isContinuation: true), row: row, column: current + 1)
                }
            }
            current += columns
        }
        return current - column
    }

    static func color(_ packed: UInt32) -> TerminalColor {
        TerminalColor(red: UInt8((packed >> 16) & 0xFF), green: UInt8((packed >> 8) & 0xFF), blue: UInt8(packed & 0xFF))
    }

    static func pack(_ c: TerminalColor) -> UInt32 { UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue) }

    /// The mean of two packed colours.
    static func mean(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let r = ((a >> 16 & 0xFF) + (b >> 16 & 0xFF)) / 2, g = ((a >> 8 & 0xFF) + (b >> 8 & 0xFF)) / 2, bl = ((a & 0xFF) + (b & 0xFF)) / 2
        return r << 16 | g << 8 | bl
    }

    static let upperHalf: Character = "▀"
    static let lowerHalf: Character = "▄"
    /// Light to dark is not meaningful on every terminal; these read as "more ink" left to right.
    static let shades: [Character] = [" ", ".", ":", "-", "=", "+"]

    static func shade(_ packed: UInt32) -> Character {
        let lum = TerminalColor(red: UInt8(packed >> 16 & 0xFF), green: UInt8(packed >> 8 & 0xFF), blue: UInt8(packed & 0xFF)).luminance
        return shades[min(shades.count - 1, (255 - lum) * shades.count / 256)]
    }

    /// Writes every screen cell of the canvas into `frame` from (`top`, `left`):
    /// two pixels as `▀` (foreground the upper, background the lower), text over
    /// them; in plain mode picture pixels as shading characters.
    func compose(into frame: inout Frame, top: Int, left: Int, plain: Bool) {
        for row in 0..<rows {
            for column in 0..<width {
                let upper = pixels[2 * row * width + column], lower = pixels[(2 * row + 1) * width + column]
                let cell: Frame.Cell
                if let t = text[row * width + column] {
                    // Drawn with the wide character to its left (the frame makes the continuation);
                    // one whose wide character was overwritten is a space.
                    if t.isContinuation, column > 0, let wide = text[row * width + column - 1], !wide.isContinuation,
                       DisplayWidth.of(wide.character) == 2 { continue }
                    var bg = t.background
                    if bg == nil, plain == false {
                        let drawn = [upper, lower].filter { $0 & Self.setBit != 0 }
                        if drawn.count == 2 { bg = Self.color(Self.mean(upper, lower)) } else if let one = drawn.first { bg = Self.color(one) }
                    }
                    let fg = t.foreground ?? (bg.map { $0.contrasting } ?? nil)
                    cell = Frame.Cell(Character(t.character), style: Frame.Style(foreground: fg, background: bg, bold: t.bold, inverse: t.inverse))
                } else if plain {
                    let picture = (upper | lower) & Self.pictureBit != 0
                    if !picture {
                        cell = .blank
                    } else {
                        let u = upper & Self.pictureBit != 0 ? upper : lower, l = lower & Self.pictureBit != 0 ? lower : upper
                        cell = Frame.Cell(Self.shade(Self.mean(u, l)))
                    }
                } else {
                    let u = upper & Self.setBit != 0, l = lower & Self.setBit != 0
                    let uc = upper & Self.colorMask, lc = lower & Self.colorMask
                    switch (u, l) {
                    case (false, false): cell = .blank
                    case (true, true) where uc == lc: cell = Frame.Cell(" ", style: Frame.Style(background: Self.color(uc)))
                    case (true, true): cell = Frame.Cell(Self.upperHalf, style: Frame.Style(foreground: Self.color(uc), background: Self.color(lc)))
                    case (true, false): cell = Frame.Cell(Self.upperHalf, style: Frame.Style(foreground: Self.color(uc)))
                    case (false, true): cell = Frame.Cell(Self.lowerHalf, style: Frame.Style(foreground: Self.color(lc)))
                    }
                }
                frame[top + row, left + column] = cell
            }
        }
    }
}
