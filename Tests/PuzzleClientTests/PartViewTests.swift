import Testing
import PuzzleCore
@testable import PuzzleClient

/// Issue 28, the terminal: a part (pieces joined on the table) is drawn as
/// one shape without seams between its pieces, a held part has one ring of
/// its holder's colour round the whole of it and one name, every cell it
/// would land in is bracketed for everyone, and the still layer's memo keeps
/// up with parts (every piece of a held part moves; a join redraws).
@Suite struct PartViewTests {
    static let alice = SceneFixtures.alice, bob = SceneFixtures.bob

    /// A 4x4 jigsaw with alice and bob in it where `members` lie loose as in
    /// the picture, `members[0]`'s corner at `offset` units from its own
    /// cell's corner (over the board, where a loose piece is outlined), at
    /// rotation 0, joined into one part unless `joined` is false.
    static func room(part members: [Int], offset: Int = 2, joined: Bool = true, rows: Int = 4, cols: Int = 4) throws -> RoomState {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: rows, cols: cols)
        let base = RoomState(settings: RoomSettings(first: spec, leaseMillis: 10_000, seed: 3))
        let g = base.geometry, first = members[0]
        let home = g.origin(of: g.cell(at: first))
        let corner = Point(x: home.x + offset, y: home.y + offset)
        var pieces = base.pieces
        for m in members { pieces[m] = PieceState(location: .table(base.board.point(of: m, grip: first, at: corner, rotation: 0))) }
        var st = try RoomState(settings: base.settings, puzzleIndex: 0, spec: spec, pieces: pieces, parts: joined ? [members.sorted()] : [],
                               locks: [:], players: [:], seq: 0, elapsed: 0, clockRunning: false, solveMillis: nil, now: 0)
        try st.perform(.join(name: "alice"), by: alice, at: 0)
        try st.perform(.join(name: "bob"), by: bob, at: 0)
        return st
    }

    /// The canvas the renderer draws for `scene` (still layer and moving layer).
    static func canvas(_ scene: Scene) -> TableCanvas { HeldPieceViewTests.canvas(scene) }

    /// The pixels along the edge two pieces of a part share (`a` left of or
    /// above `b` on the screen), two deep on each side: each must be its own
    /// piece's picture, nothing else (no shadow, outline, ring, tab or blank).
    static func seamPixels(_ c: TableCanvas, _ st: RoomState, _ a: Int, _ b: Int, picture: Picture?) -> [(x: Int, y: Int, piece: Int, want: UInt32)] {
        let unit = st.geometry.unit
        let ra = c.rect(st.position(of: a), unit: unit), rb = c.rect(st.position(of: b), unit: unit)
        let rotation = st.displayRotation(of: a)
        var out: [(Int, Int, Int, UInt32)] = []
        func add(_ piece: Int, _ r: ScreenBox, _ x: Int, _ y: Int) {
            out.append((x, y, piece, TableCanvas.sample(picture, st: st, piece: piece, i: x - r.left, j: y - r.top, w: r.width, h: r.height, rotation: rotation)))
        }
        if ra.right == rb.left {
            for y in ra.top..<ra.bottom {
                for x in (ra.right - 2)..<ra.right { add(a, ra, x, y) }
                for x in rb.left..<(rb.left + 2) { add(b, rb, x, y) }
            }
        } else {
            for x in ra.left..<ra.right {
                for y in (ra.bottom - 2)..<ra.bottom { add(a, ra, x, y) }
                for y in rb.top..<(rb.top + 2) { add(b, rb, x, y) }
            }
        }
        return out
    }

    static func expectNoSeam(_ c: TableCanvas, _ st: RoomState, _ a: Int, _ b: Int, picture: Picture?, _ what: String) {
        let pixels = seamPixels(c, st, a, b, picture: picture)
        #expect(pixels.count >= 16, "\(what): the pieces are too small to look at")
        var wrong: [String] = []
        for p in pixels {
            let owner = c.canvas.owner(p.x, p.y), shown = c.canvas.pixels[p.y * c.canvas.width + p.x] & ~PixelCanvas.setBit
            if owner != Int32(p.piece) || shown != p.want { wrong.append("\(p.x),\(p.y) owner \(owner)") }
        }
        #expect(wrong.isEmpty, "\(what): a seam between pieces \(a) and \(b) at \(wrong.prefix(6))")
    }

    /// A loose part over the board: where its pieces meet, each shows its
    /// own picture to the edge (no lifted outline, shadow, tab or blank there),
    /// while the same pieces not joined show all of them; the outline still
    /// runs round the outside.
    @Test func aLoosePartHasNoSeamsBetweenItsPieces() throws {
        let st = try Self.room(part: [5, 6, 9])
        let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40)
        let c = Self.canvas(scene)
        #expect(c.rect(st.position(of: 5), unit: st.geometry.unit).width >= 6)
        Self.expectNoSeam(c, st, 5, 6, picture: scene.picture, "5 and 6 side by side")
        Self.expectNoSeam(c, st, 5, 9, picture: scene.picture, "5 over 9")
        // The outside is outlined: the pixel left of piece 5, by its top corner.
        let r5 = c.rect(st.position(of: 5), unit: st.geometry.unit)
        #expect(c.canvas.pixels[(r5.top + 1) * c.canvas.width + r5.left - 1] & PixelCanvas.colorMask == TableCanvas.liftedOutline)
        // Not joined, the same pieces in the same places show their seams.
        let apart = try Self.room(part: [5, 6, 9], joined: false)
        let seams = Self.canvas(SceneFixtures.scene(apart, colorMode: .trueColor, width: 120, height: 40))
        let seam = Self.seamPixels(seams, apart, 5, 6, picture: scene.picture).filter {
            seams.canvas.owner($0.x, $0.y) != Int32($0.piece) || seams.canvas.pixels[$0.y * seams.canvas.width + $0.x] & ~PixelCanvas.setBit != $0.want
        }
        #expect(!seam.isEmpty, "pieces apart show where they meet")
    }

    /// Alice holds the part by piece 6 and has dragged it: every piece of it
    /// moved with the grip, drawn whole without seams, one ring of her colour
    /// round the whole part (never inside it) and her name once.
    @Test func aHeldPartHasOneRingRoundTheWholeAndNoSeams() throws {
        var st = try Self.room(part: [5, 6, 9])
        try st.perform(.grab(piece: 6), by: Self.alice, at: 80_000)
        let was = st.position(of: 9)
        try st.perform(.drag(piece: 6, to: Point(x: st.position(of: 6).x - 7, y: st.position(of: 6).y + 3)), by: Self.alice, at: 80_000)
        #expect(st.position(of: 9) == Point(x: was.x - 7, y: was.y + 3))
        let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40)
        let c = Self.canvas(scene)
        let unit = st.geometry.unit
        let rects = [5, 6, 9].map { c.rect(st.position(of: $0), unit: unit) }
        // Every piece where the hold carries it (the picture's middle pixel, clear of tabs and numbers' text).
        for (piece, r) in zip([5, 6, 9], rects) {
            #expect(c.canvas.owner(r.left + 1, r.top + 1) == Int32(piece), "piece \(piece) is not where its part is held")
        }
        Self.expectNoSeam(c, st, 5, 6, picture: scene.picture, "held 5 and 6")
        Self.expectNoSeam(c, st, 5, 9, picture: scene.picture, "held 5 over 9")
        let ring = PixelCanvas.pack(PlayerPalette.color(of: Self.alice, in: st.colorSlots))
        func inside(_ x: Int, _ y: Int) -> Bool { rects.contains { x >= $0.left && x < $0.right && y >= $0.top && y < $0.bottom } }
        func near(_ x: Int, _ y: Int) -> Bool { rects.contains { $0.outset(by: 1).contains(x, y) } }
        var ringPixels = 0
        for y in 0..<c.canvas.height {
            for x in 0..<c.canvas.width where c.canvas.owner(x, y) == PixelCanvas.ring {
                #expect(c.canvas.pixels[y * c.canvas.width + x] & PixelCanvas.colorMask == ring)
                #expect(!inside(x, y), "a ring pixel inside the part at \(x),\(y)")
                #expect(near(x, y), "a ring pixel away from the part at \(x),\(y)")
                ringPixels += 1
            }
        }
        // Round the whole outline (less the tabs over it): the three pieces' outer sides.
        let outline = rects.reduce(0) { $0 + 2 * ($1.width + $1.height) } - 4 * rects[0].height + 4
        #expect(ringPixels >= outline / 2, "\(ringPixels) ring pixels round an outline of about \(outline)")
        let f = SceneRenderer.render(scene)
        let layout = SceneLayout(width: 120, height: 40)
        let table = (layout.viewTop..<(layout.viewTop + layout.viewRows)).map { r in String((0..<layout.viewColumns).map { f[r, $0].character }) }
        #expect(table.joined(separator: "\n").components(separatedBy: "alice").count - 1 == 1, "one name for one hold")
    }

    /// Without colours (`NO_COLOR`) the ring is the holder's marker in the
    /// screen cells round the whole part, never in a cell inside it (where two
    /// of its pieces meet).
    @Test func plainModeMarksTheRingRoundTheWholePartOnly() throws {
        var st = try Self.room(part: [5, 6, 9])
        try st.perform(.grab(piece: 5), by: Self.alice, at: 80_000)
        let scene = SceneFixtures.scene(st, colorMode: .plain, width: 120, height: 40)
        let c = Self.canvas(scene)
        let marker = PlayerPalette.markerScalar(of: Self.alice, in: st.colorSlots)
        let rects = [5, 6, 9].map { c.rect(st.position(of: $0), unit: st.geometry.unit) }
        func inside(_ x: Int, _ y: Int) -> Bool { rects.contains { x >= $0.left && x < $0.right && y >= $0.top && y < $0.bottom } }
        var round = 0
        for row in 0..<c.canvas.rows {
            for x in 0..<c.canvas.width where c.canvas.text[row * c.canvas.width + x]?.character == marker {
                #expect(!(inside(x, 2 * row) && inside(x, 2 * row + 1)), "the marker inside the part at \(x),\(row)")
                round += 1
            }
        }
        #expect(round >= 8, "the ring's markers: \(round)")
    }

    /// Alice aims her part at its own place from the row below (a drop there
    /// puts it in, `place=own`): every cell a piece of it would land in
    /// carries her brackets, not only the grip's; bob sees the same.
    @Test func everyCellAHeldPartWouldLandInIsBracketed() throws {
        var st = try Self.room(part: [5, 6, 7])
        try st.perform(.grab(piece: 6), by: Self.alice, at: 80_000)
        let below = st.geometry.origin(of: Cell(row: 2, col: 2))
        try st.perform(.drag(piece: 6, to: below), by: Self.alice, at: 80_000)
        #expect(st.locks[6]?.target == Cell(row: 1, col: 2))
        let mine = PixelCanvas.pack(PlayerPalette.color(of: Self.alice, in: st.colorSlots))
        for me in [Self.alice, Self.bob] {
            var scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40)
            scene.myID = me
            let c = Self.canvas(scene)
            for cell in [Cell(row: 1, col: 1), Cell(row: 1, col: 2), Cell(row: 1, col: 3)] {
                let r = c.rect(st.geometry.origin(of: cell), unit: st.geometry.unit)
                var marked = 0
                for y in (r.top - 2)..<(r.bottom + 2) {
                    for x in (r.left - 2)..<(r.right + 2) where c.canvas.owner(x, y) == PixelCanvas.mark
                        && c.canvas.pixels[y * c.canvas.width + x] & PixelCanvas.colorMask == mine { marked += 1 }
                }
                #expect(marked >= 4, "cell \(cell) \(r) not bracketed (\(marked)) as \(me == Self.alice ? "alice" : "bob") sees it")
            }
            // No other cell is (but for the corner a bracket next door reaches into).
            let other = c.rect(st.geometry.origin(of: Cell(row: 0, col: 0)), unit: st.geometry.unit).outset(by: -2)
            #expect(!(other.top..<other.bottom).contains { y in (other.left..<other.right).contains { c.canvas.owner($0, y) == PixelCanvas.mark } })
        }
    }

    /// Zoomed out until a cell is a pixel or less, a held part's target cells
    /// are squares of the holder's colour, each of them.
    @Test func tinyTargetCellsOfAPartAreEachMarked() throws {
        var st = try Self.room(part: [5, 6, 9, 10])
        try st.perform(.grab(piece: 5), by: Self.alice, at: 80_000)
        let home = st.geometry.origin(of: Cell(row: 1, col: 1))
        try st.perform(.drag(piece: 5, to: Point(x: home.x + 1, y: home.y)), by: Self.alice, at: 80_000)
        #expect(st.locks[5]?.target == Cell(row: 1, col: 1))
        let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: TableZoom(pixels: 1, cells: 1))
        var cache = TableLayerCache()
        var c = cache.stillLayer(st, scene: scene, layout: SceneLayout(width: 120, height: 40, zoom: scene.zoom)).0
        c.colorSlots = st.colorSlots
        c.drawTargets(st, grips: [5])
        for cell in [Cell(row: 1, col: 1), Cell(row: 1, col: 2), Cell(row: 2, col: 1), Cell(row: 2, col: 2)] {
            let r = c.rect(st.geometry.origin(of: cell), unit: st.geometry.unit)
            #expect(c.canvas.owner(r.left, r.top) == PixelCanvas.mark, "cell \(cell)")
        }
    }

    /// The memo stays the frame drawn without it through a part's life: two
    /// pieces lying exactly side by side then joined (no piece moves, the
    /// seam goes: redrawn), the part grabbed (redrawn: its pieces leave the
    /// still layer), dragged (not redrawn), dropped (redrawn).
    @Test func theStillLayerKeepsUpWithParts() throws {
        let apart = try Self.room(part: [5, 6], joined: false)
        var st = try Self.room(part: [5, 6])
        #expect(apart.pieces == st.pieces)
        var scene = SceneFixtures.scene(apart, colorMode: .trueColor, width: 120, height: 40)
        var cache = TableLayerCache()
        var redraws = 0
        func check(_ what: String, _ state: RoomState, redrawn: Bool) {
            scene.state = state
            let memo = SceneRenderer.render(scene, cache: &cache)
            #expect(memo == SceneRenderer.render(scene), "\(what): the memo drew another frame")
            if redrawn { redraws += 1 }
            #expect(cache.redraws == redraws, "\(what): still layer drawn \(cache.redraws) times, expected \(redraws)")
        }
        check("two pieces side by side", apart, redrawn: true)
        check("joined where they lie", st, redrawn: true)
        try st.perform(.grab(piece: 5), by: Self.alice, at: 80_000)
        check("the part grabbed", st, redrawn: true)
        for step in 1...3 {
            try st.perform(.drag(piece: 5, to: Point(x: st.position(of: 5).x - step, y: st.position(of: 5).y)), by: Self.alice, at: 80_000)
            check("the part dragged (\(step))", st, redrawn: false)
        }
        try st.perform(.drop(piece: 5), by: Self.alice, at: 80_001)
        check("the part dropped", st, redrawn: true)
    }
}

private extension ScreenBox {
    func contains(_ x: Int, _ y: Int) -> Bool { x >= left && x < right && y >= top && y < bottom }
}
