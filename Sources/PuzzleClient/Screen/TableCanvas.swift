import PuzzleCore

/// Draws the table view in half-block pixels at the scene's zoom (`TableZoom`):
/// the table and the board, placed pieces flush in their cells, loose pieces
/// lifted (a shadow) with their tabs and blanks, parts (pieces joined on the
/// table) as one shape without seams, held pieces and parts whole above
/// everything, each in one ring of its holder's colour and named, every drop target as
/// dashed corner brackets on its cell (a held part's every cell; never over a held piece), and arrows at
/// the view's edges towards held pieces out of sight. Piece numbers
/// and stack counts are text over the pixels where their piece is on top.
/// Without colours the pictures are shading characters and players markers.
struct TableCanvas {
    var canvas: PixelCanvas
    let layout: SceneLayout
    let view: Point
    /// Pixels the view starts past `view` (`Scene.viewShift`).
    let shift: Point
    let colorMode: ColorMode
    var showNumbers: Bool
    /// The room's colour slots, for holders' colours (set by `drawHeldPieces`).
    var colorSlots: [PlayerID: Int] = [:]
    /// The player's own filter and marks.
    var lens: TableLens
    /// Which loose piece lies on which (the session's, from the events).
    var stack = TableStack()
    /// Where the overview map lies over the view (screen rows and columns), if it is shown: arrows keep out of it.
    var mapBox: ScreenBox?
    /// Which pieces are in someone's hand, by piece (every piece of a held
    /// part): set by `drawHeldPieces`, for what must not be drawn over them.
    var heldPieces: [Bool] = []
    var zoom: TableZoom { layout.zoom }

    static let tableBackground: UInt32 = 0x3C4650
    static let boardBackground: UInt32 = 0x141414
    /// Alternate board cells are a shade lighter, so the cells show at every zoom.
    static let boardChecker: UInt32 = 0x202020
    static let shadow: UInt32 = 0x080808
    /// The outline of a loose piece lying over the board: lifted, not placed.
    static let liftedOutline: UInt32 = 0xD8D8D8
    /// Swap tiles' borders: each tile darkened at its top and left edge.
    static func tileBorder(_ packed: UInt32) -> UInt32 {
        ((packed >> 16 & 0xFF) / 2) << 16 | ((packed >> 8 & 0xFF) / 2) << 8 | (packed & 0xFF) / 2 | (packed & ~PixelCanvas.colorMask)
    }

    var plain: Bool { colorMode == .plain }

    init(layout: SceneLayout, view: Point, shift: Point = Point(x: 0, y: 0), colorMode: ColorMode, showNumbers: Bool, lens: TableLens = TableLens()) {
        self.lens = lens
        self.layout = layout
        self.view = view
        self.shift = shift
        self.colorMode = colorMode
        self.showNumbers = showNumbers
        canvas = PixelCanvas(width: layout.viewColumns, rows: layout.viewRows)
    }

    /// Pixel column and row of a table point.
    func px(_ x: Int) -> Int { zoom.pixel(x - view.x) - shift.x }
    func py(_ y: Int) -> Int { zoom.pixel(y - view.y) - shift.y }

    /// The pixel rectangle of a piece whose corner is at `p`: at least one pixel each way.
    func rect(_ p: Point, unit: Int) -> ScreenBox {
        let left = px(p.x), top = py(p.y)
        return ScreenBox(left: left, top: top, right: max(left + 1, px(p.x + unit)), bottom: max(top + 1, py(p.y + unit)))
    }

    /// Whether `r`, grown by `margin` pixels on every side, shares a pixel with the canvas.
    func isVisible(_ r: ScreenBox, margin: Int = 0) -> Bool {
        r.outset(by: margin).intersects(ScreenBox(top: 0, left: 0, height: canvas.height, width: canvas.width))
    }

    /// Puts the canvas into the frame's table view.
    func compose(into frame: inout Frame) {
        canvas.compose(into: &frame, top: layout.viewTop, left: 0, plain: plain)
    }

    // MARK: Table and board

    /// The table, the board (cells in a checker of two dark shades) and the
    /// pieces placed on it, pixel by pixel, so that every zoom (down to
    /// several cells a pixel) shows what lies in each cell. Placed pieces the
    /// lens's filter leaves out are dimmed; with `faint` (the room offers the
    /// lid) the empty cells show the picture faintly, as on a tray.
    mutating func drawBoard(_ st: RoomState, picture: Picture?, hint: Bool, faint: Bool = false) {
        let g = st.geometry
        let o = g.boardOrigin
        let table = rect(Point(x: 0, y: 0), unit: 0)
        let tx1 = px(g.width), ty1 = py(g.height)
        guard max(0, table.left) < min(canvas.width, tx1), max(0, table.top) < min(canvas.height, ty1) else { return }
        let xs = max(0, table.left)..<min(canvas.width, tx1)
        let ys = max(0, table.top)..<min(canvas.height, ty1)
        // Per pixel column (row): the board cell under it and where the pixel lies in that cell.
        func axis(_ range: Range<Int>, origin: Int, cells: Int, viewStart: Int, shift: Int) -> [(cell: Int, i: Int, n: Int)] {
            range.map { p in
                let u = viewStart + zoom.unit(atPixelCentre: 2 * (p + shift) + 1) - origin
                guard u >= 0, u < cells * g.unit else { return (-1, 0, 1) }
                let c = u / g.unit
                let start = zoom.pixel(origin + c * g.unit - viewStart) - shift, end = zoom.pixel(origin + (c + 1) * g.unit - viewStart) - shift
                return (c, max(0, p - start), max(1, end - start))
            }
        }
        let swap = st.spec.kind == .swap
        let filtering = lens.filter != .all
        let columns = axis(xs, origin: o.x, cells: g.cols, viewStart: view.x, shift: shift.x)
        let rowsMap = axis(ys, origin: o.y, cells: g.rows, viewStart: view.y, shift: shift.y)
        for (j, y) in ys.enumerated() {
            let r = rowsMap[j]
            for (k, x) in xs.enumerated() {
                let c = columns[k]
                guard r.cell >= 0, c.cell >= 0 else {
                    canvas.set(x, y, Self.tableBackground, owner: PixelCanvas.background)
                    continue
                }
                let cell = Cell(row: r.cell, col: c.cell)
                func pictureAt() -> UInt32? {
                    guard let picture else { return nil }
                    let px = min(picture.width - 1, (c.cell * c.n + c.i) * picture.width / (g.cols * c.n))
                    let py = min(picture.height - 1, (r.cell * r.n + r.i) * picture.height / (g.rows * r.n))
                    return Self.pack(picture[x: px, y: py])
                }
                if hint, let shown = pictureAt() {
                    canvas.set(x, y, shown | PixelCanvas.pictureBit, owner: PixelCanvas.background)
                } else if let piece = st.occupant(of: cell), st.locks[piece] == nil {
                    var color = Self.sample(picture, st: st, piece: piece, i: c.i, j: r.i, w: c.n, h: r.n, rotation: st.pieces[piece].rotation)
                    // Swap tiles are framed so a shuffled board reads as tiles; jigsaw pieces join up.
                    if swap, c.n >= 4, c.i == 0 || r.i == 0 { color = Self.tileBorder(color) }
                    // Dimmed: no longer a picture pixel, so plain mode leaves it blank.
                    if filtering && lens.dimsPlaced(piece, in: st) { color = Self.dim(color) }
                    canvas.set(x, y, color, owner: Int32(piece))
                } else {
                    let board = (r.cell + c.cell) & 1 == 0 ? Self.boardBackground : Self.boardChecker
                    if faint && !plain, let shown = pictureAt() {
                        canvas.set(x, y, Self.blend(board, shown, percent: Self.faintPercent), owner: PixelCanvas.background)
                    } else {
                        canvas.set(x, y, board, owner: PixelCanvas.background)
                    }
                }
            }
        }
    }

    // MARK: Pieces

    /// The still layer: the loose pieces lying on the table (stacked as
    /// `stack` says, a part whole at its height, as `TableLens.topPiece`
    /// picks), over the board `drawBoard` drew;
    /// those the lens's filter hides are left out.
    /// Nothing in it moves until a piece is dropped, grabbed or let go.
    /// Returns the loose pieces in view, for the stack counts.
    mutating func drawLoosePieces(_ st: RoomState, picture: Picture?) -> [(piece: Int, point: Point)] {
        let unit = st.geometry.unit
        var loose: [(piece: Int, point: Point)] = []
        // One pass over the few holds instead of a hash lookup per piece (10,000 on a 100x100 board).
        let held = Self.heldFlags(st)
        let filtering = lens.filter != .all
        // Taken out once: a lookup through the room per piece costs (10,000 on a 100x100 board).
        let parts = st.parts, joined = !parts.isEmpty
        // Bottom to top (`TableStack`): the last taken or put down on top.
        var lying: [Int] = []
        for piece in 0..<st.pieceCount where !held[piece] {
            guard case .table = st.pieces[piece].location else { continue }
            if filtering && !lens.showsLoose(piece, in: st) { continue }
            lying.append(piece)
        }
        for piece in stack.bottomToTop(lying, in: st) {
            guard case .table(let p) = st.pieces[piece].location else { continue }
            if joined, let part = parts.part(of: piece) {
                // A part is drawn whole with its lowest piece (its id).
                guard part == piece, let members = parts.members[part] else { continue }
                loose += drawPart(members, grip: piece, in: st, picture: picture, at: p, rotation: st.pieces[piece].rotation, lift: 1)
                continue
            }
            let r = rect(p, unit: unit)
            guard isVisible(r, margin: 2) else { continue }
            drawPiece(piece, in: st, picture: picture, at: p, rotation: st.pieces[piece].rotation, lift: 1)
            loose.append((piece, p))
        }
        return loose
    }

    /// The moving layer, redrawn every frame over the still one: first every
    /// drop target (a mark inside its cell, under the pieces), then the held
    /// pieces whole, each ringed in its holder's colour (others' first, one's
    /// own on top), then the text over them all. Nothing is drawn over a held
    /// piece's pixels but its number: the player sees what they hold.
    /// `countdown`: seconds left on this player's holds about to lapse, by piece.
    mutating func drawHeldPieces(_ st: RoomState, picture: Picture?, names: [PlayerID: String], loose: [(piece: Int, point: Point)],
                                 me: PlayerID? = nil, countdown: [Int: Int] = [:]) {
        let unit = st.geometry.unit
        colorSlots = st.colorSlots
        heldPieces = Self.heldFlags(st)
        mapBox = OverviewMap.box(layout: layout, table: st.geometry, avoiding: LidWindow.heldBox(st, me: me, layout: layout, view: view, shift: shift))
        // One's own holds last, so they lie above anyone else's.
        let holds = st.locks.sorted { ($0.value.holder == me ? 1 : 0, $0.key) < ($1.value.holder == me ? 1 : 0, $1.key) }
        for (piece, lock) in holds {
            let ring = PixelCanvas.pack(PlayerPalette.color(of: lock.holder, in: colorSlots))
            if st.parts.part(of: piece) == nil {
                drawPiece(piece, in: st, picture: picture, at: lock.point, rotation: lock.rotation, lift: 2, ring: ring)
            } else {
                // A part: one ring round the whole of it.
                drawPart(st.parts.pieces(with: piece), grip: piece, in: st, picture: picture, at: lock.point, rotation: lock.rotation,
                         lift: 2, ring: ring)
            }
        }
        drawCoveredRings(st, holds)
        let grips = holds.map(\.key)
        drawTargets(st, grips: grips)
        if plain {
            for (piece, lock) in holds { markRing(st, grip: piece, lock: lock) }
            markTargets(st, grips: grips)
        }
        if showNumbers { drawNumbers(st) }
        drawStacks(loose, unit: unit)
        // Rulers before the names: a name finds a row of its own, never over a ruler's number.
        drawRulers(st)
        for (piece, lock) in holds {
            drawHolderName(piece, lock: lock, in: st, names: names, secondsLeft: countdown[piece])
        }
        drawOffScreenMarkers(holds.map { (holdRect(st, grip: $0.key, lock: $0.value), $0.value.holder) })
    }

    /// Held pieces (or parts) lying exactly over one another (two players' pieces at one
    /// point, or any size where they fall on the same pixels): the one on top
    /// hides the rings under it, so each one below gets its ring again, a
    /// pixel further out for each piece above it, drawn over the shadows but
    /// never over a held piece. Every holder's ring stays in sight.
    mutating func drawCoveredRings(_ st: RoomState, _ holds: [(key: Int, value: PieceLock)]) {
        guard holds.count > 1 else { return }
        let rects = holds.map { holdRect(st, grip: $0.key, lock: $0.value) }
        for (k, (_, lock)) in holds.enumerated() {
            // The pieces drawn after this one (above it) on the same pixels.
            let above = rects[(k + 1)...].filter { $0 == rects[k] }.count
            guard above > 0, isVisible(rects[k], margin: 1 + above) else { continue }
            let r = rects[k], d = 1 + above
            let color = PixelCanvas.pack(PlayerPalette.color(of: lock.holder, in: colorSlots))
            for y in (r.top - d)..<(r.bottom + d) {
                for x in (r.left - d)..<(r.right + d) where y == r.top - d || y == r.bottom + d - 1 || x == r.left - d || x == r.right + d - 1 {
                    guard x >= 0, y >= 0, x < canvas.width, y < canvas.height, !isHeld(canvas.owner(x, y)) else { continue }
                    canvas.set(x, y, color, owner: PixelCanvas.ring)
                }
            }
        }
    }

    /// One loose or held piece: a shadow `lift` pixels down and right (when
    /// pieces are big enough to show one), a one-pixel ring just outside it
    /// (`ring`: a held piece's holder colour; else, over the board, the lifted
    /// outline that says "not placed"), its part of the picture turned, and
    /// its tabs (bumps out, over the ring) and blanks (notches in) in the
    /// middle of each side.
    mutating func drawPiece(_ piece: Int, in st: RoomState, picture: Picture?, at point: Point, rotation: Int, lift: Int, ring: UInt32? = nil) {
        let r = rect(point, unit: st.geometry.unit)
        guard isVisible(r, margin: 2) else { return }
        if lift > 0 { drawShadow(r, lift: lift) }
        if let ring {
            // At every size, down to a pixel: the ring is what says whose it is.
            canvas.frame(r.outset(by: 1), ring, owner: PixelCanvas.ring)
        } else {
            // Over the board a shadow would not show on the dark cells: an outline says "not placed".
            if overBoard(point, st.geometry) && r.width >= 3 {
                canvas.frame(r.outset(by: 1), Self.liftedOutline, owner: PixelCanvas.background)
            }
        }
        drawPicture(piece, in: st, picture: picture, rect: r, rotation: rotation)
        guard st.spec.kind == .jigsaw else { return }
        drawEdges(piece, in: st, picture: picture, rect: r, rotation: rotation) { _ in true }
    }

    /// A piece's part of the picture, turned, filling its pixel rectangle.
    mutating func drawPicture(_ piece: Int, in st: RoomState, picture: Picture?, rect r: ScreenBox, rotation: Int) {
        drawPicture(piece, home: st.homeCell(of: piece), rows: st.spec.rows, cols: st.spec.cols, picture: picture, rect: r, rotation: rotation)
    }

    /// `drawPicture` for the piece whose home cell is `home` on a `rows` × `cols` board.
    mutating func drawPicture(_ piece: Int, home: Cell, rows: Int, cols: Int, picture: Picture?, rect r: ScreenBox, rotation: Int) {
        let w = r.width, h = r.height, who = Int32(piece)
        for j in 0..<h {
            for i in 0..<w {
                canvas.set(r.left + i, r.top + j, Self.sample(picture, home: home, rows: rows, cols: cols, i: i, j: j, w: w, h: h, rotation: rotation), owner: who)
            }
        }
    }

    /// A jigsaw piece's tabs (bumps out) and blanks (notches in) in the
    /// middle of each side `outer` says faces out (the sides joined to a
    /// piece of its part have none), where pieces are 4 pixels or more.
    mutating func drawEdges(_ piece: Int, in st: RoomState, picture: Picture?, rect r: ScreenBox, rotation: Int, outer: (Side) -> Bool) {
        let w = r.width, h = r.height, who = Int32(piece)
        guard w >= 4 else { return }
        let edges = st.cut.edges(piece: piece, rotation: rotation)
        // A mark a quarter of the side long (at least 2 pixels), one pixel deep.
        let len = max(2, w / 4)
        let mx = r.left + (w - len) / 2, my = r.top + (h - len) / 2
        func mark(_ side: Side, _ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, outside: (Int, Int)) {
            guard outer(side) else { return }
            switch edges[side.rawValue] {
            case .flat: return
            case .tab:
                // The bump shows the picture's edge colour, continued outwards.
                let sample = Self.sample(picture, st: st, piece: piece, i: min(w - 1, max(0, x0 - r.left)), j: min(h - 1, max(0, y0 - r.top)),
                                         w: w, h: h, rotation: rotation)
                canvas.fill(x0: x0 + outside.0, y0: y0 + outside.1, x1: x1 + outside.0, y1: y1 + outside.1, sample, owner: who)
            case .blank:
                canvas.fill(x0: x0, y0: y0, x1: x1, y1: y1, Self.shadow, owner: who)
            }
        }
        mark(.top, mx, r.top, mx + len, r.top + 1, outside: (0, -1))
        mark(.bottom, mx, r.bottom - 1, mx + len, r.bottom, outside: (0, 1))
        mark(.left, r.left, my, r.left + 1, my + len, outside: (-1, 0))
        mark(.right, r.right - 1, my, r.right, my + len, outside: (1, 0))
    }

    /// A piece's shadow `lift` pixels down and right, when pieces are big
    /// enough (4 pixels) to show one.
    mutating func drawShadow(_ r: ScreenBox, lift: Int) {
        guard r.width >= 4, isVisible(r, margin: lift) else { return }
        canvas.fill(r.offset(x: lift, y: lift), Self.shadow, owner: PixelCanvas.background)
    }

    /// The corners of a pixel rectangle, clockwise from the top left, each as
    /// the rectangles of its bracket: an L `arm` pixels long, `depth` deep.
    static func brackets(_ r: ScreenBox, arm: Int, depth: Int) -> [[ScreenBox]] {
        [[ScreenBox(left: r.left, top: r.top, right: r.left + arm, bottom: r.top + depth),
          ScreenBox(left: r.left, top: r.top, right: r.left + depth, bottom: r.top + arm)],
         [ScreenBox(left: r.right - arm, top: r.top, right: r.right, bottom: r.top + depth),
          ScreenBox(left: r.right - depth, top: r.top, right: r.right, bottom: r.top + arm)],
         [ScreenBox(left: r.right - arm, top: r.bottom - depth, right: r.right, bottom: r.bottom),
          ScreenBox(left: r.right - depth, top: r.bottom - arm, right: r.right, bottom: r.bottom)],
         [ScreenBox(left: r.left, top: r.bottom - depth, right: r.left + arm, bottom: r.bottom),
          ScreenBox(left: r.left, top: r.bottom - arm, right: r.left + depth, bottom: r.bottom)]]
    }

    /// The drop targets: corner brackets two pixels deep across the edge of
    /// each target cell (the pixel outside it, then its edge pixel; a pixel
    /// further out where a held piece's ring is in the way): the inner line
    /// dashed in the holder's colour, the outer one a dark keyline, so
    /// the mark reads on any picture and apart from a holder's ring (a solid
    /// line round a piece). Drawn over everything on the table but the held
    /// pieces and their rings (shadows are drawn over): a mark never covers a
    /// piece nor hides whose it is, shows in the cell beside a piece that aims
    /// there, and round the ring of a piece held right over it. Players aiming at one
    /// cell each get brackets of their own, nested two pixels in (cells of 8
    /// pixels and more), or share the corners out in turn (two: a diagonal
    /// pair each); cells of 2 pixels or less are a plain square in the
    /// holder's colour (shared out pixel by pixel), where no ring lies.
    /// A held part's target is every cell it would land in (`targetCells`).
    /// `grips`: the held pieces whose targets are drawn.
    mutating func drawTargets(_ st: RoomState, grips: [Int]) {
        let targets = targetCells(st, grips: grips)
        guard let first = targets.cells.first else { return }
        if heldPieces.count != st.pieceCount { heldPieces = Self.heldFlags(st) }
        // Where held pieces' rings lie: needed only where cells are more than 2 pixels.
        let zone = rect(st.geometry.origin(of: first.cell), unit: st.geometry.unit).width > 2 ? ringZone(st, grips: grips) : nil
        // A bracket's pixels, each coloured by its depth in `box` (0: the outer
        // line), never over a held piece nor a holder's ring: the ring says whose it is.
        func put(_ p: ScreenBox, _ holder: PlayerID, box: ScreenBox?) {
            for y in max(0, p.top)..<max(max(0, p.top), min(canvas.height, p.bottom)) {
                for x in max(0, p.left)..<max(max(0, p.left), min(canvas.width, p.right))
                where !isHeld(canvas.owner(x, y)) && canvas.owner(x, y) != PixelCanvas.ring {
                    let depth = box.map { min(x - $0.left, $0.right - 1 - x, y - $0.top, $0.bottom - 1 - y) } ?? 0
                    canvas.set(x, y, Self.targetColor(holder, x, y, depth: depth, slots: colorSlots), owner: PixelCanvas.mark)
                }
            }
        }
        // Each group of holders' colours, once (a part aims at thousands of cells).
        let colours = targets.holders.map { $0.map { PixelCanvas.pack(PlayerPalette.color(of: $0, in: colorSlots)) } }
        let g = st.geometry
        for (cell, group) in targets.cells {
            let holders = targets.holders[group]
            let r = rect(g.origin(of: cell), unit: g.unit)
            guard isVisible(r, margin: 1) else { continue }
            let w = r.width
            if w <= 2 {
                // Tiny cells: the cell itself, a plain square shared out pixel by pixel, under any holder's ring.
                for (n, y) in (r.top..<r.bottom).enumerated() {
                    for (m, x) in (r.left..<r.right).enumerated() where canvas.owner(x, y) != PixelCanvas.ring {
                        guard x >= 0, y >= 0, x < canvas.width, y < canvas.height, !isHeld(canvas.owner(x, y)) else { continue }
                        canvas.set(x, y, colours[group][(n * w + m) % holders.count], owner: PixelCanvas.mark)
                    }
                }
                continue
            }
            // A held piece's ring in the cell or round it: it lies where the
            // brackets would, so they go a pixel further out (their colour
            // just outside the cell, the keyline outside that), beside the ring.
            let d = zone?.touches(r) == true ? 2 : 1
            let outer = r.outset(by: d)
            // Arms a quarter of the side: the holder's ring shows between them.
            let arm = max(3, (w + 2) / 4 + 1)
            if w >= 8 {
                for (k, holder) in holders.prefix(w / 4).enumerated() {
                    let inset = outer.outset(by: -2 * k)
                    for corner in Self.brackets(inset, arm: arm, depth: 2) { for p in corner { put(p, holder, box: inset) } }
                }
                continue
            }
            // Each holder first takes the corner with the most pixels free of
            // pieces and rings (two pieces over a small cell hide most of it),
            // then the corners left go round in turn.
            let corners = Self.brackets(outer, arm: arm, depth: 2)
            func free(_ corner: [ScreenBox]) -> Int {
                var n = 0
                for p in corner {
                    for y in max(0, p.top)..<max(max(0, p.top), min(canvas.height, p.bottom)) {
                        for x in max(0, p.left)..<max(max(0, p.left), min(canvas.width, p.right))
                        where !isHeld(canvas.owner(x, y)) && canvas.owner(x, y) != PixelCanvas.ring { n += 1 }
                    }
                }
                return n
            }
            var owner = [PlayerID?](repeating: nil, count: corners.count)
            for holder in holders {
                guard let k = corners.indices.filter({ owner[$0] == nil }).max(by: { (free(corners[$0]), -$0) < (free(corners[$1]), -$1) }) else { break }
                owner[k] = holder
            }
            for (k, corner) in corners.enumerated() {
                for p in corner { put(p, owner[k] ?? holders[k % holders.count], box: outer) }
            }
        }
    }

    /// The target mark's keyline: dark, so the holder's colour beside it reads on a light picture.
    static let targetKeyline: UInt32 = 0x101010

    /// A target mark's colour at pixel (`x`, `y`), `depth` pixels in from
    /// its bracket's outer edge: the inner line (in the cell) the holder's
    /// colour in dashes (two pixels on, one off), the gaps and the outer line
    /// (round the cell) the dark keyline.
    static func targetColor(_ holder: PlayerID, _ x: Int, _ y: Int, depth: Int, slots: [PlayerID: Int]) -> UInt32 {
        depth >= 1 && (x + y) % 3 != 2 ? PixelCanvas.pack(PlayerPalette.color(of: holder, in: slots)) : targetKeyline
    }

    /// Plain mode: each target corner's screen cell shows its holder's marker
    /// where the mark is still uncovered.
    mutating func markTargets(_ st: RoomState, grips: [Int]) {
        let targets = targetCells(st, grips: grips)
        for (cell, group) in targets.cells {
            let holders = targets.holders[group]
            let r = rect(st.geometry.origin(of: cell), unit: st.geometry.unit)
            let cells = [(r.top, r.left), (r.top, r.right - 1), (r.bottom - 1, r.right - 1), (r.bottom - 1, r.left)]
            for (k, (y, x)) in cells.enumerated() {
                let row = TableZoom.floorDiv(y, 2)
                guard canvas.owner(x, 2 * row) == PixelCanvas.mark || canvas.owner(x, 2 * row + 1) == PixelCanvas.mark else { continue }
                let holder = holders[k % holders.count]
                canvas.put(PixelCanvas.Text(character: PlayerPalette.markerScalar(of: holder, in: colorSlots), foreground: nil, background: nil), row: row, column: x)
            }
        }
    }

    /// Plain mode: the screen cells of a held piece's ring show its holder's
    /// marker, where the piece does not fill the cell; a held part's, round
    /// the whole part (where its pieces do not fill the cell).
    mutating func markRing(_ st: RoomState, grip: Int, lock: PieceLock) {
        let text = PixelCanvas.Text(character: PlayerPalette.markerScalar(of: lock.holder, in: colorSlots), foreground: nil, background: nil)
        let part = st.parts.part(of: grip)
        func ours(_ owner: Int32) -> Bool {
            owner == Int32(grip) || (part != nil && owner >= 0 && Int(owner) < st.pieceCount && st.parts.part(of: Int(owner)) == part)
        }
        for piece in st.parts.pieces(with: grip) {
            let p = piece == grip ? lock.point : st.board.point(of: piece, grip: grip, at: lock.point, rotation: lock.rotation)
            let ring = rect(p, unit: st.geometry.unit).outset(by: 1)
            guard isVisible(ring) else { continue }
            let top = TableZoom.floorDiv(ring.top, 2), bottom = TableZoom.floorDiv(ring.bottom - 1, 2)
            for row in top...bottom {
                for column in ring.left..<ring.right where row == top || row == bottom || column == ring.left || column == ring.right - 1 {
                    if ours(canvas.owner(column, 2 * row)) && ours(canvas.owner(column, 2 * row + 1)) { continue }
                    canvas.put(text, row: row, column: column)
                }
            }
        }
    }

    /// Each piece's number, on the screen row through its middle (or a row next
    /// to it that the piece owns), where the piece is on top. Numbers show only at zoom levels where the longest one
    /// leaves a column free: wider, neighbours' numbers run together ("767567"),
    /// and numbering only the short ones would read as a rule that is not there.
    mutating func drawNumbers(_ st: RoomState) {
        let unit = st.geometry.unit
        guard zoom.piecePixels >= 2 else { return }
        let longest = String(max(0, st.pieceCount - 1)).count
        for piece in 0..<st.pieceCount {
            let r = rect(st.position(of: piece), unit: unit)
            guard isVisible(r) else { continue }
            let label = String(piece)
            guard longest < r.width else { continue }
            // The first screen row wholly inside the piece at or below its middle.
            var row = TableZoom.floorDiv(r.top + r.height / 2, 2)
            if 2 * row < r.top { row += 1 }
            if 2 * row + 1 >= r.bottom { row = TableZoom.floorDiv(r.top + 1, 2) }
            let column = r.left + (r.width - label.count) / 2
            let who = Int32(piece)
            // The board is sampled at pixel centres, so where a cell's edge falls
            // inside a pixel (3 px a piece) a placed piece owns the row next to
            // the one its corner gives: try the middle row, then its neighbours.
            let owned = { (row: Int) in (0..<label.count).allSatisfy { canvas.cellOwned(by: who, row: row, column: column + $0) } }
            guard let found = [row, row + 1, row - 1].first(where: owned) else { continue }
            row = found
            for (i, c) in label.unicodeScalars.enumerated() {
                let index = 2 * row * canvas.width + column + i
                let mean = PixelCanvas.mean(canvas.pixels[index], canvas.pixels[index + canvas.width])
                // Darkened, so white digits read on any picture.
                let bg = TerminalColor(red: UInt8((mean >> 16 & 0xFF) * 2 / 5), green: UInt8((mean >> 8 & 0xFF) * 2 / 5), blue: UInt8((mean & 0xFF) * 2 / 5))
                canvas.put(PixelCanvas.Text(character: c, foreground: TerminalColor(hex: 0xFFFFFF), background: bg, inverse: plain && st.grip(of: piece) == nil),
                           row: row, column: column + i)
            }
        }
    }

    /// Loose pieces lying on other loose pieces: the top one shows how many
    /// pieces the stack holds (`x3`) at its bottom right.
    mutating func drawStacks(_ loose: [(piece: Int, point: Point)], unit: Int) {
        guard zoom.piecePixels >= 3, loose.count > 1 else { return }
        var buckets: [Point: [Int]] = [:]
        for (k, item) in loose.enumerated() {
            buckets[Point(x: TableZoom.floorDiv(item.point.x, unit), y: TableZoom.floorDiv(item.point.y, unit)), default: []].append(k)
        }
        for (k, item) in loose.enumerated() {
            var count = 1
            let bx = TableZoom.floorDiv(item.point.x, unit), by = TableZoom.floorDiv(item.point.y, unit)
            for dx in -1...1 {
                for dy in -1...1 {
                    for other in buckets[Point(x: bx + dx, y: by + dy)] ?? [] where other < k {
                        let q = loose[other].point
                        if abs(q.x - item.point.x) < unit && abs(q.y - item.point.y) < unit { count += 1 }
                    }
                }
            }
            guard count > 1 else { continue }
            let r = rect(item.point, unit: unit)
            let label = "x\(count)"
            let row = TableZoom.floorDiv(r.bottom - 2, 2)
            let column = r.right - label.count
            guard canvas.cellOwned(by: Int32(item.piece), row: row, column: column) else { continue }
            canvas.put(label, row: row, column: column, foreground: TerminalColor(hex: 0x000000), background: TerminalColor(hex: 0xFFD700))
        }
    }

    /// A held piece's holder's name, in their colour, on the screen row
    /// above its ring and tabs, or below its shadow when that row is out of
    /// view or would cover another held piece (neither: no name; the ring's
    /// colour tells whose it is). Then the seconds left when the hold is about
    /// to lapse, white on red, where the player is looking, at every zoom
    /// (names only where pieces are 2 pixels or more).
    /// A held part's name goes by the whole part's box.
    mutating func drawHolderName(_ piece: Int, lock: PieceLock, in st: RoomState, names: [PlayerID: String], secondsLeft: Int? = nil) {
        guard zoom.piecePixels >= 2 || secondsLeft != nil else { return }
        let r = holdRect(st, grip: piece, lock: lock)
        let part = st.parts.part(of: piece)
        // Pixels of the hold's own piece or part (the name may lie over its ring and tabs).
        func ours(_ owner: Int32) -> Bool {
            owner == Int32(piece) || (part != nil && owner >= 0 && Int(owner) < st.pieceCount && st.parts.part(of: Int(owner)) == part)
        }
        guard isVisible(r) else { return }
        let name = names[lock.holder] ?? "player \(lock.holder.rawValue)"
        let shownName = zoom.piecePixels >= 2 ? String(DisplayWidth.prefix(plain ? "\(PlayerPalette.marker(of: lock.holder, in: colorSlots))\(name)" : name, columns: 16)) : ""
        let count = secondsLeft.map { "\($0)s" } ?? ""
        let width = DisplayWidth.of(shownName) + (shownName.isEmpty || count.isEmpty ? 0 : 1) + count.count
        let column = max(0, r.left - 1)
        // The ring and a top tab take pixel y0 - 1: the row above ends before it;
        // the shadow ends at y1 + 1: the row below starts after it.
        let above = TableZoom.floorDiv(r.top - 3, 2), below = TableZoom.floorDiv(r.bottom + 3, 2)
        // Free: no held piece there, and no text (a piece's number, a ruler's,
        // another holder's name): a name over a number would change what it reads.
        func free(_ row: Int) -> Bool {
            guard row >= 0, row < canvas.rows else { return false }
            return (column..<min(canvas.width, column + width)).allSatisfy { x in
                canvas.text[row * canvas.width + x] == nil
                    && [canvas.owner(x, 2 * row), canvas.owner(x, 2 * row + 1)].allSatisfy { ours($0) || !isHeld($0) }
            }
        }
        let row: Int
        if free(above) { row = above } else if free(below) { row = below } else if !count.isEmpty {
            row = above >= 0 ? above : below
        } else { return }
        var used = 0
        if !shownName.isEmpty {
            let color = PlayerPalette.color(of: lock.holder, in: colorSlots)
            used = canvas.put(shownName, row: row, column: column, foreground: color.contrasting, background: color) + 1
        }
        for (i, c) in count.unicodeScalars.enumerated() {
            canvas.put(PixelCanvas.Text(character: c, foreground: plain ? nil : TerminalColor(hex: 0xFFFFFF),
                                        background: plain ? nil : Self.countdownBackground, inverse: plain),
                       row: row, column: column + used + i)
        }
    }

    /// The lapsing hold's count: the alert red of the banners.
    static let countdownBackground = TerminalColor(hex: 0xB00020)

    /// Arrows on the view's edge pointing at held pieces (or parts, wholly) out of sight, in their holder's colour.
    mutating func drawOffScreenMarkers(_ held: [(rect: ScreenBox, holder: PlayerID)]) {
        for (r, holder) in held {
            drawArrow(towards: r, color: PlayerPalette.color(of: holder, in: colorSlots), marker: PlayerPalette.markerScalar(of: holder, in: colorSlots))
        }
    }

    /// An arrow on the view's edge towards a pixel rectangle out of sight
    /// (nothing when it is in sight); plain mode puts `marker` beside it.
    mutating func drawArrow(towards r: ScreenBox, color: TerminalColor, marker: Unicode.Scalar) {
        guard !isVisible(r) else { return }
        let left = r.right <= 0, right = r.left >= canvas.width, up = r.bottom <= 0, down = r.top >= canvas.height
        let arrow: Unicode.Scalar
        switch (left, right, up, down) {
        case (true, _, true, _): arrow = plain ? "\\" : "◤"
        case (true, _, _, true): arrow = plain ? "/" : "◣"
        case (_, true, true, _): arrow = plain ? "/" : "◥"
        case (_, true, _, true): arrow = plain ? "\\" : "◢"
        case (true, _, _, _): arrow = plain ? "<" : "◀"
        case (_, true, _, _): arrow = plain ? ">" : "▶"
        case (_, _, true, _): arrow = plain ? "^" : "▲"
        default: arrow = plain ? "v" : "▼"
        }
        var column = min(max(0, (r.left + r.right) / 2), canvas.width - 1)
        var row = min(max(0, (r.top + r.bottom) / 4), canvas.rows - 1)
        // Not under the overview map in its corner: beside it, on the same edge.
        if let map = mapBox, map.contains(row: layout.viewTop + row, column: column) {
            let top = map.top - layout.viewTop
            if left || right {
                row = top == 0 ? map.height : top - 1
            } else {
                column = map.left == 0 ? map.width : map.left - 1
            }
        }
        canvas.put(PixelCanvas.Text(character: arrow, foreground: plain ? nil : color, background: plain ? nil : TerminalColor(hex: 0x000000)),
                   row: row, column: column)
        if plain {
            // Who (or what) it is: the marker beside the arrow, inside the view.
            canvas.put(PixelCanvas.Text(character: marker, foreground: nil, background: nil), row: row, column: column == 0 ? 1 : column - 1)
        }
    }

    /// Plain mode: the empty board's cells as `+` at each cell's corner (`.` when cells are small).
    mutating func drawPlainBoardMarks(_ st: RoomState) {
        guard plain else { return }
        let g = st.geometry
        for row in 0..<g.rows {
            for col in 0..<g.cols {
                let r = rect(g.origin(of: Cell(row: row, col: col)), unit: g.unit)
                guard isVisible(r) else { continue }
                let line = TableZoom.floorDiv(r.top, 2)
                // Not over a label (a holder's name, a count, a ruler).
                guard canvas.cellOwned(by: PixelCanvas.background, row: line, column: r.left),
                      line >= 0, line < canvas.rows, r.left >= 0, r.left < canvas.width, canvas.text[line * canvas.width + r.left] == nil else { continue }
                canvas.put(PixelCanvas.Text(character: r.width >= 4 ? "+" : ".", foreground: nil, background: nil, bold: false),
                           row: line, column: r.left)
            }
        }
    }

    // MARK: Pictures

    /// How much of the picture the lid's faint copy in an empty cell shows.
    static let faintPercent: UInt32 = 25

    /// `a` moved `percent` of the way to `b`, channel by channel.
    static func blend(_ a: UInt32, _ b: UInt32, percent: UInt32) -> UInt32 {
        func ch(_ shift: UInt32) -> UInt32 {
            let x = (a >> shift) & 0xFF, y = (b >> shift) & 0xFF
            return ((x * (100 - percent) + y * percent) / 100) << shift
        }
        return ch(16) | ch(8) | ch(0)
    }

    /// A piece the filter leaves out: a third of its brightness, no longer a picture pixel.
    static func dim(_ packed: UInt32) -> UInt32 {
        func ch(_ shift: UInt32) -> UInt32 { (((packed >> shift) & 0xFF) / 3) << shift }
        return ch(16) | ch(8) | ch(0)
    }

    static func pack(_ rgb: RGB) -> UInt32 { UInt32(rgb.r) << 16 | UInt32(rgb.g) << 8 | UInt32(rgb.b) }

    /// The picture pixel shown at pixel (i, j) of a piece drawn `w` × `h` pixels and
    /// turned `rotation` quarter turns clockwise (or a colour made from its home
    /// cell without a picture), with the picture flag.
    static func sample(_ picture: Picture?, st: RoomState, piece: Int, i: Int, j: Int, w: Int, h: Int, rotation: Int) -> UInt32 {
        sample(picture, home: st.homeCell(of: piece), rows: st.spec.rows, cols: st.spec.cols, i: i, j: j, w: w, h: h, rotation: rotation)
    }

    /// `sample` for the piece whose home cell is `home` on a `rows` × `cols`
    /// board (a piece's pixels in a row need not look the room up each time).
    @inline(__always)
    static func sample(_ picture: Picture?, home: Cell, rows: Int, cols: Int, i: Int, j: Int, w: Int, h: Int, rotation: Int) -> UInt32 {
        guard let picture else {
            let r = UInt32(40 + 200 * home.col / max(1, cols)), b = UInt32(40 + 200 * home.row / max(1, rows))
            return r << 16 | 90 << 8 | b | PixelCanvas.pictureBit
        }
        let cut = picture.rect(row: home.row, col: home.col, rows: rows, cols: cols)
        let x0 = cut.x, y0 = cut.y, rw = max(1, cut.width), rh = max(1, cut.height)
        // Work in a 2w × 2h lattice of pixel centres, so turning stays exact.
        let u = 2 * i + 1, v = 2 * j + 1, W = 2 * w, H = 2 * h
        let su: Int, sv: Int
        switch rotation & 3 {
        case 1: su = v * W / H; sv = (W - u) * H / W
        case 2: su = W - u; sv = H - v
        case 3: su = (H - v) * W / H; sv = u * H / W
        default: su = u; sv = v
        }
        let x = min(picture.width - 1, x0 + min(rw - 1, max(0, su * rw / W)))
        let y = min(picture.height - 1, y0 + min(rh - 1, max(0, sv * rh / H)))
        return pack(picture[x: x, y: y]) | PixelCanvas.pictureBit
    }
}

extension TableCanvas {
    /// The characters plain mode shades pictures with, lightest first.
    static var plainShades: [Character] { PixelCanvas.shades }
}
