import PuzzleCore

/// Draws the table view: table units to screen cells, clipped to the view.
///
/// A cell of the board is 8 columns by 4 rows (2 columns and 1 row a table
/// unit), so a piece shows about 8×4 picture pixels, one per character, as the
/// protocol scales pictures for. Without colours the picture is drawn as
/// shading characters and players as marker characters.
struct TableCanvas {
    var frame: Frame
    let layout: SceneLayout
    let view: Point
    let colorMode: ColorMode

    static let pieceColumns = 4 * SceneLayout.columnsPerUnit
    static let pieceRows = 4 * SceneLayout.rowsPerUnit
    /// Light to dark is not meaningful on every terminal; these read as "more ink" left to right.
    static let shades: [Character] = [" ", ".", ":", "-", "=", "+"]
    static let tableBackground = TerminalColor(hex: 0x303030)
    static let boardBackground = TerminalColor(hex: 0x1A1A1A)
    static let gridColor = TerminalColor(hex: 0x707070)

    var plain: Bool { colorMode == .plain }

    init(frame: Frame, layout: SceneLayout, view: Point, colorMode: ColorMode) {
        self.frame = frame
        self.layout = layout
        self.view = view
        self.colorMode = colorMode
    }

    /// Screen position of a table point's top-left.
    func screen(_ p: Point) -> (row: Int, column: Int) {
        (layout.viewTop + (p.y - view.y) * SceneLayout.rowsPerUnit, (p.x - view.x) * SceneLayout.columnsPerUnit)
    }

    /// Writes a cell if it lies in the table view.
    mutating func set(_ row: Int, _ column: Int, _ cell: Frame.Cell) {
        guard row >= layout.viewTop, row < layout.viewTop + layout.viewRows, column >= 0, column < layout.viewColumns else { return }
        frame[row, column] = cell
    }

    /// The table area and the board's grid (a `+` at every cell corner).
    mutating func drawTable(_ st: RoomState) {
        let g = st.geometry
        let origin = screen(Point(x: 0, y: 0))
        let board = screen(g.boardOrigin)
        let boardRows = st.spec.rows * Self.pieceRows
        let boardColumns = st.spec.cols * Self.pieceColumns
        let tableRows = g.height * SceneLayout.rowsPerUnit
        let tableColumns = g.width * SceneLayout.columnsPerUnit
        let rows = max(origin.row, layout.viewTop)..<min(origin.row + tableRows, layout.viewTop + layout.viewRows)
        let columns = max(origin.column, 0)..<min(origin.column + tableColumns, layout.viewColumns)
        guard !rows.isEmpty, !columns.isEmpty else { return }
        for r in rows {
            for c in columns {
                let br = r - board.row, bc = c - board.column
                let onBoard = br >= 0 && br < boardRows && bc >= 0 && bc < boardColumns
                if onBoard {
                    let corner = br % Self.pieceRows == 0 && bc % Self.pieceColumns == 0
                    set(r, c, Frame.Cell(corner ? "+" : " ", style: Frame.Style(foreground: Self.gridColor, background: Self.boardBackground)))
                } else {
                    set(r, c, Frame.Cell(" ", style: Frame.Style(background: Self.tableBackground)))
                }
            }
        }
    }

    /// Committed pieces, then every hold's drop target, then the held pieces on top.
    mutating func drawPieces(_ st: RoomState, picture: Picture?) {
        for piece in 0..<st.pieceCount where st.locks[piece] == nil {
            drawPiece(piece, in: st, picture: picture, at: st.position(of: piece), rotation: st.pieces[piece].rotation, holder: nil)
        }
        let holds = st.locks.sorted { $0.key < $1.key }
        for (_, lock) in holds {
            if let target = lock.target { drawTarget(target, in: st, holder: lock.holder) }
        }
        for (piece, lock) in holds {
            drawPiece(piece, in: st, picture: picture, at: lock.point, rotation: lock.rotation, holder: lock.holder)
        }
    }

    /// The highlighted drop target: a ring around the cell in the holder's colour.
    mutating func drawTarget(_ cell: Cell, in st: RoomState, holder: PlayerID) {
        let top = screen(st.geometry.origin(of: cell))
        let color = PlayerPalette.color(of: holder)
        let ring = plain ? Frame.Cell(PlayerPalette.marker(of: holder), style: Frame.Style(bold: true))
                         : Frame.Cell(" ", style: Frame.Style(background: color))
        for j in 0..<Self.pieceRows {
            for i in 0..<Self.pieceColumns where j == 0 || j == Self.pieceRows - 1 || i == 0 || i == Self.pieceColumns - 1 {
                set(top.row + j, top.column + i, ring)
            }
        }
    }

    /// One piece: its part of the picture, turned; its edges on the border
    /// (`^ v < >` point out for a tab, in for a blank); its number in the middle.
    /// A held piece's border is in its holder's colour (plain: marker).
    mutating func drawPiece(_ piece: Int, in st: RoomState, picture: Picture?, at point: Point, rotation: Int, holder: PlayerID?) {
        let top = screen(point)
        let w = Self.pieceColumns, h = Self.pieceRows
        guard top.row + h > layout.viewTop, top.row < layout.viewTop + layout.viewRows, top.column + w > 0, top.column < layout.viewColumns else { return }
        let home = st.homeCell(of: piece)
        let rect = picture.map { $0.rect(row: home.row, col: home.col, rows: st.spec.rows, cols: st.spec.cols) }
        let edges: [Edge] = st.spec.kind == .jigsaw ? st.cut.edges(piece: piece, rotation: rotation) : [.flat, .flat, .flat, .flat]
        let label = Array(String(piece))
        let labelStart = (w - label.count) / 2
        let holderColor = holder.map(PlayerPalette.color(of:))
        for j in 0..<h {
            for i in 0..<w {
                let pixel = Self.pixel(picture, rect: rect, piece: piece, st: st, i: i, j: j, w: w, h: h, rotation: rotation)
                let onBorder = j == 0 || j == h - 1 || i == 0 || i == w - 1
                var character: Character
                var style: Frame.Style
                if plain {
                    character = Self.shades[min(Self.shades.count - 1, (255 - pixel.luminance) * Self.shades.count / 256)]
                    style = .default
                } else {
                    character = " "
                    style = Frame.Style(foreground: pixel.contrasting, background: pixel)
                }
                if onBorder {
                    character = Self.borderCharacter(i: i, j: j, w: w, h: h, edges: edges)
                    if let holder, let holderColor {
                        if plain {
                            if Self.isFlatBorder(character) { character = PlayerPalette.marker(of: holder) }
                            style = Frame.Style(bold: true)
                        } else {
                            style = Frame.Style(foreground: holderColor.contrasting, background: holderColor, bold: true)
                        }
                    } else if !plain, Self.isFlatBorder(character) {
                        character = " "  // the picture shows the border; edge marks stay
                    }
                }
                if j == 1, i >= labelStart, i < labelStart + label.count {
                    character = label[i - labelStart]
                    style.bold = true
                    if plain { style.inverse = holder == nil }
                }
                set(top.row + j, top.column + i, Frame.Cell(character, style: style))
            }
        }
    }

    static func isFlatBorder(_ c: Character) -> Bool { c == "+" || c == "-" || c == "|" }

    /// The border character at (i, j): corners `+`, flat edges `-`/`|`, and on the
    /// middle two characters of each side the edge's mark.
    static func borderCharacter(i: Int, j: Int, w: Int, h: Int, edges: [Edge]) -> Character {
        let cornerRow = j == 0 || j == h - 1
        let cornerColumn = i == 0 || i == w - 1
        if cornerRow && cornerColumn { return "+" }
        func mark(_ edge: Edge, out: Character, in inward: Character, flat: Character) -> Character {
            switch edge {
            case .flat: return flat
            case .tab: return out
            case .blank: return inward
            }
        }
        let middleColumn = i == w / 2 - 1 || i == w / 2
        let middleRow = j == h / 2 - 1 || j == h / 2
        if j == 0 { return middleColumn ? mark(edges[Side.top.rawValue], out: "^", in: "v", flat: "-") : "-" }
        if j == h - 1 { return middleColumn ? mark(edges[Side.bottom.rawValue], out: "v", in: "^", flat: "-") : "-" }
        if i == 0 { return middleRow ? mark(edges[Side.left.rawValue], out: "<", in: ">", flat: "|") : "|" }
        return middleRow ? mark(edges[Side.right.rawValue], out: ">", in: "<", flat: "|") : "|"
    }

    /// The picture pixel shown at character (i, j) of a piece turned `rotation`
    /// quarter turns clockwise (or a colour made from its home cell without a picture).
    static func pixel(_ picture: Picture?, rect: PixelRect?, piece: Int, st: RoomState, i: Int, j: Int, w: Int, h: Int, rotation: Int) -> TerminalColor {
        guard let picture, let rect, !rect.isEmpty else {
            let home = st.homeCell(of: piece)
            let r = UInt8(40 + 200 * home.col / max(1, st.spec.cols - 1 + 1))
            let b = UInt8(40 + 200 * home.row / max(1, st.spec.rows - 1 + 1))
            return TerminalColor(red: r, green: 90, blue: b)
        }
        // Work in a 2w × 2h lattice of character centres, so turning stays exact.
        let u = 2 * i + 1, v = 2 * j + 1, W = 2 * w, H = 2 * h
        let su: Int, sv: Int  // source position in W × H lattice units
        switch rotation & 3 {
        case 1: su = v * W / H; sv = (W - u) * H / W
        case 2: su = W - u; sv = H - v
        case 3: su = (H - v) * W / H; sv = u * H / W
        default: su = u; sv = v
        }
        let x = rect.x + min(rect.width - 1, max(0, su * rect.width / W))
        let y = rect.y + min(rect.height - 1, max(0, sv * rect.height / H))
        return TerminalColor(picture[x: x, y: y])
    }

    /// The hint: the whole picture over the board.
    mutating func drawHint(_ st: RoomState, picture: Picture) {
        let board = screen(st.geometry.boardOrigin)
        let rows = st.spec.rows * Self.pieceRows, columns = st.spec.cols * Self.pieceColumns
        for r in 0..<rows {
            for c in 0..<columns {
                let p = TerminalColor(picture[x: min(picture.width - 1, c * picture.width / columns),
                                              y: min(picture.height - 1, r * picture.height / rows)])
                let cell = plain ? Frame.Cell(Self.shades[min(Self.shades.count - 1, (255 - p.luminance) * Self.shades.count / 256)])
                                 : Frame.Cell(" ", style: Frame.Style(background: p))
                set(board.row + r, board.column + c, cell)
            }
        }
    }
}
