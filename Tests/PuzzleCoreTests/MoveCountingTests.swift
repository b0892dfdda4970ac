import Testing
@testable import PuzzleCore

/// A move is a drop that changed a piece's place or turn (PROTOCOL.md,
/// *Moves*): one test per rule, and the journal's replay counts the same.
@Suite struct MoveCountingTests {
    /// A loose jigsaw piece with no board cell under any point near it, so a
    /// drop there stays on the table.
    static func loosePiece(in room: RoomState) -> Int {
        (0..<room.pieces.count).first { p in
            if case .table = room.pieces[p].location { return true }
            return false
        }!
    }

    @Test func aDropWithoutADragIsNoMove() throws {
        var room = try makeRoom(.jigsaw)
        let piece = Self.loosePiece(in: room)
        let before = room.pieces[piece]
        try room.perform(.grab(piece: piece), by: alice, at: 1)
        var events: [RoomEvent] = []
        let outcome = try room.perform(.drop(piece: piece), by: alice, at: 2, into: &events)
        #expect(outcome == .dropped(piece: piece, .onTable(room.position(of: piece)), solved: false, moved: false))
        // The hold still ends with a `placed` event, as every jigsaw drop does.
        #expect(events.map(\.body) == [.placed(piece: piece, by: alice, at: before.location, rotation: before.rotation)])
        #expect(room.players[alice]?.moves == 0 && room.players[alice]?.totalMoves == 0)
        #expect(room.pieces[piece] == before)
    }

    @Test func aDragAwayAndBackIsNoMove() throws {
        var room = try makeRoom(.jigsaw)
        let piece = Self.loosePiece(in: room)
        let home = room.position(of: piece)
        try room.perform(.grab(piece: piece), by: alice, at: 1)
        try room.perform(.drag(piece: piece, to: Point(x: home.x == 0 ? 1 : home.x - 1, y: home.y)), by: alice, at: 1)
        try room.perform(.drag(piece: piece, to: home), by: alice, at: 1)
        var events: [RoomEvent] = []
        guard case .dropped(_, _, _, moved: false) = try room.perform(.drop(piece: piece), by: alice, at: 2, into: &events) else {
            Issue.record("a drop back where the piece was counted as a move")
            return
        }
        #expect(room.players[alice]?.moves == 0)
    }

    @Test func aDropElsewhereIsAMove() throws {
        var room = try makeRoom(.jigsaw)
        let piece = Self.loosePiece(in: room)
        let home = room.position(of: piece)
        try room.perform(.grab(piece: piece), by: alice, at: 1)
        try room.perform(.drag(piece: piece, to: Point(x: home.x == 0 ? 1 : home.x - 1, y: home.y)), by: alice, at: 1)
        var events: [RoomEvent] = []
        guard case .dropped(_, .onTable, _, moved: true) = try room.perform(.drop(piece: piece), by: alice, at: 2, into: &events) else {
            Issue.record("a drop one unit away was not a move")
            return
        }
        #expect(room.players[alice]?.moves == 1 && room.players[alice]?.totalMoves == 1)
    }

    @Test func aTurnInPlaceIsAMove() throws {
        var room = try makeRoom(.jigsaw, rotation: true)
        let piece = Self.loosePiece(in: room)
        try room.perform(.grab(piece: piece), by: alice, at: 1)
        try room.perform(.rotate(piece: piece), by: alice, at: 1)
        var events: [RoomEvent] = []
        guard case .dropped(_, _, _, moved: true) = try room.perform(.drop(piece: piece), by: alice, at: 2, into: &events) else {
            Issue.record("a piece turned in place was not a move")
            return
        }
        #expect(room.players[alice]?.moves == 1)
    }

    @Test func aPieceLiftedOffItsCellAndDroppedBackIsNoMove() throws {
        var room = try makeRoom(.jigsaw)
        let cell = Cell(row: 1, col: 1)
        try room.move(room.occupantForHome(cell), to: cell)
        #expect(room.players[alice]?.moves == 1)
        let piece = room.occupantForHome(cell)
        try room.perform(.grab(piece: piece), by: alice, at: 3)
        var events: [RoomEvent] = []
        #expect(try room.perform(.drop(piece: piece), by: alice, at: 4, into: &events)
            == .dropped(piece: piece, .placed(cell), solved: false, moved: false))
        #expect(room.players[alice]?.moves == 1)
    }

    @Test func aSwapTileGoingBackIsNoMoveAndASwapIs() throws {
        var room = try makeRoom(.swap, 2, 2)
        let piece = room.occupant(of: Cell(row: 0, col: 0))!
        try room.perform(.grab(piece: piece), by: alice, at: 1)
        var events: [RoomEvent] = []
        #expect(try room.perform(.drop(piece: piece), by: alice, at: 2, into: &events) == .dropped(piece: piece, .returned, solved: false, moved: false))
        #expect(room.players[alice]?.moves == 0)
        try room.perform(.grab(piece: piece), by: alice, at: 3)
        try room.perform(.drag(piece: piece, to: room.geometry.origin(of: Cell(row: 1, col: 1))), by: alice, at: 3)
        guard case .dropped(_, .swapped, _, moved: true) = try room.perform(.drop(piece: piece), by: alice, at: 4, into: &events) else {
            Issue.record("a swap was not a move")
            return
        }
        #expect(room.players[alice]?.moves == 1)
    }

    /// A server restores a room from its journal's durable events; the moves it
    /// counts there are the moves counted live.
    @Test func replayingTheJournalCountsTheSameMoves() throws {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3)
        let start = RoomState(settings: RoomSettings(first: spec, leaseMillis: 10_000, maxHeld: 1, seed: 42))
        var live = start
        var journal: [RoomEvent] = []
        func act(_ action: Action, at time: Int64) throws {
            var events: [RoomEvent] = []
            try live.perform(action, by: alice, at: time, into: &events)
            journal += events.filter { $0.body.isSequenced }
        }
        try act(.join(name: "alice"), at: 0)
        let piece = Self.loosePiece(in: live)
        let home = live.position(of: piece)
        try act(.grab(piece: piece), at: 1)
        try act(.drop(piece: piece), at: 2)  // no move
        try act(.grab(piece: piece), at: 3)
        try act(.drag(piece: piece, to: Point(x: home.x == 0 ? 1 : home.x - 1, y: home.y)), at: 3)
        try act(.drop(piece: piece), at: 4)  // a move
        #expect(live.players[alice]?.moves == 1)
        var restored = start
        for event in journal { try restored.restore(event) }
        #expect(restored.players[alice]?.moves == 1 && restored.players[alice]?.totalMoves == 1)
        #expect(restored.digest == live.digest)
    }
}

extension RoomState {
    /// The piece whose home is `cell`.
    func occupantForHome(_ cell: Cell) -> Int { cell.row * spec.cols + cell.col }
}
