import Foundation
import PuzzleLink
import PuzzleProtocol
import PuzzleTestSupport
import Testing
@testable import PuzzleClient

/// Watch it again (issue 20) in the real `puzzle play` on a pseudo-terminal:
/// a small puzzle solved by two players shows the banner's numbers (the time,
/// the moves, who placed how many), and `/replay` plays the solve back move by
/// move, with who made each, to the solved board; Esc returns to the room.
@Suite(.serialized) struct ReplayTerminalTests {
    @Test func aSolvedPuzzleIsPlayedBackToTheSolvedBoard() throws {
        guard PtyPlayer.available else { Issue.record("util-linux script is needed to give the client a terminal"); return }
        let duo = RoomSpec(name: "duo", kind: .jigsaw, rows: 2, cols: 2, picture: "sunset", rotation: false, password: nil)
        let server = try TestServer(rooms: [duo])
        defer { server.stop() }
        let bob = try LineClient(port: server.port, name: "bob")
        _ = try bob.hello("bob")
        let joined = try bob.request("JOIN duo")
        let state = try SnapshotCodec.decode(joined.state.map { Substring($0) }, now: 0).state
        let carol = try PtyPlayer(port: server.port, name: "carol")
        let inRoom = carol.typeUntilSeen("ready\r") {
            (try? bob.waitForEvent(timeout: 0.5) { $0.contains(" say ") && $0.hasSuffix(" ready") }) != nil
        }
        #expect(inRoom, "carol never joined")
        func screenShows(_ what: String, _ test: @escaping (TerminalModel) -> Bool) -> TerminalModel {
            let (seen, model) = carol.waitForScreen { test($0) }
            #expect(seen, "\(what); carol's screen:\n\(model.rows.joined(separator: "\n"))")
            return model
        }
        func row(_ text: String) -> (TerminalModel) -> Bool { { $0.rows.contains { $0.contains(text) } } }

        // carol puts piece 0 in, bob the rest: the last drop solves.
        carol.type("/grab 0\r")
        _ = try bob.waitForEvent { $0.hasSuffix(" grabbed 0 2") || $0.contains(" grabbed 0 ") }
        carol.type("/place 0 0\r")
        _ = try bob.waitForEvent { $0.contains(" dragged 0 ") }
        carol.type("/drop\r")
        _ = try bob.waitForEvent { $0.contains(" placed 0 ") }
        for piece in 1..<4 {
            let home = state.geometry.origin(of: state.homeCell(of: piece))
            _ = try bob.request("GRAB \(piece)")
            _ = try bob.request("DRAG \(piece) \(home.x) \(home.y)")
            _ = try bob.request("DROP \(piece)")
        }
        _ = screenShows("the solved banner with its numbers", {
            row("*** puzzle 0 solved in ")($0) && row("4 moves; placed: bob 3, carol 1")($0) && row("Ctrl-O: watch it again")($0)
        })

        // At 1x: the playback shows where it is; Home goes back to the start,
        // paused, and Right steps one move at a time, saying who made it.
        carol.type("/replay 0 1x\r")
        // (A loaded machine may show it already at its end: Home goes back either way.)
        _ = screenShows("the replay started", { $0.rows[0].hasPrefix(" duo: replay 0 | ") && row("Esc back to the room")($0) })
        carol.type("\u{1b}[H")  // Home
        _ = screenShows("the replay at its start, paused", { $0.rows[0].hasPrefix(" duo: replay 0 | 1x paused | move 0/4 | 0:00 | the start") })
        carol.type("\u{1b}[C")  // Right: the first move, carol's
        _ = screenShows("move 1 shown", { $0.rows[0].contains("| move 1/4 |") && $0.rows[0].contains("carol placed piece 0 in cell 0,0") })
        carol.type("\u{1b}[C")
        _ = screenShows("move 2 shown", { $0.rows[0].contains("| move 2/4 |") && $0.rows[0].contains("bob placed piece 1 in cell 0,1") })
        // Played on at 64x to the end: the solved board and the totals over it.
        carol.type("\r")
        for _ in 0..<6 { carol.type("\u{1b}[A") }  // Up: faster, to 64x
        _ = screenShows("the replay at its end", {
            $0.rows[0].contains("| the end | move 4/4 |") && row("*** replay of puzzle 0: solved in ")($0)
                && row("4 moves; placed: bob 3, carol 1")($0) && row("Enter again  Esc back to the room")($0)
        })

        // Esc: back to the live room, which went on meanwhile (bob's chat came in).
        _ = try bob.request("SAY welcome back")
        carol.type("\u{1b}")
        _ = screenShows("the live room again", { $0.rows[0].hasPrefix(" duo | puzzle 0") && row("<bob> welcome back")($0) })
        carol.type("/quit\r")
        #expect(carol.waitForExit(), "the client did not exit on quit")
    }
}
