import PuzzleCore

/// Parts (pieces joined on the table, `PartTable`) on the table view: one
/// shape without seams between its pieces (no shadow, outline, ring, tab or
/// blank where two of its pieces meet: only round the whole), a held part in
/// one ring of its holder's colour, and every cell a held part would land in
/// bracketed. A piece on its own is a part of one and draws as before.
extension TableCanvas {
    /// The pixel box round every piece that moves with `grip` when its
    /// corner is at `point`, turned `rotation` (a piece alone: its own `rect`).
    func partRect(_ st: RoomState, grip: Int, at point: Point, rotation: Int) -> ScreenBox {
        let u = st.geometry.unit
        let e = st.partExtent(of: grip, rotation: rotation)
        let left = px(point.x + e.minDx * u), top = py(point.y + e.minDy * u)
        return ScreenBox(left: left, top: top, right: max(left + 1, px(point.x + (e.maxDx + 1) * u)),
                         bottom: max(top + 1, py(point.y + (e.maxDy + 1) * u)))
    }

    /// The pixel box of a hold: its piece, or its whole part.
    func holdRect(_ st: RoomState, grip: Int, lock: PieceLock) -> ScreenBox {
        partRect(st, grip: grip, at: lock.point, rotation: lock.rotation)
    }

    /// Which pieces are in someone's hand, by piece: every piece of a held part.
    static func heldFlags(_ st: RoomState) -> [Bool] {
        var held = [Bool](repeating: false, count: st.pieceCount)
        let parts = st.parts
        for grip in st.locks.keys where grip < held.count {
            if parts.part(of: grip) == nil { held[grip] = true; continue }
            for m in parts.pieces(with: grip) { held[m] = true }
        }
        return held
    }

    /// Whether a pixel's owner is a held piece (`heldPieces`, set by `drawHeldPieces`).
    @inline(__always)
    func isHeld(_ owner: Int32) -> Bool {
        owner >= 0 && Int(owner) < heldPieces.count && heldPieces[Int(owner)]
    }

    /// A part of several pieces lying or held at `point` (its piece `grip`'s
    /// corner), turned `rotation`, as one shape: the shadows of all its
    /// pieces, then the ring (held) or the lifted outline (loose over the
    /// board) round each, then every piece's picture over them, so that where
    /// two of its pieces meet both are covered and only the outside shows;
    /// then the tabs and blanks of the sides that face no piece of the part.
    /// A piece with the part all round it (its 8 neighbours) has no shadow
    /// or ring of its own to draw: the pieces round it would cover them.
    /// Returns the pieces drawn (in view) with their corners.
    @discardableResult
    mutating func drawPart(_ members: [Int], grip: Int, in st: RoomState, picture: Picture?, at point: Point, rotation: Int,
                           lift: Int, ring: UInt32? = nil) -> [(piece: Int, point: Point)] {
        let g = st.geometry, unit = g.unit
        guard isVisible(partRect(st, grip: grip, at: point, rotation: rotation), margin: 2), let part = st.parts.part(of: grip) else { return [] }
        let parts = st.parts, cols = st.spec.cols, rows = st.spec.rows
        let gr = grip / cols, gc = grip % cols
        func inPart(_ r: Int, _ c: Int) -> Bool { r >= 0 && r < rows && c >= 0 && c < cols && parts.part(of: r * cols + c) == part }
        var shown: [(piece: Int, point: Point, rect: ScreenBox, inner: Bool)] = []
        shown.reserveCapacity(members.count)
        for m in members {
            let mr = m / cols, mc = m % cols
            // Its offset beside the grip, turned (a turn maps (dx, dy) to (-dy, dx)).
            var dx = mc - gc, dy = mr - gr
            switch rotation & 3 {
            case 1: (dx, dy) = (-dy, dx)
            case 2: (dx, dy) = (-dx, -dy)
            case 3: (dx, dy) = (dy, -dx)
            default: break
            }
            let p = Point(x: point.x + dx * unit, y: point.y + dy * unit)
            let r = rect(p, unit: unit)
            guard isVisible(r, margin: 2) else { continue }
            let inner = inPart(mr - 1, mc - 1) && inPart(mr - 1, mc) && inPart(mr - 1, mc + 1) && inPart(mr, mc - 1)
                && inPart(mr, mc + 1) && inPart(mr + 1, mc - 1) && inPart(mr + 1, mc) && inPart(mr + 1, mc + 1)
            shown.append((m, p, r, inner))
        }
        if lift > 0 { for s in shown where !s.inner { drawShadow(s.rect, lift: lift) } }
        if let ring {
            for s in shown where !s.inner { canvas.frame(s.rect.outset(by: 1), ring, owner: PixelCanvas.ring) }
        } else {
            for s in shown where !s.inner && s.rect.width >= 3 && overBoard(s.point, g) {
                canvas.frame(s.rect.outset(by: 1), Self.liftedOutline, owner: PixelCanvas.background)
            }
        }
        for s in shown {
            drawPicture(s.piece, home: Cell(row: s.piece / cols, col: s.piece % cols), rows: rows, cols: cols, picture: picture, rect: s.rect, rotation: rotation)
        }
        if st.spec.kind == .jigsaw, shown.first.map({ $0.rect.width >= 4 }) == true {
            for s in shown where !s.inner {
                // The side facing a piece of the part is a join, not an edge.
                drawEdges(s.piece, in: st, picture: picture, rect: s.rect, rotation: rotation) { side in
                    let home = Side(rawValue: (side.rawValue - rotation + 8) & 3)!
                    return !inPart(s.piece / cols + home.step.dr, s.piece % cols + home.step.dc)
                }
            }
        }
        return shown.map { ($0.piece, $0.point) }
    }

    /// Whether a piece with its corner at `point` lies (partly) over the board.
    func overBoard(_ point: Point, _ g: TableGeometry) -> Bool {
        let o = g.boardOrigin
        return point.x + g.unit > o.x && point.x < o.x + g.cols * g.unit && point.y + g.unit > o.y && point.y < o.y + g.rows * g.unit
    }

    /// The cells held pieces and parts would land in (`targetCells`): each
    /// cell with the index of its holders in `holders` (one list for all the
    /// cells of one hold: a part aims at thousands of cells).
    struct TargetCells {
        var cells: [(cell: Cell, group: Int)] = []
        var holders: [[PlayerID]] = []
    }

    /// Every cell a held piece or part would land in if dropped now, and who
    /// aims at it: a part's target is its grip's cell, and each of its other
    /// pieces goes into the cell beside it as in the picture (at the hold's
    /// rotation). Only cells in view; several holders of one cell sorted by
    /// id, cells in a stable order.
    func targetCells(_ st: RoomState, grips: [Int]) -> TargetCells {
        let g = st.geometry, cols = st.spec.cols
        var out = TargetCells()
        var aiming: [(grip: Int, lock: PieceLock)] = []
        for grip in grips { if let lock = st.locks[grip], lock.target != nil { aiming.append((grip, lock)) } }
        // The cells of one hold, in view.
        func cells(_ grip: Int, _ lock: PieceLock, _ add: (Cell) -> Void) {
            guard let t = lock.target else { return }
            let gr = grip / cols, gc = grip % cols
            for m in st.parts.pieces(with: grip) {
                var dx = m % cols - gc, dy = m / cols - gr
                switch lock.rotation & 3 {
                case 1: (dx, dy) = (-dy, dx)
                case 2: (dx, dy) = (-dx, -dy)
                case 3: (dx, dy) = (dy, -dx)
                default: break
                }
                let cell = Cell(row: t.row + dy, col: t.col + dx)
                guard g.isOnBoard(cell), isVisible(rect(g.origin(of: cell), unit: g.unit), margin: 1) else { continue }
                add(cell)
            }
        }
        // One hold aiming (by far the most common): its cells are distinct, one list of holders.
        if aiming.count == 1 {
            out.holders = [[aiming[0].lock.holder]]
            cells(aiming[0].grip, aiming[0].lock) { out.cells.append(($0, 0)) }
            return out
        }
        var byCell: [Cell: [PlayerID]] = [:]
        for (grip, lock) in aiming { cells(grip, lock) { byCell[$0, default: []].append(lock.holder) } }
        var groups: [[PlayerID]: Int] = [:]
        for (cell, all) in byCell.sorted(by: { ($0.key.row, $0.key.col) < ($1.key.row, $1.key.col) }) {
            let holders = Array(Set(all)).sorted()
            let group = groups[holders] ?? {
                out.holders.append(holders)
                groups[holders] = out.holders.count - 1
                return out.holders.count - 1
            }()
            out.cells.append((cell, group))
        }
        return out
    }

    /// Pixels lying within one pixel of a held piece (where its ring is), over
    /// the canvas and `ringZoneMargin` pixels round it: a target cell's
    /// brackets go a pixel further out where this touches the cell. Pixel by
    /// pixel rather than piece by piece, so a part of thousands of pieces over
    /// thousands of target cells costs the pixels in view, not their product.
    struct RingZone {
        let left: Int, top: Int, width: Int, height: Int
        var marked: [Bool]

        /// Whether any pixel of `r` is in the zone.
        func touches(_ r: ScreenBox) -> Bool {
            let x0 = max(left, r.left), x1 = min(left + width, r.right), y0 = max(top, r.top), y1 = min(top + height, r.bottom)
            guard x0 < x1, y0 < y1 else { return false }
            for y in y0..<y1 {
                let row = (y - top) * width - left
                for x in x0..<x1 where marked[row + x] { return true }
            }
            return false
        }
    }

    /// The largest piece (16 pixels) and its ring: a target cell in view
    /// (within a pixel of it) lies wholly within this margin of the canvas.
    static let ringZoneMargin = 18

    /// The ring zone of the holds of `grips` (`RingZone`).
    func ringZone(_ st: RoomState, grips: [Int]) -> RingZone {
        let m = Self.ringZoneMargin
        var zone = RingZone(left: -m, top: -m, width: canvas.width + 2 * m, height: canvas.height + 2 * m,
                            marked: [Bool](repeating: false, count: (canvas.width + 2 * m) * (canvas.height + 2 * m)))
        let unit = st.geometry.unit
        let area = ScreenBox(left: zone.left, top: zone.top, right: zone.left + zone.width, bottom: zone.top + zone.height)
        for grip in grips {
            guard let lock = st.locks[grip], holdRect(st, grip: grip, lock: lock).outset(by: 1).intersects(area) else { continue }
            for piece in st.parts.pieces(with: grip) {
                let p = piece == grip ? lock.point : st.board.point(of: piece, grip: grip, at: lock.point, rotation: lock.rotation)
                let r = rect(p, unit: unit).outset(by: 1)
                let x0 = max(area.left, r.left), x1 = min(area.right, r.right), y0 = max(area.top, r.top), y1 = min(area.bottom, r.bottom)
                guard x0 < x1, y0 < y1 else { continue }
                for y in y0..<y1 {
                    let row = (y - zone.top) * zone.width - zone.left
                    for x in x0..<x1 { zone.marked[row + x] = true }
                }
            }
        }
        return zone
    }
}
