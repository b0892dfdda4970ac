import Testing
import PuzzleCore
@testable import PuzzleClient

/// Issue 16, spoiler 5: a held piece is drawn whole (every pixel of its
/// picture and its tabs) above everything on the table, and where it would land
/// is a separate mark in the target cell (corner brackets dashed in the
/// holder's colour with a dark keyline) that never covers the piece; two players aiming at one cell leave
/// two marks that tell them apart. Spoiler 6 (display): the last seconds of
/// one's own hold count down by the piece.
@Suite struct HeldPieceViewTests {
    static let alice = SceneFixtures.alice, bob = SceneFixtures.bob

    /// A 4x4 jigsaw where alice holds `piece` dragged `offset` units from
    /// `cell`'s origin (and bob, if given, his piece the other way).
    /// Under `place=shape`, where two pieces may aim at one cell.
    static func aiming(_ piece: Int, at cell: Cell, offset: Int, bobs: Int? = nil) throws -> RoomState {
        var st = try TableViewTests.room(.jigsaw, 4, 4, placement: .shape)
        let o = st.geometry.origin(of: cell)
        try st.perform(.grab(piece: piece), by: alice, at: 80_000)
        try st.perform(.drag(piece: piece, to: Point(x: o.x - offset, y: o.y - offset)), by: alice, at: 80_000)
        if let bobs {
            try st.perform(.grab(piece: bobs), by: bob, at: 80_000)
            try st.perform(.drag(piece: bobs, to: Point(x: o.x + 1, y: o.y + 1)), by: bob, at: 80_000)
        }
        return st
    }

    /// The canvas the renderer draws for `scene` (still layer and moving layer).
    static func canvas(_ scene: Scene) -> TableCanvas {
        var cache = TableLayerCache()
        let layout = SceneLayout(width: scene.width, height: scene.height, zoom: scene.zoom)
        var (canvas, loose) = cache.stillLayer(scene.state!, scene: scene, layout: layout)
        canvas.drawHeldPieces(scene.state!, picture: scene.picture, names: scene.names, loose: loose, me: scene.myID, countdown: [:])
        return canvas
    }

    /// The two pixels a frame cell shows, decoded from its half block (nil for text).
    static func pixels(_ f: Frame, row: Int, column: Int) -> (upper: TerminalColor?, lower: TerminalColor?)? {
        let cell = f[row, column]
        switch cell.character {
        case "▀": return (cell.style.foreground, cell.style.background)
        case "▄": return (cell.style.background, cell.style.foreground)
        case " ": return (cell.style.background, cell.style.background)
        default: return nil
        }
    }

    /// At 120x40 fitted, the held piece shows every pixel of its picture (its
    /// number aside) and a pixel of each tab, in the frame the player sees.
    @Test func theHeldPieceIsDrawnWholeWithItsTabs() throws {
        let st = try Self.aiming(5, at: Cell(row: 1, col: 1), offset: 1)
        let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40)
        let f = SceneRenderer.render(scene)
        let canvas = Self.canvas(scene)
        let lock = try #require(st.locks[5])
        let r = canvas.rect(lock.point, unit: st.geometry.unit)
        let w = r.right - r.left, h = r.bottom - r.top
        #expect(w >= 4)
        // Blanks are notches in the piece: the shadow's colour, as on loose pieces.
        let edges = st.cut.edges(piece: 5, rotation: lock.rotation)
        let len = max(2, w / 4), mx = r.left + (w - len) / 2, my = r.top + (h - len) / 2
        func inBlank(_ x: Int, _ y: Int) -> Bool {
            (edges[Side.top.rawValue] == .blank && y == r.top && (mx..<mx + len).contains(x))
                || (edges[Side.bottom.rawValue] == .blank && y == r.bottom - 1 && (mx..<mx + len).contains(x))
                || (edges[Side.left.rawValue] == .blank && x == r.left && (my..<my + len).contains(y))
                || (edges[Side.right.rawValue] == .blank && x == r.right - 1 && (my..<my + len).contains(y))
        }
        var checked = 0
        for y in r.top..<r.bottom {
            for x in r.left..<r.right where !inBlank(x, y) {
                guard let shown = Self.pixels(f, row: 1 + y / 2, column: x) else { continue }  // the piece number
                let expected = PixelCanvas.color(TableCanvas.sample(scene.picture, st: st, piece: 5, i: x - r.left, j: y - r.top,
                                                                     w: w, h: h, rotation: lock.rotation))
                #expect((y % 2 == 0 ? shown.upper : shown.lower) == expected, "pixel \(x - r.left),\(y - r.top) of the held piece")
                checked += 1
            }
        }
        #expect(checked >= w * h - 4 * len - 4)
        // Each tab: one pixel beyond the side's middle, in the picture's colour at that edge.
        #expect(edges.contains(.tab))
        let tabs: [(Side, Int, Int, Int, Int)] = [(.top, mx, r.top - 1, mx, r.top), (.bottom, mx, r.bottom, mx, r.bottom - 1),
                                                  (.left, r.left - 1, my, r.left, my), (.right, r.right, my, r.right - 1, my)]
        for (side, x, y, ix, iy) in tabs where edges[side.rawValue] == .tab {
            let shown = try #require(Self.pixels(f, row: 1 + y / 2, column: x), "tab \(side) is covered by text")
            let expected = PixelCanvas.color(TableCanvas.sample(scene.picture, st: st, piece: 5, i: ix - r.left, j: iy - r.top,
                                                                 w: w, h: h, rotation: lock.rotation))
            #expect((y % 2 == 0 ? shown.upper : shown.lower) == expected, "the \(side) tab")
        }
    }

    /// The target cell carries a mark in the holder's colour in the cell or
    /// just round it (round the ring, where the piece's ring is in the way),
    /// where the piece does not lie, and nothing of it is drawn over the piece.
    @Test func theTargetMarkIsInItsCellAndNotOnThePiece() throws {
        let cell = Cell(row: 1, col: 1)
        let st = try Self.aiming(5, at: cell, offset: 1)
        #expect(st.locks[5]?.target == cell)
        for zoom in [TableZoom(pixels: 16, cells: 1), TableZoom(pixels: 8, cells: 1), TableZoom(pixels: 4, cells: 1), TableZoom(pixels: 3, cells: 1)] {
            let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: zoom)
            let canvas = Self.canvas(scene)
            let c = canvas.canvas
            let target = canvas.rect(st.geometry.origin(of: cell), unit: st.geometry.unit)
            let piece = canvas.rect(st.locks[5]!.point, unit: st.geometry.unit)
            var marked = 0
            for y in (target.top - 2)..<(target.bottom + 2) {
                for x in (target.left - 2)..<(target.right + 2) {
                    let inPiece = x >= piece.left && x < piece.right && y >= piece.top && y < piece.bottom
                    if inPiece {
                        #expect(c.owner(x, y) == 5, "\(zoom): the mark covers the piece at \(x),\(y)")
                    } else if c.owner(x, y) == PixelCanvas.mark && c.pixels[y * c.width + x] & PixelCanvas.colorMask == PixelCanvas.pack(PlayerPalette.color(of: Self.alice, in: st.colorSlots)) {
                        marked += 1
                    }
                }
            }
            #expect(marked >= 1, "\(zoom): no mark in the target cell")
        }
    }

    /// Alice and bob aim at the same cell: the cell shows both colours, each in
    /// corners of its own, so neither mark hides the other.
    @Test func twoPlayersAimingAtOneCellLeaveTwoMarks() throws {
        let cell = Cell(row: 1, col: 1)
        let st = try Self.aiming(5, at: cell, offset: 2, bobs: 10)
        #expect(st.locks[5]?.target == cell && st.locks[10]?.target == cell)
        for zoom in [TableZoom(pixels: 16, cells: 1), TableZoom(pixels: 8, cells: 1), TableZoom(pixels: 4, cells: 1)] {
            let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: zoom)
            let canvas = Self.canvas(scene)
            let c = canvas.canvas
            let target = canvas.rect(st.geometry.origin(of: cell), unit: st.geometry.unit)
            var colours: [PlayerID: Int] = [:]
            for y in (target.top - 2)..<(target.bottom + 2) {
                for x in (target.left - 2)..<(target.right + 2) where c.owner(x, y) == PixelCanvas.mark {
                    // Each player's own colour (the keyline between the dashes is everyone's).
                    for who in [Self.alice, Self.bob] where c.pixels[y * c.width + x] & PixelCanvas.colorMask == PixelCanvas.pack(PlayerPalette.color(of: who, in: st.colorSlots)) {
                        colours[who, default: 0] += 1
                    }
                }
            }
            #expect(colours[Self.alice, default: 0] >= 1 && colours[Self.bob, default: 0] >= 1, "\(zoom): \(colours)")
        }
    }

    /// The last seconds of one's own hold count down beside the piece, in the
    /// alert colour, at every zoom; none before, none for another's hold.
    @Test func theLastSecondsOfTheHoldShowByThePiece() throws {
        let st = try Self.aiming(5, at: Cell(row: 1, col: 1), offset: 1, bobs: 10)
        let expires = try #require(st.locks[5]?.expiresAt)
        for zoom in [TableZoom(pixels: 8, cells: 1), TableZoom(pixels: 4, cells: 1), TableZoom(pixels: 1, cells: 1)] {
            var scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: zoom)
            scene.now = expires - 2_500
            let f = SceneRenderer.render(scene)
            let rows = SceneFixtures.rows(f)
            let row = try #require(rows.firstIndex { $0.contains("3s") }, "\(zoom): no count")
            let column = rows[row].distance(from: rows[row].startIndex, to: rows[row].range(of: "3s")!.lowerBound)
            #expect(f[row, column].style.background == TableCanvas.countdownBackground)
            // By the piece: within a couple of rows of its rectangle.
            let canvas = TableCanvas(layout: SceneLayout(width: 120, height: 40, zoom: zoom), view: scene.view, colorMode: .trueColor, showNumbers: true)
            let r = canvas.rect(st.locks[5]!.point, unit: st.geometry.unit)
            #expect(row - 1 >= r.top / 2 - 2 && row - 1 <= r.bottom / 2 + 2 && column >= r.left - 2 && column <= r.right + 20, "\(zoom): at \(row),\(column)")
            // Bob's hold lapses too, but it is his to watch: one count only.
            #expect(rows.filter { $0.contains("3s") }.count == 1)
            scene.now = expires - 6_000
            #expect(!SceneFixtures.rows(SceneRenderer.render(scene)).contains { $0.contains("6s") || $0.contains("5s") })
        }
    }

    /// Alice and bob hold pieces at one point: bob's lies over alice's (or the
    /// other way), and both holders' rings stay in sight at every zoom.
    @Test func twoPiecesHeldAtOnePointShowBothRings() throws {
        var st = try TableViewTests.room(.jigsaw, 4, 4)
        let at = st.geometry.origin(of: Cell(row: 1, col: 1))
        let p = Point(x: at.x - 2, y: at.y - 2)
        for (piece, who) in [(5, Self.alice), (10, Self.bob)] {
            try st.perform(.grab(piece: piece), by: who, at: 80_000)
            try st.perform(.drag(piece: piece, to: p), by: who, at: 80_000)
        }
        for zoom in [TableZoom(pixels: 16, cells: 1), TableZoom(pixels: 8, cells: 1), TableZoom(pixels: 4, cells: 1), TableZoom(pixels: 1, cells: 1)] {
            for me in [Self.alice, Self.bob] {
                var scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: zoom)
                scene.myID = me
                let c = Self.canvas(scene).canvas
                var ring: [PlayerID: Int] = [:]
                for y in 0..<c.height {
                    for x in 0..<c.width where c.owner(x, y) == PixelCanvas.ring {
                        for who in [Self.alice, Self.bob] where c.pixels[y * c.width + x] & PixelCanvas.colorMask == PixelCanvas.pack(PlayerPalette.color(of: who, in: st.colorSlots)) {
                            ring[who, default: 0] += 1
                        }
                    }
                }
                #expect(ring[Self.alice, default: 0] >= 4 && ring[Self.bob, default: 0] >= 4, "\(zoom), seen by \(me): \(ring)")
            }
        }
    }

    /// A holder's name tag finds a row where it covers no text: never a
    /// ruler's number nor a piece's. Alice's piece is held along the board's
    /// top (under the column ruler) and over the loose pieces; every number
    /// drawn without her name is drawn with it too.
    @Test func aHolderNameNeverCoversRulersOrNumbers() throws {
        let base = try TableViewTests.room(.jigsaw, 6, 6)
        let g = base.geometry
        let zoom = TableZoom(pixels: 8, cells: 1)
        var checked = 0
        for y in [g.boardOrigin.y, g.boardOrigin.y + 1, g.boardOrigin.y + g.unit + 2] {
            for x in stride(from: 0, to: g.width - g.unit, by: 3) {
                var st = base
                let piece = 35
                try st.perform(.grab(piece: piece), by: Self.alice, at: 80_000)
                try st.perform(.drag(piece: piece, to: Point(x: x, y: y)), by: Self.alice, at: 80_000)
                var named = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: zoom)
                named.view = Point(x: 0, y: g.boardOrigin.y - 6)
                var nameless = named
                nameless.names[Self.alice] = ""
                let a = SceneRenderer.render(named), b = SceneRenderer.render(nameless)
                let layout = SceneLayout(width: 120, height: 40, zoom: zoom)
                for row in layout.viewTop..<(layout.viewTop + layout.viewRows) {
                    for column in 0..<layout.viewColumns where b[row, column].character.isNumber {
                        #expect(a[row, column] == b[row, column], "piece at \(x),\(y): '\(b[row, column].character)' at \(row),\(column) covered")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 100)
    }

    /// The target mark reads apart from a ring and on any picture: its
    /// pixels are the holder's colour and a dark keyline, nothing else (no
    /// white), both at every zoom where the cell is 3 pixels or more; at 2
    /// pixels or less it is a plain square of the holder's colour.
    @Test func theTargetMarkIsTheHoldersColourWithADarkKeyline() throws {
        let cell = Cell(row: 1, col: 1)
        let st = try Self.aiming(5, at: cell, offset: 2)
        let mine = PixelCanvas.pack(PlayerPalette.color(of: Self.alice, in: st.colorSlots))
        for zoom in [TableZoom(pixels: 16, cells: 1), TableZoom(pixels: 8, cells: 1), TableZoom(pixels: 4, cells: 1), TableZoom(pixels: 3, cells: 1),
                     TableZoom(pixels: 2, cells: 1), TableZoom(pixels: 1, cells: 1)] {
            let scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40, zoom: zoom)
            // The marks alone over the still layer (a piece held beside a tiny cell rings it whole).
            var cache = TableLayerCache()
            var canvas = cache.stillLayer(st, scene: scene, layout: SceneLayout(width: 120, height: 40, zoom: zoom)).0
            canvas.colorSlots = st.colorSlots
            canvas.drawTargets(st, grips: Array(st.locks.keys))
            let c = canvas.canvas
            var colours: [UInt32: Int] = [:]
            for y in 0..<c.height {
                for x in 0..<c.width where c.owner(x, y) == PixelCanvas.mark { colours[c.pixels[y * c.width + x] & PixelCanvas.colorMask, default: 0] += 1 }
            }
            if zoom.piecePixels <= 2 {
                #expect(colours.keys.sorted() == [mine], "\(zoom): \(colours)")
            } else {
                #expect(Set(colours.keys) == [mine, TableCanvas.targetKeyline], "\(zoom): \(colours)")
            }
        }
    }
}
