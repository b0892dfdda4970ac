import Testing
import PuzzleCore
@testable import PuzzleClient
import PuzzleProtocol

/// Issue 16, big boards: sorting the table in one's own view (edge pieces or
/// loose pieces only, `/find N`) and the box lid (the picture at will, and
/// faintly in the board's empty cells), where the room offers it.
@Suite struct TableLensTests {
    static let alice = SceneFixtures.alice

    /// A 6x6 jigsaw with interior piece 14 and edge piece 0 placed home.
    static func sixBySix() throws -> RoomState {
        var st = try TableViewTests.room(.jigsaw, 6, 6)
        for p in [0, 14] {
            try st.perform(.grab(piece: p), by: alice, at: 1)
            try st.perform(.drag(piece: p, to: st.geometry.origin(of: st.homeCell(of: p))), by: alice, at: 1)
            try st.perform(.drop(piece: p), by: alice, at: 1)
        }
        #expect(st.pieces[14].location == .board(st.homeCell(of: 14)))
        return st
    }

    static func frame(_ st: RoomState, lens: TableLens, lidAllowed: Bool = false, width: Int = 120, height: Int = 40, zoom: TableZoom? = nil) -> Frame {
        var scene = SceneFixtures.scene(st, colorMode: .trueColor, width: width, height: height, zoom: zoom)
        scene.lens = lens
        scene.lidAllowed = lidAllowed
        return SceneRenderer.render(scene)
    }

    static func canvas(_ st: RoomState, lens: TableLens, lidAllowed: Bool = false) -> TableCanvas {
        var scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40)
        scene.lens = lens
        scene.lidAllowed = lidAllowed
        var cache = TableLayerCache()
        return cache.stillLayer(st, scene: scene, layout: SceneLayout(width: 120, height: 40, zoom: scene.zoom)).0
    }

    /// `/edges`: only edge pieces' numbers show (the interior ones on the
    /// table are hidden), and the placed interior piece is dimmed; `/all` shows every one.
    @Test func theEdgeFilterHidesInteriorLoosePiecesAndDimsPlacedOnes() throws {
        let st = try Self.sixBySix()
        let edges = Set((0..<36).filter { TableLens.isEdge($0, in: st) })
        #expect(edges.count == 20)
        let shown = Set(TableViewTests.numbersInView(Self.frame(st, lens: TableLens(filter: .edges)), width: 120, height: 40))
        #expect(shown.subtracting([14]) == edges, "\(shown.symmetricDifference(edges).sorted())")
        #expect(TableViewTests.numbersInView(Self.frame(st, lens: TableLens()), width: 120, height: 40).count == 36)
        // The placed interior piece: a third of its brightness under the filter.
        let plain = Self.canvas(st, lens: TableLens()), filtered = Self.canvas(st, lens: TableLens(filter: .edges))
        let r = plain.rect(st.geometry.origin(of: st.homeCell(of: 14)), unit: st.geometry.unit)
        let x = r.left + 1, y = r.top + 1
        let before = plain.canvas.pixels[y * plain.canvas.width + x] & PixelCanvas.colorMask
        #expect(filtered.canvas.pixels[y * filtered.canvas.width + x] & PixelCanvas.colorMask == TableCanvas.dim(before))
        // The placed edge piece stays as it is.
        let e = plain.rect(st.geometry.origin(of: st.homeCell(of: 0)), unit: st.geometry.unit)
        #expect(filtered.canvas.pixels[(e.top + 1) * filtered.canvas.width + e.left + 1] == plain.canvas.pixels[(e.top + 1) * plain.canvas.width + e.left + 1])
    }

    /// `/loose`: every loose piece shows, the placed ones are dimmed.
    @Test func theLooseFilterDimsPlacedPieces() throws {
        let st = try Self.sixBySix()
        let plain = Self.canvas(st, lens: TableLens()), filtered = Self.canvas(st, lens: TableLens(filter: .loose))
        for piece in [0, 14] {
            let r = plain.rect(st.geometry.origin(of: st.homeCell(of: piece)), unit: st.geometry.unit)
            let i = (r.top + 1) * plain.canvas.width + r.left + 1
            #expect(filtered.canvas.pixels[i] & PixelCanvas.colorMask == TableCanvas.dim(plain.canvas.pixels[i] & PixelCanvas.colorMask))
        }
        let loose = (0..<36).filter { st.pieces[$0].location.cell == nil }
        let shown = TableViewTests.numbersInView(Self.frame(st, lens: TableLens(filter: .loose)), width: 120, height: 40)
        #expect(Set(loose).isSubset(of: Set(shown)))
    }

    /// A press on a hidden piece does not take it: the pointer takes only what the player sees.
    @Test func aPressNeverTakesAHiddenPiece() throws {
        let st = try Self.sixBySix()
        let interior = try #require((0..<36).first { !TableLens.isEdge($0, in: st) && st.pieces[$0].location.cell == nil })
        let p = st.position(of: interior)
        let centre = Point(x: p.x + 2, y: p.y + 2)
        #expect(TableLens().topPiece(at: centre, in: st) == interior)
        let taken = TableLens(filter: .edges).topPiece(at: centre, in: st)
        #expect(taken != interior && taken.map { TableLens.isEdge($0, in: st) } ?? true)
        var session = ClientSession(name: "alice", room: "lobby")
        session.myID = Self.alice
        session.mirror = RoomSnapshot(name: "lobby", state: st, picture: nil)
        session.phase = .joined
        #expect(session.pointerPress(at: centre, now: 1, lens: TableLens(filter: .edges))?.piece != interior)
    }

    /// `/find N` marks a loose piece in its own colour round it; off screen an
    /// arrow points to it; a placed piece is told where it is instead.
    @Test func findMarksAPieceWhereverItLies() throws {
        let st = try Self.sixBySix()
        var lens = TableLens()
        #expect(lens.apply(.find(7), lidAllowed: true, in: st) == ("piece 7 marked in yellow (/find clears the mark)", false))
        #expect(lens.found == 7)
        let marked = Self.frame(st, lens: lens)
        let yellow = TableCanvas.foundColor
        #expect(marked.cells.filter { $0.style.foreground == yellow || $0.style.background == yellow }.count >= 8)
        #expect(!Self.frame(st, lens: TableLens()).cells.contains { $0.style.foreground == yellow || $0.style.background == yellow })
        // An interior piece found under the edge filter is drawn all the same (and only it of the interior ones).
        let edgesFound = TableViewTests.numbersInView(Self.frame(st, lens: TableLens(filter: .edges, found: 7)), width: 120, height: 40)
        #expect(edgesFound.contains(7) && !edgesFound.contains(8))
        // Zoomed in at the table's far corner: piece 7 is out of sight, an arrow points at it.
        var scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: TableZoom(pixels: 16, cells: 1))
        scene.view = Point(x: st.geometry.width - 20, y: st.geometry.height - 12)
        scene.lens = lens
        let far = SceneRenderer.render(scene)
        #expect(far.cells.contains { "◀◤▲◣◥▶◢▼".contains($0.character) && $0.style.foreground == yellow })
        // Placed, unknown, cleared.
        #expect(lens.apply(.find(14), lidAllowed: true, in: st) == ("piece 14 is on the board at row 2, column 2", false) && lens.found == nil)
        #expect(lens.apply(.find(36), lidAllowed: true, in: st) == ("no piece 36 here: pieces are 0 to 35", true))
        lens.found = 7
        _ = lens.apply(.find(nil), lidAllowed: true, in: st)
        #expect(lens.found == nil)
    }

    @Test func theLensCommandsParse() throws {
        #expect(try ClientCommand.parseTyped("/edges") == .lens(.filter(.edges)))
        #expect(try ClientCommand.parseTyped("/loose") == .lens(.filter(.loose)))
        #expect(try ClientCommand.parseTyped("/all") == .lens(.filter(.all)))
        #expect(try ClientCommand.parseTyped("/find 12") == .lens(.find(12)))
        #expect(try ClientCommand.parseTyped("/find") == .lens(.find(nil)))
        #expect(try ClientCommand.parseTyped("/lid") == .lens(.lid(.toggle)))
        #expect(try ClientCommand.parseTyped("/lid bigger") == .lens(.lid(.bigger)))
        #expect(try ClientCommand.parseTyped("/lid smaller") == .lens(.lid(.smaller)))
        #expect(throws: ClientCommand.ParseError.self) { try ClientCommand.parseTyped("/find x") }
        #expect(throws: ClientCommand.ParseError.self) { try ClientCommand.parseTyped("/edges now") }
        #expect(throws: ClientCommand.ParseError.self) { try ClientCommand.parseTyped("/lid wide") }
        for verb in ["/edges", "/loose", "/all", "/find", "/lid"] {
            #expect(ClientCommand.slashHelpLines(lid: true).contains { $0.hasPrefix(verb + " ") }, "\(verb) missing from /help")
        }
        #expect(ClientCommand.slashHelpLines(lid: true).contains { $0.contains("Ctrl-P") })
        // A room without the lid offers neither its key nor its command.
        #expect(!ClientCommand.slashHelpLines(lid: false).contains { $0.contains("Ctrl-P") || $0.hasPrefix("/lid") })
        // The piece keys say when they act: holding a piece, nothing typed.
        #expect(ClientCommand.slashHelpLines(lid: false).joined(separator: " ").contains("with a piece held and an empty command line"))
    }

    /// The lid: opened and sized at will where the room offers it (`/lid`
    /// and Ctrl-P open it small or close it, whatever its size); refused where it
    /// does not, pointing at /hint.
    @Test func theLidOpensAndSizesOnlyWhereTheRoomOffersIt() throws {
        let st = try Self.sixBySix()
        var lens = TableLens()
        let refused = lens.apply(.lid(.toggle), lidAllowed: false, in: st)
        #expect(refused.isError && refused.text.contains("only through /hint") && !lens.lidOpen)
        var steps: [Int] = []
        for _ in 0..<4 {
            _ = lens.apply(.lid(.toggle), lidAllowed: true, in: st)
            steps.append(lens.lid)
        }
        #expect(steps == [1, 0, 1, 0])
        _ = lens.apply(.lid(.toggle), lidAllowed: true, in: st)
        #expect(lens.lid == 1)
        for _ in 0..<5 { _ = lens.apply(.lid(.bigger), lidAllowed: true, in: st) }
        #expect(lens.lid == TableLens.lidSteps)
        _ = lens.apply(.lid(.toggle), lidAllowed: true, in: st)
        #expect(lens.lid == 0, "a large lid closes at once")
        // Larger steps, larger windows (on a small terminal too, where the
        // small lid beside the table is tall: the next step is larger still).
        let layout = SceneLayout(width: 120, height: 40)
        let sizes = (1...3).compactMap { LidWindow.box(layout: layout, step: $0, rows: 30, cols: 30)?.width }
        #expect(sizes.count == 3 && sizes[0] < sizes[1] && sizes[1] < sizes[2])
        for (width, height, grows) in [(80, 24, true), (200, 60, true), (64, 20, false)] {
            let small = SceneLayout(width: width, height: height)
            let widths = (1...3).compactMap { LidWindow.box(layout: small, step: $0, rows: 30, cols: 30)?.width }
            #expect(widths.count == 3 && widths[0] <= widths[1] && widths[1] <= widths[2], "\(width)x\(height): \(widths)")
            // Where the view is no taller than the panel, nothing is larger: never smaller, though.
            if grows { #expect(widths[0] < widths[1], "\(width)x\(height): \(widths)") }
        }
    }

    /// The open lid (small) shows the whole picture in a titled window beside
    /// the table, over the player panel; where the room does not offer it, nothing is drawn.
    @Test func theOpenLidShowsThePicture() throws {
        let st = try Self.sixBySix()
        let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40)
        let picture = try #require(scene.picture)
        let open = Self.frame(st, lens: TableLens(lid: 1), lidAllowed: true)
        let rows = SceneFixtures.rows(open)
        let b = try #require(LidWindow.box(layout: SceneLayout(width: 120, height: 40), step: 1, rows: 6, cols: 6))
        #expect(rows[b.top].dropFirst(b.left).hasPrefix("+ lid ^P"), "\(rows[b.top])")
        // The window's first pixel shows the picture's top-left corner (sampled at the pixel's middle).
        let pw = b.width - 2
        let first = TerminalColor(picture[x: picture.width / (2 * pw), y: picture.height / (2 * pw)])
        #expect(open[b.top + 1, b.left + 1].style.foreground == first)
        #expect(b.left == SceneLayout(width: 120, height: 40).viewColumns)
        let refused = SceneFixtures.rows(Self.frame(st, lens: TableLens(lid: 1), lidAllowed: false))
        #expect(!refused.contains { $0.contains("lid ^P") })
    }

    /// Where the room offers the lid, the board's empty cells show the picture
    /// faintly (a tray); elsewhere they are the plain checker.
    @Test func theEmptyCellsShowThePictureFaintlyWhereTheLidIsOffered() throws {
        let st = try Self.sixBySix()
        let plain = Self.canvas(st, lens: TableLens(), lidAllowed: false)
        let faint = Self.canvas(st, lens: TableLens(), lidAllowed: true)
        let r = plain.rect(st.geometry.origin(of: Cell(row: 3, col: 3)), unit: st.geometry.unit)
        #expect(st.occupant(of: Cell(row: 3, col: 3)) == nil)
        var differ = 0
        for y in r.top..<r.bottom {
            for x in r.left..<r.right {
                let i = y * plain.canvas.width + x
                let board = plain.canvas.pixels[i] & PixelCanvas.colorMask
                #expect(board == TableCanvas.boardBackground || board == TableCanvas.boardChecker)
                if faint.canvas.pixels[i] & PixelCanvas.colorMask != board { differ += 1 }
                // Faint, not a piece: no picture flag (plain mode shows nothing there).
                #expect(faint.canvas.pixels[i] & PixelCanvas.pictureBit == 0)
            }
        }
        #expect(differ > (r.right - r.left) * (r.bottom - r.top) / 2)
    }
}

/// The lid never hides the piece in one's hand: it moves to the view's other side.
@Suite struct LidPlacementTests {
    @Test func theLidMovesOffTheHeldPiece() throws {
        var st = try TableViewTests.room(.jigsaw, 30, 30)
        let layout = SceneLayout(width: 80, height: 24, zoom: TableZoom(pixels: 8, cells: 1))
        let view = Point(x: 0, y: 0)
        let right = try #require(LidWindow.box(layout: layout, step: 2, rows: 30, cols: 30))
        // Alice holds a piece under where the lid would be.
        let under = try #require(layout.tablePoint(row: right.top + 2, column: right.left + right.width / 2, view: view))
        let piece = try #require((0..<st.pieceCount).first { st.pieces[$0].location.cell == nil })
        try st.perform(.grab(piece: piece), by: SceneFixtures.alice, at: 1)
        try st.perform(.drag(piece: piece, to: Point(x: under.x - 2, y: max(0, under.y - 2))), by: SceneFixtures.alice, at: 1)
        let held = try #require(LidWindow.heldBox(st, me: SceneFixtures.alice, layout: layout, view: view))
        let moved = try #require(LidWindow.box(layout: layout, step: 2, rows: 30, cols: 30, avoiding: held))
        #expect(moved.left == 0 && right.left > 0)
        #expect(!moved.intersects(held))
        // Bob's piece is his: alice's lid stays where it was.
        #expect(LidWindow.heldBox(st, me: SceneFixtures.bob, layout: layout, view: view) == nil)
    }

    /// So does the overview map (bottom right, else bottom left).
    @Test func theMapMovesOffTheHeldPiece() throws {
        var st = try TableViewTests.room(.jigsaw, 30, 30)
        let layout = SceneLayout(width: 80, height: 24, zoom: TableZoom(pixels: 8, cells: 1))
        let view = Point(x: 0, y: 0)
        let right = try #require(OverviewMap.box(layout: layout, table: st.geometry))
        let under = try #require(layout.tablePoint(row: right.top + 1, column: right.left + right.width / 2, view: view))
        let piece = try #require((0..<st.pieceCount).first { st.pieces[$0].location.cell == nil })
        try st.perform(.grab(piece: piece), by: SceneFixtures.alice, at: 1)
        try st.perform(.drag(piece: piece, to: Point(x: under.x - 2, y: under.y - 2)), by: SceneFixtures.alice, at: 1)
        let held = try #require(LidWindow.heldBox(st, me: SceneFixtures.alice, layout: layout, view: view))
        let moved = try #require(OverviewMap.box(layout: layout, table: st.geometry, avoiding: held))
        #expect(moved.left == 0 && right.left > 0 && moved.top == right.top)
    }

    /// While a filter is on, the lid's faint picture is not drawn in the
    /// empty cells (faint pieces there read as pieces the filter shows), and
    /// the placed interior piece `/edges` dims is dim in the frame itself.
    @Test func aFilterTurnsTheFaintPictureOffAndDimsOnScreen() throws {
        let st = try TableLensTests.sixBySix()
        let empty = Cell(row: 3, col: 3)
        #expect(st.occupant(of: empty) == nil)
        for filter in [TableLens.Filter.edges, .loose] {
            let c = TableLensTests.canvas(st, lens: TableLens(filter: filter), lidAllowed: true)
            let r = c.rect(st.geometry.origin(of: empty), unit: st.geometry.unit)
            for y in r.top..<r.bottom {
                for x in r.left..<r.right {
                    let shown = c.canvas.pixels[y * c.canvas.width + x] & PixelCanvas.colorMask
                    #expect(shown == TableCanvas.boardBackground || shown == TableCanvas.boardChecker, "\(filter): faint picture at \(x),\(y)")
                }
            }
        }
        let all = TableLensTests.frame(st, lens: TableLens(), lidAllowed: true), edges = TableLensTests.frame(st, lens: TableLens(filter: .edges), lidAllowed: true)
        let c = TableLensTests.canvas(st, lens: TableLens())
        let r = c.rect(st.geometry.origin(of: st.homeCell(of: 14)), unit: st.geometry.unit)
        let row = 1 + (r.top + 1) / 2, column = r.left + 1
        let before = try #require(HeldPieceViewTests.pixels(all, row: row, column: column)?.upper)
        let after = try #require(HeldPieceViewTests.pixels(edges, row: row, column: column)?.upper)
        func sum(_ c: TerminalColor) -> Int { Int(c.red) + Int(c.green) + Int(c.blue) }
        #expect(sum(after) * 2 < sum(before), "\(before) → \(after)")
    }

    /// Small, the lid sits beside the table, over the player panel: not a
    /// cell of the table view changes when it opens. Larger, it lies over the
    /// view's top right.
    @Test func theSmallLidSitsBesideTheTable() throws {
        let st = try TableViewTests.room(.jigsaw, 30, 30)
        for (width, height) in [(120, 40), (80, 24), (200, 60)] {
            let layout = SceneLayout(width: width, height: height)
            let closed = TableLensTests.frame(st, lens: TableLens(), lidAllowed: true, width: width, height: height)
            let open = TableLensTests.frame(st, lens: TableLens(lid: 1), lidAllowed: true, width: width, height: height)
            let b = try #require(LidWindow.box(layout: layout, step: 1, rows: 30, cols: 30))
            #expect(b.left >= layout.viewColumns && b.left + b.width <= width, "\(width)x\(height): \(b)")
            #expect(SceneFixtures.rows(open)[b.top].dropFirst(b.left).hasPrefix("+ lid"), "\(width)x\(height)")
            for row in layout.viewTop..<(layout.viewTop + layout.viewRows) {
                for column in 0..<layout.viewColumns { #expect(open[row, column] == closed[row, column], "\(width)x\(height) at \(row),\(column)") }
            }
            let large = try #require(LidWindow.box(layout: layout, step: 2, rows: 30, cols: 30))
            #expect(large.left + large.width == layout.viewColumns)
        }
    }

    /// The map is a small inset (a sixth of the view's width at most) and
    /// never covers the piece in the player's hand, wherever it is held
    /// along the view's bottom, zoomed in: every pixel of the piece shows.
    @Test func theMapNeverCoversTheHeldPiece() throws {
        let base = try TableViewTests.room(.jigsaw, 30, 30)
        let zoom = TableZoom(pixels: 16, cells: 1)
        let layout = SceneLayout(width: 120, height: 40, zoom: zoom)
        let map = try #require(OverviewMap.box(layout: layout, table: base.geometry))
        #expect(map.width <= max(10, layout.viewColumns / 6) && map.height <= max(4, layout.viewRows / 4))
        let piece = try #require((0..<base.pieceCount).first { base.pieces[$0].location.cell == nil })
        let unit = base.geometry.unit
        let bottom = layout.viewUnits.y - unit
        for x in stride(from: 0, through: layout.viewUnits.x - unit, by: 1) {
            var st = base
            try st.perform(.grab(piece: piece), by: SceneFixtures.alice, at: 1)
            try st.perform(.drag(piece: piece, to: Point(x: x, y: bottom)), by: SceneFixtures.alice, at: 1)
            var scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: zoom)
            scene.view = Point(x: 0, y: 0)
            scene.showNumbers = false
            let f = SceneRenderer.render(scene)
            let lock = try #require(st.locks[piece])
            for py in zoom.pixel(bottom)..<zoom.pixel(bottom + unit) {
                for px in zoom.pixel(x)..<zoom.pixel(x + unit) {
                    let edge = px == zoom.pixel(x) || py == zoom.pixel(bottom) || px == zoom.pixel(x + unit) - 1 || py == zoom.pixel(bottom + unit) - 1
                    guard !edge else { continue }  // blanks are notches
                    let shown = try #require(HeldPieceViewTests.pixels(f, row: layout.viewTop + py / 2, column: px), "x \(x): text over the piece at \(px),\(py)")
                    let expected = PixelCanvas.color(TableCanvas.sample(scene.picture, st: st, piece: piece, i: px - zoom.pixel(x), j: py - zoom.pixel(bottom),
                                                                         w: 16, h: 16, rotation: lock.rotation))
                    #expect((py % 2 == 0 ? shown.upper : shown.lower) == expected, "x \(x): pixel \(px),\(py) of the held piece is covered")
                }
            }
        }
    }
}
