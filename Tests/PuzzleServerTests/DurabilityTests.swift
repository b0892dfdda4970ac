import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// The real `puzzle serve` process, killed with SIGKILL right after it
/// acknowledged moves, must restore every acknowledged move on restart
/// (PROTOCOL.md, "Durability"); SIGTERM must shut it down cleanly.
@Suite(.serialized) struct DurabilityTests {
    /// Pieces whose committed place the server acknowledged, as the test saw it.
    typealias Acknowledged = [Int: PieceLocation]

    // MARK: - jigsaw

    @Test func killNineAfterAcknowledgedJigsawDropsLosesNone() throws {
        let data = TestServer.temporaryDirectory()
        let room = "crash jigsaw 4x4"
        var acked: Acknowledged = [:]

        // 1. One request at a time; SIGKILL right after the last OK.
        var server = try ServerProcess(dataDirectory: data, rooms: [room])
        var (client, state) = try Self.join(server, room: "crash")
        #expect(state.pieceCount == 16 && state.locks.isEmpty)
        for piece in 0..<3 {
            try Self.move(piece, to: Self.home(of: piece, in: state), client, &acked)
        }
        try Self.move(3, to: Point(x: 0, y: 0), client, &acked)
        try server.kill()

        // 2. Pipelined: every request of the batch at once, SIGKILL right after the last OK.
        server = try ServerProcess(dataDirectory: data, rooms: [room])
        (client, state) = try Self.join(server, room: "crash")
        try Self.checkRestored(state, keeps: acked)
        let batch: [(Int, Point)] = (4..<10).map { piece in
            (piece, piece % 3 == 0 ? Point(x: 4 * (piece - 4), y: 20) : Self.home(of: piece, in: state))
        }
        try Self.pipeline(batch, client, &acked, killAfterDrops: batch.count, server)

        // 3. Pipelined, killed after the third OK while the rest is still in flight:
        // a move not yet acknowledged may or may not have happened, but nothing else.
        server = try ServerProcess(dataDirectory: data, rooms: [room])
        (client, state) = try Self.join(server, room: "crash")
        try Self.checkRestored(state, keeps: acked)
        let before = state
        let late: [(Int, Point)] = (10..<16).map { ($0, Self.home(of: $0, in: state)) }
        try Self.pipeline(late, client, &acked, killAfterDrops: 3, server)

        // 4. Killed while a piece is held and dragged: the hold is gone, the piece back where it was.
        server = try ServerProcess(dataDirectory: data, rooms: [room])
        (client, state) = try Self.join(server, room: "crash")
        try Self.checkRestored(state, keeps: acked)
        for (piece, point) in late where acked[piece] == nil {
            let location = state.pieces[piece].location
            #expect(location == before.pieces[piece].location || location == .board(state.geometry.cell(under: point)!),
                    "unacknowledged piece \(piece) is at \(location)")
        }
        let held = (0..<16).first { acked[$0] == nil } ?? 0
        let heldFrom = state.pieces[held].location
        #expect(try client.request("GRAB \(held)").reply == "OK grabbed \(held)")
        #expect(try client.request("DRAG \(held) 16 0").reply.hasPrefix("OK dragged \(held) 16 0"))
        try server.kill()

        server = try ServerProcess(dataDirectory: data, rooms: [room])
        (client, state) = try Self.join(server, room: "crash")
        try Self.checkRestored(state, keeps: acked)
        #expect(state.pieces[held].location == heldFrom)
        try server.kill()
    }

    // MARK: - swap

    @Test func killNineRightAfterASwapLosesNone() throws {
        let data = TestServer.temporaryDirectory()
        let room = "tiles swap 4x4 picture=quilt"
        var server = try ServerProcess(dataDirectory: data, rooms: [room])
        var (client, state) = try Self.join(server, room: "tiles")
        // The test's mirror of the whole board, changed only by acknowledged swaps.
        var mirror = state.pieces.map(\.location)

        for round in 0..<3 {
            let misplaced = (0..<state.pieceCount).filter { !state.isCorrect($0) }
            // Round 0 swaps one at a time, later rounds pipeline two swaps.
            let moves = misplaced.prefix(round == 0 ? 1 : 2)
            var requests = ""
            for piece in moves {
                let home = Self.home(of: piece, in: state)
                requests += "GRAB \(piece)\nDRAG \(piece) \(home.x) \(home.y)\nDROP \(piece)\n"
            }
            try client.sendRaw(Array(requests.utf8))
            for piece in moves {
                #expect(try client.awaitReply().reply == "OK grabbed \(piece)")
                #expect(try client.awaitReply().reply.hasPrefix("OK dragged \(piece) "))
                let reply = try client.awaitReply().reply
                let homeCell = state.homeCell(of: piece)
                // The server handles the pipelined moves in order: an earlier swap
                // may already have brought this tile home (it sat where the earlier
                // tile belongs), and a tile dropped on its own cell goes back.
                let expected = mirror[piece] == .board(homeCell)
                    ? "OK dropped \(piece) returned"
                    : "OK dropped \(piece) swapped cell \(homeCell.row) \(homeCell.col)"
                guard reply.hasPrefix(expected) else {
                    try server.kill()
                    Issue.record("swap of \(piece): expected \(expected), got \(reply)")
                    return
                }
                // The tile that was home goes where the dropped one came from.
                if let other = mirror.firstIndex(of: .board(homeCell)), other != piece {
                    mirror[other] = mirror[piece]
                    mirror[piece] = .board(homeCell)
                }
            }
            try server.kill()

            server = try ServerProcess(dataDirectory: data, rooms: [room])
            (client, state) = try Self.join(server, room: "tiles")
            #expect(state.pieces.map(\.location) == mirror, "round \(round): board differs from the acknowledged swaps")
            #expect(state.locks.isEmpty)
        }
        try server.kill()
    }

    @Test func killNineRightAfterSolvedAndAfterNextKeepsThem() throws {
        let data = TestServer.temporaryDirectory()
        let room = "duo swap 2x2"
        var server = try ServerProcess(dataDirectory: data, rooms: [room])
        var (client, state) = try Self.join(server, room: "duo")
        var solvedReply: String?
        // Each swap puts at least one more tile home, so this solves a 2x2 board.
        while let piece = (0..<state.pieceCount).first(where: { !state.isCorrect($0) }) {
            let home = Self.home(of: piece, in: state)
            #expect(try client.request("GRAB \(piece)").reply == "OK grabbed \(piece)")
            #expect(try client.request("DRAG \(piece) \(home.x) \(home.y)").reply.hasPrefix("OK dragged \(piece) "))
            let reply = try client.request("DROP \(piece)").reply
            if reply.hasSuffix(" solved") { solvedReply = reply; break }
            #expect(reply.hasPrefix("OK dropped \(piece) swapped"))
            let (_, lines) = try client.request("SYNC")
            state = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0).state
        }
        try server.kill()
        #expect(solvedReply != nil, "the board was never reported solved")

        server = try ServerProcess(dataDirectory: data, rooms: [room])
        (client, state) = try Self.join(server, room: "duo")
        #expect(state.isSolved && state.correctCount == 4 && state.puzzleIndex == 0)
        #expect(try client.request("NEXT").reply == "OK next 1 swap 3x3")
        try server.kill()

        server = try ServerProcess(dataDirectory: data, rooms: [room])
        (client, state) = try Self.join(server, room: "duo")
        #expect(!state.isSolved && state.puzzleIndex == 1 && state.pieceCount == 9)
        try server.kill()
    }

    // MARK: - SIGTERM

    @Test func sigtermSaysByeExitsZeroAndRestartRestores() throws {
        let data = TestServer.temporaryDirectory()
        let room = "calm jigsaw 3x3"
        var server = try ServerProcess(dataDirectory: data, rooms: [room])
        var (client, state) = try Self.join(server, room: "calm")
        var acked: Acknowledged = [:]
        try Self.move(4, to: Self.home(of: 4, in: state), client, &acked)
        try Self.move(0, to: Point(x: 0, y: 16), client, &acked)
        #expect(try client.request("GRAB 1").reply == "OK grabbed 1")

        try Signals.send(.terminate, to: server.process.processIdentifier)
        let lines = try client.waitForClose()
        #expect(lines.last?.hasPrefix("BYE SHUTDOWN") == true, "last lines before close: \(lines.suffix(3))")
        let exit = try server.waitForExit()
        #expect(exit.reason == .exit && exit.status == 0, "exit \(exit.reason) \(exit.status); stderr: \(server.stderrTail)")

        server = try ServerProcess(dataDirectory: data, rooms: [room])
        (client, state) = try Self.join(server, room: "calm")
        try Self.checkRestored(state, keeps: acked)
        try server.kill()
    }
}

// MARK: - helpers

extension DurabilityTests {
    /// HELLO and JOIN; returns the client and the room decoded from the snapshot
    /// (decoding validates that every piece exists exactly once).
    static func join(_ server: ServerProcess, room: String) throws -> (LineClient, RoomState) {
        let client = try LineClient(port: server.port, name: "player")
        _ = try client.hello("tester")
        let (reply, lines) = try client.request("JOIN \(room)")
        guard reply.hasPrefix("OK joined \(room)") else {
            throw ServerProcessError(description: "JOIN refused: \(reply); stderr: \(server.stderrTail)")
        }
        let state = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0).state
        return (client, state)
    }

    /// Where piece `piece`'s top-left corner goes to sit in its home cell.
    static func home(of piece: Int, in state: RoomState) -> Point {
        state.geometry.origin(of: state.homeCell(of: piece))
    }

    /// GRAB, DRAG, DROP one request at a time; records the acknowledged place.
    static func move(_ piece: Int, to point: Point, _ client: LineClient, _ acked: inout Acknowledged) throws {
        #expect(try client.request("GRAB \(piece)").reply == "OK grabbed \(piece)")
        #expect(try client.request("DRAG \(piece) \(point.x) \(point.y)").reply.hasPrefix("OK dragged \(piece) "))
        let reply = try client.request("DROP \(piece)").reply
        guard let (dropped, location) = droppedLocation(reply), dropped == piece else {
            Issue.record("DROP \(piece) not acknowledged: \(reply)")
            return
        }
        acked[piece] = location
    }

    /// Sends GRAB, DRAG, DROP for every move in one write, reads the replies in
    /// order, and sends SIGKILL the moment the `killAfterDrops`-th drop is acknowledged.
    static func pipeline(_ moves: [(Int, Point)], _ client: LineClient, _ acked: inout Acknowledged,
                         killAfterDrops: Int, _ server: ServerProcess) throws {
        var text = ""
        for (piece, point) in moves {
            text += "GRAB \(piece)\nDRAG \(piece) \(point.x) \(point.y)\nDROP \(piece)\n"
        }
        try client.sendRaw(Array(text.utf8))
        var drops = 0
        for (piece, _) in moves {
            #expect(try client.awaitReply().reply == "OK grabbed \(piece)")
            #expect(try client.awaitReply().reply.hasPrefix("OK dragged \(piece) "))
            let reply = try client.awaitReply().reply
            guard let (dropped, location) = droppedLocation(reply), dropped == piece else {
                try server.kill()
                Issue.record("DROP \(piece) not acknowledged: \(reply)")
                return
            }
            acked[piece] = location
            drops += 1
            if drops == killAfterDrops {
                try server.kill()
                return
            }
        }
        try server.kill()
    }

    /// The piece and its new place from `OK dropped <piece> cell r c | table x y | swapped cell r c [solved]`.
    static func droppedLocation(_ reply: String) -> (Int, PieceLocation)? {
        var words = reply.split(separator: " ")[...]
        guard words.popFirst() == "OK", words.popFirst() == "dropped", let piece = words.popFirst().flatMap({ Int($0) }) else { return nil }
        if words.first == "swapped" { words.removeFirst() }
        let numbers = words.dropFirst().prefix(2).compactMap { Int($0) }
        guard numbers.count == 2 else { return nil }
        switch words.first {
        case "cell": return (piece, .board(Cell(row: numbers[0], col: numbers[1])))
        case "table": return (piece, .table(Point(x: numbers[0], y: numbers[1])))
        default: return nil
        }
    }

    /// The restored room has every acknowledged move, no holds, and only the
    /// player who just joined.
    static func checkRestored(_ state: RoomState, keeps acked: Acknowledged, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (piece, location) in acked.sorted(by: { $0.key < $1.key }) {
            #expect(state.pieces[piece].location == location, "acknowledged piece \(piece) lost", sourceLocation: sourceLocation)
        }
        #expect(state.locks.isEmpty, "holds survived a restart: \(state.locks)", sourceLocation: sourceLocation)
        #expect(state.players.count == 1, "players survived a restart: \(state.players)", sourceLocation: sourceLocation)
    }
}
