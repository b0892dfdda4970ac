import Testing
import PuzzleCore
@testable import PuzzleClient

/// The table view at every size: fitted on joining, zoom levels, half-block
/// pixels in each colour mode, lifted and placed pieces, drop targets on top,
/// markers towards held pieces out of sight, stacks.
@Suite struct TableViewTests {
    static let alice = SceneFixtures.alice, bob = SceneFixtures.bob

    static func room(_ kind: PuzzleKind, _ rows: Int, _ cols: Int, seed: UInt64 = 3, placement: Placement = .own) throws -> RoomState {
        let spec = try PuzzleSpec(kind: kind, rows: rows, cols: cols)
        var st = RoomState(settings: RoomSettings(first: spec, seed: seed, placement: placement))
        var events: [RoomEvent] = []
        try st.perform(.join(name: "alice"), by: alice, at: 0, into: &events)
        try st.perform(.join(name: "bob"), by: bob, at: 0, into: &events)
        return st
    }

    /// The piece numbers written in the table view (left of the panel, between status and messages).
    static func numbersInView(_ f: Frame, width: Int, height: Int) -> [Int] {
        let layout = SceneLayout(width: width, height: height)
        var found: [Int] = []
        for r in layout.viewTop..<(layout.viewTop + layout.viewRows) {
            // The rulers' row and column numbers are not pieces'.
            let line = String((0..<layout.viewColumns).map { f[r, $0].style.background == TableCanvas.rulerStyle.background ? " " : f[r, $0].character })
            found += line.split { !$0.isNumber }.compactMap { Int($0) }
        }
        return found
    }

    @Test func aFreshTenByTenOnA120x40TerminalShowsEveryNumberOnce() throws {
        let st = try Self.room(.jigsaw, 10, 10)
        let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40)
        #expect(scene.zoom == TableZoom(pixels: 4, cells: 1))
        let f = SceneRenderer.render(scene)
        #expect(Self.numbersInView(f, width: 120, height: 40).sorted() == Array(0..<100))
        #expect(f.cells.filter { $0.character == "▀" }.count > 500)
    }

    @Test(arguments: [(120, 40), (200, 60), (80, 24)])
    func theWholeTableOfAHundredByHundredFitsTheOverview(width: Int, height: Int) throws {
        let st = try Self.room(.jigsaw, 100, 100)
        let layout = SceneLayout(width: width, height: height)
        let fitted = layout.fit(table: st.geometry)
        #expect(fitted.zoom.pixel(st.geometry.width) <= layout.viewPixels.x)
        #expect(fitted.zoom.pixel(st.geometry.height) <= layout.viewPixels.y)
        // The board and every loose piece: the view's first point is at or before the table's corner.
        #expect(fitted.view.x <= 0 && fitted.view.y <= 0)
        let f = SceneRenderer.render(SceneFixtures.scene(st, colorMode: .trueColor, width: width, height: height))
        let tableCells = f.cells.filter { $0.style.background != nil && $0.character != " " || $0.character == "▀" }.count
        #expect(tableCells > 100)
    }

    @Test func theMouseMapsToTheTableAtEveryZoom() {
        var checked = 0
        for zoom in TableZoom.levels {
            let layout = SceneLayout(width: 120, height: 40, zoom: zoom)
            let view = Point(x: 3, y: 5)
            for p in [Point(x: 3, y: 5), Point(x: 20, y: 17), Point(x: 40, y: 30)] {
                // The screen cell showing table point p maps back to p, within one pixel's units.
                let column = zoom.pixel(p.x - view.x), row = layout.viewTop + zoom.pixel(p.y - view.y) / 2
                // Points beyond the view at the larger zooms are not on screen.
                guard let back = layout.tablePoint(row: row, column: column, view: view) else { continue }
                checked += 1
                let slack = max(1, zoom.units(inPixels: 2))
                #expect(abs(back.x - p.x) <= slack && abs(back.y - p.y) <= slack, "\(zoom): \(p) came back as \(back)")
            }
        }
        #expect(checked >= 25)
        // Zooming keeps the point under the pointer.
        let layout = SceneLayout(width: 120, height: 40, zoom: .standard)
        let g2 = TableGeometry.jigsaw(rows: 20, cols: 20)
        let view = Point(x: 40, y: 20)
        let before = layout.tablePoint(row: 10, column: 30, view: view)!
        let zoomed = layout.zoom(to: TableZoom(pixels: 16, cells: 1), keeping: 10, 30, view: view, table: g2)
        let after = layout.zoomed(TableZoom(pixels: 16, cells: 1)).tablePoint(row: 10, column: 30, view: zoomed.view, shift: zoomed.shift)!
        #expect(abs(after.x - before.x) <= 1 && abs(after.y - before.y) <= 1)
    }

    @Test func zoomLevelsScalePieces() throws {
        let st = try Self.room(.jigsaw, 3, 3)
        let picture = Picture.builtin("quilt", width: 24, height: 24)
        var areas: [Int] = []
        let corner = st.position(of: 0)
        // Piece 0 drawn at each level, the view just above and left of it: the
        // pixels it owns (its number's cells keep their pixels).
        for zoom in TableZoom.levels {
            var canvas = TableCanvas(layout: SceneLayout(width: 120, height: 40, zoom: zoom), view: Point(x: corner.x - 1, y: corner.y - 1),
                                     colorMode: .trueColor, showNumbers: true)
            canvas.drawBoard(st, picture: picture, hint: false)
            let loose = canvas.drawLoosePieces(st, picture: picture)
            canvas.drawHeldPieces(st, picture: picture, names: [:], loose: loose)
            areas.append(canvas.canvas.owner.filter { $0 == 0 }.count)
        }
        // 16, 12, 8, 6, 4, 3, 2, 1 pixels a side (plus tab bumps at the larger ones), then at most one
        // pixel shared with the pieces around.
        #expect(areas[0] >= 256 && areas[2] >= 64 && areas[4] >= 16 && areas[7] == 1 && areas[10] <= 1, "\(areas)")
        #expect(zip(areas, areas.dropFirst()).allSatisfy { $0 >= $1 }, "\(areas)")
    }

    @Test func halfBlocksIn256ColoursAndInTrueColour() throws {
        let st = try SceneFixtures.twoDrags(kind: .jigsaw)
        let f = SceneRenderer.render(SceneFixtures.scene(st, colorMode: .palette256, width: 64, height: 22))
        #expect(f.cells.contains { $0.character == "▀" })
        let bytes256 = String(decoding: f.diff(from: nil, colorMode: .palette256), as: UTF8.self)
        #expect(bytes256.contains("48;5;") && bytes256.contains("38;5;") && !bytes256.contains("48;2;"))
        let bytes24 = String(decoding: f.diff(from: nil, colorMode: .trueColor), as: UTF8.self)
        #expect(bytes24.contains("48;2;") && bytes24.contains("▀"))
    }

    @Test func asciiHasNoHalfBlocksAndNoColours() throws {
        let st = try SceneFixtures.twoDrags(kind: .jigsaw)
        let f = SceneRenderer.render(SceneFixtures.scene(st, colorMode: .plain, width: 64, height: 22))
        #expect(!f.cells.contains { $0.character == "▀" || $0.character == "▄" })
        let bytes = String(decoding: f.diff(from: nil, colorMode: .plain), as: UTF8.self)
        #expect(!bytes.contains("38;") && !bytes.contains("48;"))
        // Pictures as shading, players as markers.
        #expect(f.cells.contains { TableCanvas.plainShades.contains($0.character) && $0.character != " " })
        #expect(f.cells.contains { $0.character == "#" } && f.cells.contains { $0.character == "@" })
    }

    @Test func aLoosePieceOverTheBoardIsLiftedAPlacedOneIsFlush() throws {
        var st = try Self.room(.jigsaw, 3, 3)
        var events: [RoomEvent] = []
        let g = st.geometry
        // Piece 0 placed home; piece 1 (flat top) left on the bottom middle cell, where
        // neither it nor any cell around fits it.
        for (piece, to) in [(0, g.origin(of: Cell(row: 0, col: 0))), (1, g.origin(of: Cell(row: 2, col: 1)))] {
            try st.perform(.grab(piece: piece), by: Self.alice, at: 1, into: &events)
            try st.perform(.drag(piece: piece, to: to), by: Self.alice, at: 1, into: &events)
            try st.perform(.drop(piece: piece), by: Self.alice, at: 1, into: &events)
        }
        #expect(st.pieces[0].location == .board(Cell(row: 0, col: 0)))
        #expect(st.pieces[1].location == .table(g.origin(of: Cell(row: 2, col: 1))))
        let zoom = TableZoom(pixels: 8, cells: 1)
        let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: zoom)
        var canvas = TableCanvas(layout: SceneLayout(width: 120, height: 40, zoom: zoom), view: scene.view, colorMode: .trueColor, showNumbers: true)
        canvas.drawBoard(st, picture: scene.picture, hint: false)
        let loosePieces = canvas.drawLoosePieces(st, picture: scene.picture)
        canvas.drawHeldPieces(st, picture: scene.picture, names: scene.names, loose: loosePieces)
        func pixel(_ x: Int, _ y: Int) -> UInt32 { canvas.canvas.pixels[y * canvas.canvas.width + x] & PixelCanvas.colorMask }
        let loose = canvas.rect(g.origin(of: Cell(row: 2, col: 1)), unit: g.unit)
        let placed = canvas.rect(g.origin(of: Cell(row: 0, col: 0)), unit: g.unit)
        // The loose piece: an outline just outside it (left side), and its shadow below right.
        #expect(pixel(loose.left - 1, loose.top + 2) == TableCanvas.liftedOutline)
        #expect(pixel(loose.right, loose.bottom) == TableCanvas.shadow || pixel(loose.right, loose.bottom) == TableCanvas.liftedOutline)
        // The placed piece: the next cell's board colour right next to it, no outline.
        #expect(pixel(placed.right, placed.top + 2) != TableCanvas.liftedOutline)
        #expect(canvas.canvas.owner[(placed.top + 2) * canvas.canvas.width + placed.right] == PixelCanvas.background)
    }

    /// A piece held right over its target cell: the piece whole (its corner
    /// pixel its own), its holder's ring whole, the target's brackets round
    /// the ring, and the name.
    @Test func theDropTargetFramesAPieceHeldRightOverIt() throws {
        var st = try Self.room(.jigsaw, 3, 3)
        var events: [RoomEvent] = []
        let g = st.geometry
        try st.perform(.grab(piece: 4), by: Self.alice, at: 1, into: &events)
        try st.perform(.drag(piece: 4, to: g.origin(of: Cell(row: 1, col: 1))), by: Self.alice, at: 1, into: &events)
        #expect(st.locks[4]?.target == Cell(row: 1, col: 1))
        let zoom = TableZoom(pixels: 8, cells: 1)
        let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: zoom)
        let f = SceneRenderer.render(scene)
        var canvas = TableCanvas(layout: SceneLayout(width: 120, height: 40, zoom: zoom), view: scene.view, colorMode: .trueColor, showNumbers: true)
        let r = canvas.rect(g.origin(of: Cell(row: 1, col: 1)), unit: g.unit)
        canvas.drawBoard(st, picture: scene.picture, hint: false)
        let loose = canvas.drawLoosePieces(st, picture: scene.picture)
        canvas.drawHeldPieces(st, picture: scene.picture, names: scene.names, loose: loose)
        let c = canvas.canvas
        func at(_ x: Int, _ y: Int) -> (UInt32, Int32) { (c.pixels[y * c.width + x] & PixelCanvas.colorMask, c.owner[y * c.width + x]) }
        let ring = PixelCanvas.pack(PlayerPalette.color(of: Self.alice, in: st.colorSlots))
        // The brackets' keyline round the ring, at the corners.
        for (x, y) in [(r.left - 2, r.top - 2), (r.right + 1, r.bottom + 1), (r.left - 2, r.top), (r.right + 1, r.top - 2)] {
            #expect(at(x, y) == (TableCanvas.targetKeyline, PixelCanvas.mark), "corner mark at \(x),\(y)")
        }
        // The ring itself whole, corners included: the mark never hides whose the piece is.
        for (x, y) in [(r.left - 1, r.top - 1), (r.right, r.bottom), (r.left - 1, r.top + 1), (r.right, r.top)] {
            #expect(at(x, y) == (ring, PixelCanvas.ring), "ring at \(x),\(y)")
        }
        let ringPixels = (r.left - 1...r.right).filter { at($0, r.top - 1) == (ring, PixelCanvas.ring) || at($0, r.bottom) == (ring, PixelCanvas.ring) }
        #expect(ringPixels.count >= 2)
        for (x, y) in [(r.left, r.top), (r.right - 1, r.bottom - 1)] { #expect(at(x, y).1 == 4) }
        // In the frame: the held piece carries alice's name in her colour.
        let named = f.cells.enumerated().filter { $0.element.character == "a" && $0.element.style.background == PlayerPalette.color(of: Self.alice, in: st.colorSlots) }
        #expect(!named.isEmpty)
    }

    @Test func heldPiecesOutOfSightArePointedAtInTheirHoldersColour() throws {
        var st = try Self.room(.jigsaw, 10, 10)
        var events: [RoomEvent] = []
        let g = st.geometry
        try st.perform(.grab(piece: 5), by: Self.bob, at: 1, into: &events)
        try st.perform(.drag(piece: 5, to: Point(x: g.width - 4, y: g.height - 4)), by: Self.bob, at: 1, into: &events)
        let zoom = TableZoom(pixels: 16, cells: 1)
        let f = SceneRenderer.render(SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: zoom))
        let bob = PlayerPalette.color(of: Self.bob, in: st.colorSlots)
        #expect(f.cells.contains { $0.character == "◢" && $0.style.foreground == bob })
        // Plain: an arrow and bob's marker.
        let p = SceneRenderer.render(SceneFixtures.scene(st, colorMode: .plain, width: 120, height: 40, zoom: zoom))
        #expect(SceneFixtures.rows(p).contains { $0.contains("@\\") })
    }

    @Test func aPieceDroppedOnAnotherShowsAStack() throws {
        var st = try Self.room(.jigsaw, 4, 4)
        var events: [RoomEvent] = []
        guard case .table(let under) = st.pieces[2].location else { Issue.record("piece 2 not loose"); return }
        try st.perform(.grab(piece: 9), by: Self.alice, at: 1, into: &events)
        try st.perform(.drag(piece: 9, to: Point(x: under.x + 1, y: under.y)), by: Self.alice, at: 1, into: &events)
        try st.perform(.drop(piece: 9), by: Self.alice, at: 1, into: &events)
        let f = SceneRenderer.render(SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: TableZoom(pixels: 8, cells: 1)))
        #expect(SceneFixtures.rows(f).contains { $0.contains("x2") })
    }

    /// `screenCell` is `tablePoint` backwards: the cell found for a table point
    /// shows that point, within what one cell spans at the zoom.
    @Test func aTablePointsScreenCellShowsItAtEveryZoom() {
        for zoom in TableZoom.levels {
            let layout = SceneLayout(width: 120, height: 40, zoom: zoom)
            let view = Point(x: -7, y: 5)
            let perColumn = zoom.units(inPixels: 1) + 1
            for p in [Point(x: -7, y: 5), Point(x: 3, y: 11), Point(x: view.x + layout.viewUnits.x / 2, y: view.y + layout.viewUnits.y / 3)] {
                let cell = layout.screenCell(of: p, view: view)
                let shown = cell.flatMap { layout.tablePoint(row: $0.row, column: $0.column, view: view) }
                #expect(shown.map { abs($0.x - p.x) <= perColumn && abs($0.y - p.y) <= 2 * perColumn } == true,
                        "\(zoom): \(p) -> \(String(describing: cell)) -> \(String(describing: shown))")
            }
            #expect(layout.screenCell(of: Point(x: view.x - 1000, y: view.y), view: view) == nil)
        }
    }

    /// Zooming out stops at the level that shows the whole table; in goes on.
    @Test func zoomingOutStopsAtTheWholeTable() throws {
        let st = try Self.room(.jigsaw, 6, 6)
        let layout = SceneLayout(width: 120, height: 40)
        let whole = layout.fit(table: st.geometry).zoom
        #expect(layout.zoomed(whole).nextZoom(in: false, table: st.geometry) == whole)
        let closer = whole.zoomedIn
        #expect(closer != whole)
        #expect(layout.zoomed(closer).nextZoom(in: false, table: st.geometry) == whole)
        #expect(layout.zoomed(whole).nextZoom(in: true, table: st.geometry) == closer)
        // Already smaller than the whole table (the terminal grew): out stays put.
        let tiny = TableZoom.levels.last!
        #expect(layout.zoomed(tiny).nextZoom(in: false, table: st.geometry) == tiny)
    }

    /// Zooming with the keys while holding keeps the held piece where it was on
    /// screen; holding nothing (or a piece out of sight), the view's middle.
    @Test func keyZoomKeepsTheHeldPieceInPlace() throws {
        let st = try Self.room(.jigsaw, 10, 10)
        let layout = SceneLayout(width: 120, height: 40, zoom: TableZoom(pixels: 4, cells: 1))
        let view = layout.fit(table: st.geometry).view
        let held = st.position(of: 37)
        let centre = Point(x: held.x + st.geometry.unit / 2, y: held.y + st.geometry.unit / 2)
        let anchor = layout.zoomAnchor(held: held, view: view, table: st.geometry)
        let before = layout.screenCell(of: centre, view: view)!
        #expect(anchor.row == before.row && anchor.column == before.column)
        let next = TableZoom(pixels: 6, cells: 1)
        let zoomed = layout.zoom(to: next, keeping: anchor.row, anchor.column, view: view, table: st.geometry)
        let after = layout.zoomed(next).screenCell(of: centre, view: zoomed.view, shift: zoomed.shift)
        #expect(after.map { abs($0.row - before.row) <= 1 && abs($0.column - before.column) <= 1 } == true,
                "before \(before), after \(String(describing: after))")
        let middle = layout.zoomAnchor(held: nil, view: view, table: st.geometry)
        #expect(middle.row == layout.viewTop + layout.viewRows / 2 && middle.column == layout.viewColumns / 2)
        let away = layout.zoomAnchor(held: Point(x: view.x - 10_000, y: view.y), view: view, table: st.geometry)
        #expect(away.row == middle.row && away.column == middle.column)
    }

    /// Numbers show only where the longest leaves a column free: at 3 px a piece
    /// the 3-digit numbers of a 12x12 would run into their neighbours'.
    @Test func numbersShowOnlyWhereTheLongestLeavesAGap() throws {
        let st = try Self.room(.jigsaw, 12, 12)
        let tight = SceneFixtures.scene(st, colorMode: .trueColor, width: 200, height: 60, zoom: TableZoom(pixels: 3, cells: 1))
        #expect(Self.numbersInView(SceneRenderer.render(tight), width: 200, height: 60).isEmpty)
        let roomy = SceneFixtures.scene(st, colorMode: .trueColor, width: 200, height: 60, zoom: TableZoom(pixels: 4, cells: 1))
        let shown = Self.numbersInView(SceneRenderer.render(roomy), width: 200, height: 60)
        #expect(shown.count > 100)
        #expect(shown.allSatisfy { $0 < 144 }, "numbers run together: \(shown.filter { $0 >= 144 })")
        // Two digits fit the 3 px pieces of a 9x9 with a column to spare.
        let small = try Self.room(.jigsaw, 9, 9)
        let shownSmall = Self.numbersInView(SceneRenderer.render(SceneFixtures.scene(small, colorMode: .trueColor, width: 200, height: 60,
                                                                                      zoom: TableZoom(pixels: 3, cells: 1))), width: 200, height: 60)
        #expect(shownSmall.count > 40 && shownSmall.allSatisfy { $0 < 81 })
    }

    /// At 3 px a piece (a 6x6 fitted to 80x24) a placed piece owns the screen
    /// row next to the one its corner gives in one board row of two: every
    /// number still shows (half of them were missing).
    @Test func placedPiecesShowTheirNumbersAtThreePixels() throws {
        var st = try Self.room(.jigsaw, 6, 6)
        for p in 0..<35 {
            try st.perform(.grab(piece: p), by: Self.alice, at: 1)
            try st.perform(.drag(piece: p, to: st.geometry.origin(of: Cell(row: p / 6, col: p % 6))), by: Self.alice, at: 1)
            try st.perform(.drop(piece: p), by: Self.alice, at: 1)
        }
        let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 80, height: 24)
        #expect(scene.zoom == TableZoom(pixels: 3, cells: 1))
        #expect(Self.numbersInView(SceneRenderer.render(scene), width: 80, height: 24).sorted() == Array(0..<36))
    }

    @Test func numbersCanBeHidden() throws {
        let st = try Self.room(.jigsaw, 4, 4)
        var scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40)
        #expect(Self.numbersInView(SceneRenderer.render(scene), width: 120, height: 40).count == 16)
        scene.showNumbers = false
        #expect(Self.numbersInView(SceneRenderer.render(scene), width: 120, height: 40).isEmpty)
    }

    @Test func zoomAndNumbersCommandsParse() throws {
        #expect(try ClientCommand.parseTyped("/zoom in") == .zoom(.zoomIn))
        #expect(try ClientCommand.parseTyped("/zoom out") == .zoom(.zoomOut))
        #expect(try ClientCommand.parseTyped("/zoom fit") == .zoom(.fit))
        #expect(try ClientCommand.parseTyped("/numbers") == .numbers(nil))
        #expect(try ClientCommand.parseTyped("/numbers off") == .numbers(false))
        #expect(throws: ClientCommand.ParseError.self) { try ClientCommand.parseTyped("/zoom sideways") }
        #expect(ClientCommand.slashHelpLines(lid: true).contains { $0.contains("piece N belongs in cell (N div cols, N mod cols)") })
    }
}
