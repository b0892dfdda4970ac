import PuzzleLink
import Foundation
import Testing
import PuzzleCore
import PuzzleProtocol
import PuzzleTestSupport
@testable import PuzzleClient

/// Issue 28 on a real terminal against a real server: another player joins
/// two pieces into a part on the table; the real `puzzle play` (on a
/// pseudo-terminal, as `InteractiveTerminalTests`) takes the part with the
/// mouse by one of its pieces, carries it against the table's edge (the
/// whole part kept on the table, so the server never answers `OFF_TABLE`)
/// and then over its place on the board, and lets go: both pieces go in.
@Suite(.serialized) struct PartCarryEndToEndTests {
    @Test func aPartIsCarriedByMouseToTheEdgeAndIntoTheBoard() throws {
        guard PtyPlayer.available else {
            Issue.record("util-linux script is needed to give the client a terminal")
            return
        }
        let server = try TestServer()
        defer { server.stop() }
        let builder = try LineClient(port: server.port, name: "builder")
        let me = PlayerID(try builder.enter(as: "builder"))
        var st = try SnapshotCodec.decode(try builder.request("SYNC").state.map { Substring($0) }, now: 0).state
        let cols = st.spec.cols
        // Two picture neighbours, `b` right of or below `a`, where dropping
        // `b` exactly beside `a` joins them on the table (tried on a copy of
        // the room first, by the same rules the server plays by).
        var found: (a: Int, b: Int)?
        search: for a in 0..<st.pieceCount {
            for b in [a % cols < cols - 1 ? a + 1 : -1, a + cols] where b >= 0 && b < st.pieceCount {
                var sim = st
                let spot = sim.board.point(of: b, grip: a, at: sim.position(of: a), rotation: 0)
                guard (try? sim.perform(.grab(piece: b), by: me, at: 1)) != nil,
                      (try? sim.perform(.drag(piece: b, to: spot), by: me, at: 1)) != nil,
                      let events = try? sim.perform(.drop(piece: b), by: me, at: 1),
                      events.contains(where: { if case .merged = $0.body { true } else { false } }),
                      sim.pieces[b].location.cell == nil else { continue }
                found = (a, b)
                break search
            }
        }
        let (a, b) = try #require(found, "no two neighbours join on this table")
        let spot = st.board.point(of: b, grip: a, at: st.position(of: a), rotation: 0)
        #expect(try builder.request(.grab(b)).reply.hasPrefix("OK"))
        #expect(try builder.request(.drag(b, spot)).reply.hasPrefix("OK"))
        #expect(try builder.request(.drop(b)).reply.hasPrefix("OK"))
        try builder.waitForEvent { $0.contains(" merged ") }
        st = try SnapshotCodec.decode(try builder.request("SYNC").state.map { Substring($0) }, now: 0).state
        #expect(st.parts.part(of: a) != nil && st.parts.part(of: a) == st.parts.part(of: b), "the server did not join \(a) and \(b)")

        let player = try PtyPlayer(port: server.port, name: "carrier")
        let p = player.process
        defer { if p.isRunning { p.terminate() } }
        #expect(player.wait(for: "\u{1B}[?1006h"), "mouse reporting not turned on: \(player.text.suffix(300))")
        var joined = false
        for _ in 0..<40 where !joined {
            player.write(Data("ready\r".utf8))
            joined = (try? builder.waitForEvent(timeout: 0.5) { $0.contains(" say ") && $0.hasSuffix(" ready") }) != nil
        }
        #expect(joined, "the client never joined: \(player.text.suffix(300))")
        // The client is 80x24 (the pty reports no size), fitted to the table.
        let fitted = SceneLayout(width: 80, height: 24).fit(table: st.geometry)
        let layout = SceneLayout(width: 80, height: 24, zoom: fitted.zoom)
        func sgr(_ code: Int, _ row: Int, _ column: Int, _ final: String) -> Data {
            Data("\u{1B}[<\(code);\(column + 1);\(row + 1)\(final)".utf8)
        }
        // Press on `b`: the whole part is taken, by `b`.
        let corner = st.position(of: b)
        let row = 1 + fitted.zoom.pixel(corner.y + 2 - fitted.view.y) / 2, column = fitted.zoom.pixel(corner.x + 2 - fitted.view.x)
        let pressed = try #require(layout.tablePoint(row: row, column: column, view: fitted.view))
        #expect(TableLens().topPiece(at: pressed, in: st) == b)
        player.write(sgr(0, row, column, "M"))
        let grab = try builder.waitForEvent { $0.contains(" grabbed \(b) ") && !$0.hasSuffix(" \(me.rawValue)") }
        let carrier = PlayerID(try #require(grab.split(separator: " ").last.flatMap { Int($0) }))
        // The mirror follows the room: the carrier joined, took the part.
        st = try SnapshotCodec.decode(try builder.request("SYNC").state.map { Substring($0) }, now: 0).state
        #expect(st.holder(of: a) == carrier)
        let offset = Point(x: pressed.x - corner.x, y: pressed.y - corner.y)
        // To the view's top-left corner: `a` lies left of or above `b`, so `b` stops a piece short of the edge.
        let edge = try #require(layout.tablePoint(row: layout.viewTop, column: 0, view: fitted.view))
        let raw = Point(x: edge.x - offset.x, y: edge.y - offset.y)
        let kept = st.clampedOnTable(b, at: raw, rotation: 0)
        #expect(kept != Point(x: max(0, raw.x), y: max(0, raw.y)), "the edge does not test the part: \(raw) \(kept)")
        player.write(sgr(32, layout.viewTop, 0, "M"))
        try builder.waitForEvent { $0.contains(" dragged \(b) \(carrier.rawValue) \(kept.x) \(kept.y) ") }
        try st.perform(.drag(piece: b, to: kept), by: carrier, at: 3)
        // Over its place on the board: the screen cell whose point puts `b` nearest its own cell.
        let home = st.geometry.origin(of: st.homeCell(of: b))
        var best: (row: Int, column: Int, corner: Point)?
        for r in layout.viewTop..<(layout.viewTop + layout.viewRows) {
            for c in 0..<layout.viewColumns {
                guard let q = layout.tablePoint(row: r, column: c, view: fitted.view) else { continue }
                let at = Point(x: q.x - offset.x, y: q.y - offset.y)
                guard st.board.fitsOnTable(b, at: at, rotation: 0),
                      st.dropTarget(piece: b, at: at, rotation: 0, holder: carrier) == st.homeCell(of: b) else { continue }
                let d = abs(at.x - home.x) + abs(at.y - home.y)
                if best.map({ d < abs($0.corner.x - home.x) + abs($0.corner.y - home.y) }) ?? true { best = (r, c, at) }
            }
        }
        let over = try #require(best, "no screen cell puts the part over its place")
        let cell = st.homeCell(of: b)
        player.write(sgr(32, over.row, over.column, "M"))
        try builder.waitForEvent { $0.hasSuffix(" dragged \(b) \(carrier.rawValue) \(over.corner.x) \(over.corner.y) \(cell.row),\(cell.col)") }
        player.write(sgr(0, over.row, over.column, "m"))
        try builder.waitForEvent { $0.contains(" placed \(b) \(carrier.rawValue) cell \(cell.row) \(cell.col) ") }
        let after = try SnapshotCodec.decode(try builder.request("SYNC").state.map { Substring($0) }, now: 0).state
        #expect(after.pieces[a].location == .board(st.homeCell(of: a)), "piece \(a) went in with the part")
        #expect(after.pieces[b].location == .board(cell))
        player.write(Data("/quit\r".utf8))
        #expect(player.waitForExit(), "the client did not exit on quit")
    }
}
