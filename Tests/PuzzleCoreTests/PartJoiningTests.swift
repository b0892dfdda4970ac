import Testing
@testable import PuzzleCore

extension RoomState {
    /// Grabs `piece`, drags it to `point` and drops it; returns the drop's events.
    @discardableResult
    mutating func lay(_ piece: Int, at point: Point, by player: PlayerID = alice, at time: Int64 = 1) throws -> [RoomEvent] {
        try perform(.grab(piece: piece), by: player, at: time)
        try perform(.drag(piece: piece, to: point), by: player, at: time)
        return try perform(.drop(piece: piece), by: player, at: time)
    }

    /// Whether every part is sound: loose, one rotation, each piece exactly
    /// beside the lowest as in the picture (what `PieceBoard` checks on load).
    func partsAreSound() -> Bool {
        for (id, members) in parts.members {
            guard members.first == id else { return false }
            for m in members {
                guard case .table = pieces[m].location, pieces[m].rotation == pieces[id].rotation,
                      board.origin(of: m) == board.point(of: m, grip: id, at: board.origin(of: id), rotation: pieces[id].rotation)
                else { return false }
            }
        }
        return true
    }
}

/// Issue 28: pieces that join on the table and move as one part; where a
/// piece may go into the board (`place=own|shape`). One test per rule.
@Suite struct PartJoiningTests {
    /// A 4x4 room. Its table is 40x24 units with the board at 12,4 to 28,20:
    /// the points used here (x 0 to 8) lie in the margin left of the board.
    static func room(rotation: Bool = false, placement: Placement = .own) throws -> RoomState {
        try makeRoom(.jigsaw, 4, 4, rotation: rotation, placement: placement)
    }

    static func at(_ x: Int, _ y: Int) -> Point { Point(x: x, y: y) }

    @Test func neighboursJoinWithinASnapAndTheDroppedOneSnapsExactly() throws {
        var room = try Self.room()
        try room.lay(0, at: Self.at(0, 0))
        // Piece 1 belongs one cell (4 units) right of piece 0: dropped one unit off each way.
        let events = try room.lay(1, at: Self.at(5, 1))
        #expect(events.map(\.body) == [
            .placed(piece: 1, by: alice, at: .table(Self.at(4, 0)), rotation: 0),
            .merged(piece: 1, other: 0, by: alice),
        ])
        #expect(room.parts.members[0] == [0, 1])
        #expect(room.partsAreSound() && room.checkInvariants())
    }

    @Test func twoUnitsOffIsTooFarToJoin() throws {
        var room = try Self.room()
        try room.lay(0, at: Self.at(0, 0))
        let events = try room.lay(1, at: Self.at(6, 0))
        #expect(events.map(\.body) == [.placed(piece: 1, by: alice, at: .table(Self.at(6, 0)), rotation: 0)])
        #expect(room.parts.isEmpty)
    }

    @Test func piecesThatAreNotNeighboursNeverJoin() throws {
        var room = try Self.room()
        try room.lay(0, at: Self.at(0, 0))
        // Piece 2 is two columns right of 0 in the picture, not beside it.
        try room.lay(2, at: Self.at(4, 0))
        #expect(room.parts.isEmpty)
    }

    @Test func differentRotationsDoNotJoin() throws {
        var room = try Self.room(rotation: true)
        // Set both upright first, then turn piece 1 once.
        for (piece, point) in [(0, Self.at(0, 0)), (1, Self.at(12, 12))] {
            try room.perform(.grab(piece: piece), by: alice, at: 1)
            while room.locks[piece]!.rotation != 0 { try room.perform(.rotate(piece: piece), by: alice, at: 1) }
            try room.perform(.drag(piece: piece, to: point), by: alice, at: 1)
            try room.perform(.drop(piece: piece), by: alice, at: 1)
        }
        try room.perform(.grab(piece: 1), by: alice, at: 2)
        try room.perform(.rotate(piece: 1), by: alice, at: 2)
        try room.perform(.drag(piece: 1, to: Self.at(4, 0)), by: alice, at: 2)
        let events = try room.perform(.drop(piece: 1), by: alice, at: 2)
        #expect(!events.contains { if case .merged = $0.body { true } else { false } })
        #expect(room.parts.isEmpty)
    }

    @Test func aNeighbourSomeoneHoldsDoesNotJoin() throws {
        var room = try Self.room()
        try room.lay(0, at: Self.at(0, 0))
        try room.perform(.grab(piece: 0), by: bob, at: 2)
        try room.lay(1, at: Self.at(4, 0), at: 3)
        #expect(room.parts.isEmpty)
    }

    @Test func aPartIsHeldAsOneAndTheSecondGrabberIsToldWho() throws {
        var room = try Self.room()
        try room.lay(0, at: Self.at(0, 0))
        try room.lay(1, at: Self.at(4, 0))
        try room.perform(.grab(piece: 0), by: alice, at: 2)
        #expect(throws: PuzzleError.heldBy(piece: 1, holder: alice)) { try room.perform(.grab(piece: 1), by: bob, at: 2) }
        #expect(room.holder(of: 1) == alice && room.locks.count == 1)
    }

    @Test func draggingMovesTheWholePartAndDroppingCommitsIt() throws {
        var room = try Self.room()
        try room.lay(0, at: Self.at(0, 0))
        try room.lay(1, at: Self.at(4, 0))
        try room.perform(.grab(piece: 1), by: bob, at: 2)
        try room.perform(.drag(piece: 1, to: Self.at(4, 16)), by: bob, at: 2)
        #expect(room.position(of: 0) == Self.at(0, 16) && room.position(of: 1) == Self.at(4, 16))
        // Committed places stay until the drop.
        #expect(room.pieces[0].location == .table(Self.at(0, 0)))
        try room.perform(.drop(piece: 1), by: bob, at: 3)
        #expect(room.pieces[0].location == .table(Self.at(0, 16)) && room.pieces[1].location == .table(Self.at(4, 16)))
        #expect(room.partsAreSound() && room.checkInvariants())
    }

    @Test func releaseAndExpiryPutTheWholePartBack() throws {
        var room = try Self.room()
        try room.lay(0, at: Self.at(0, 0))
        try room.lay(1, at: Self.at(4, 0))
        try room.perform(.grab(piece: 0), by: alice, at: 2)
        try room.perform(.drag(piece: 0, to: Self.at(12, 8)), by: alice, at: 2)
        try room.perform(.release(piece: 0), by: alice, at: 3)
        #expect(room.position(of: 1) == Self.at(4, 0))
        try room.perform(.grab(piece: 1), by: alice, at: 4)
        try room.perform(.drag(piece: 1, to: Self.at(12, 8)), by: alice, at: 4)
        var events: [RoomEvent] = []
        room.expireLeases(at: 4 + room.settings.leaseMillis, into: &events)
        #expect(events.map(\.body) == [.returned(piece: 1, by: alice, reason: .expired)])
        #expect(room.position(of: 0) == Self.at(0, 0) && room.holder(of: 0) == nil && room.grips.isEmpty)
    }

    @Test func aPartMayNotBeDraggedPartlyOffTheTable() throws {
        var room = try Self.room()
        try room.lay(0, at: Self.at(0, 0))
        try room.lay(1, at: Self.at(4, 0))
        try room.perform(.grab(piece: 1), by: alice, at: 2)
        // Piece 1 at x 0 would put piece 0 at x -4.
        #expect(throws: PuzzleError.offTable(Self.at(0, 0))) { try room.perform(.drag(piece: 1, to: Self.at(0, 0)), by: alice, at: 2) }
    }

    @Test func rotatingTurnsThePartAboutThePieceHeld() throws {
        var room = try Self.room(rotation: true)
        for (piece, point) in [(0, Self.at(0, 8)), (1, Self.at(4, 8))] {
            try room.perform(.grab(piece: piece), by: alice, at: 1)
            while room.locks[piece]!.rotation != 0 { try room.perform(.rotate(piece: piece), by: alice, at: 1) }
            try room.perform(.drag(piece: piece, to: point), by: alice, at: 1)
            try room.perform(.drop(piece: piece), by: alice, at: 1)
        }
        #expect(room.parts.members[0] == [0, 1])
        try room.perform(.grab(piece: 0), by: alice, at: 2)
        try room.perform(.rotate(piece: 0), by: alice, at: 2)
        // A quarter turn clockwise: the right neighbour goes below.
        #expect(room.position(of: 0) == Self.at(0, 8) && room.position(of: 1) == Self.at(0, 12))
        try room.perform(.drop(piece: 0), by: alice, at: 3)
        #expect(room.pieces[1] == PieceState(location: .table(Self.at(0, 12)), rotation: 1))
        #expect(room.partsAreSound())
    }

    @Test func oneDropMayJoinSeveralParts() throws {
        var room = try Self.room()
        // 0 at the left, 2 at the right, one cell apart: 1 dropped between joins both.
        try room.lay(0, at: Self.at(0, 0))
        try room.lay(2, at: Self.at(8, 0))
        let events = try room.lay(1, at: Self.at(4, 1))
        #expect(events.map(\.body) == [
            .placed(piece: 1, by: alice, at: .table(Self.at(4, 0)), rotation: 0),
            .merged(piece: 1, other: 0, by: alice),
            .merged(piece: 1, other: 2, by: alice),
        ])
        #expect(room.parts.members[0] == [0, 1, 2] && room.partsAreSound())
    }

    @Test func anotherPartWithinTheSnapMovesIntoExactPlace() throws {
        var room = try Self.room()
        // 0 at its place, 2 one unit low: 1 snaps to 0 exactly, then 2 moves up to fit.
        try room.lay(0, at: Self.at(0, 0))
        try room.lay(2, at: Self.at(8, 1))
        try room.lay(1, at: Self.at(4, 0))
        #expect(room.parts.members[0] == [0, 1, 2])
        #expect(room.pieces[2].location == .table(Self.at(8, 0)) && room.partsAreSound())
    }

    @Test func aPartGoesIntoTheBoardOnlyWhenEveryPieceFitsAndThenComesApart() throws {
        var room = try Self.room()
        try room.lay(0, at: Self.at(0, 0))
        try room.lay(1, at: Self.at(4, 0))
        try room.perform(.grab(piece: 0), by: alice, at: 2)
        // Aimed at cell 2,2: under place=own no piece of it may go there.
        let wrong = room.geometry.origin(of: Cell(row: 2, col: 2))
        try room.perform(.drag(piece: 0, to: wrong), by: alice, at: 2)
        #expect(room.locks[0]?.target == nil)
        try room.perform(.drag(piece: 0, to: room.geometry.origin(of: Cell(row: 0, col: 0))), by: alice, at: 2)
        #expect(room.locks[0]?.target == Cell(row: 0, col: 0))
        let events = try room.perform(.drop(piece: 0), by: alice, at: 3)
        #expect(events.map(\.body) == [.placed(piece: 0, by: alice, at: .board(Cell(row: 0, col: 0)), rotation: 0)])
        #expect(room.occupant(of: Cell(row: 0, col: 1)) == 1 && room.parts.isEmpty && room.correctCount == 2)
        #expect(room.checkInvariants())
    }

    @Test func aPartThatDoesNotFitStaysOnTheTableWhereDropped() throws {
        var room = try Self.room(placement: .shape)
        try room.lay(0, at: Self.at(0, 0))
        try room.lay(4, at: Self.at(0, 4))
        #expect(room.parts.members[0] == [0, 4])
        try room.perform(.grab(piece: 4), by: alice, at: 2)
        // Piece 4 in cell 3,0 would put piece 0 (a top-left corner) in 2,0.
        let low = room.geometry.origin(of: Cell(row: 3, col: 0))
        try room.perform(.drag(piece: 4, to: low), by: alice, at: 2)
        #expect(room.locks[4]?.target == nil)
        let events = try room.perform(.drop(piece: 4), by: alice, at: 3)
        #expect(events.first?.body == .placed(piece: 4, by: alice, at: .table(low), rotation: 0))
        #expect(room.parts.members[0] == [0, 4] && room.occupant(of: Cell(row: 3, col: 0)) == nil)
        #expect(room.partsAreSound() && room.checkInvariants())
    }

    @Test func underPlaceOwnAWrongPieceStaysOnTheTableOverTheBoard() throws {
        var room = try Self.room(placement: .own)
        // Piece 5 belongs in 1,1; cell 3,3 is too far for its own cell to be the target.
        let cell = Cell(row: 3, col: 3)
        let events = try room.move(5, to: cell)
        #expect(events.map(\.body) == [.placed(piece: 5, by: alice, at: .table(room.geometry.origin(of: cell)), rotation: 0)])
        #expect(room.occupant(of: cell) == nil)
        try room.move(5, to: Cell(row: 1, col: 1))
        #expect(room.occupant(of: Cell(row: 1, col: 1)) == 5)
    }

    @Test func underPlaceShapeAPieceGoesWhereverItsShapeFits() throws {
        // The seeds' rule: the 8 cells around, any that fits. Find an interior
        // piece whose shape fits another interior cell of an empty 6x6 board.
        let room = try makeRoom(.jigsaw, 6, 6, placement: .shape)
        var found = false
        for piece in [7, 8, 9, 10, 13, 14, 15, 16] {
            for cell in [Cell(row: 2, col: 2), Cell(row: 2, col: 3), Cell(row: 3, col: 2), Cell(row: 3, col: 3)] where cell != room.homeCell(of: piece) {
                if room.dropTarget(piece: piece, at: room.geometry.origin(of: cell), rotation: 0, holder: alice) == cell { found = true }
            }
        }
        #expect(found)
    }

    @Test func aDropThatFillsTheBoardWithAPartSolvesThePuzzle() throws {
        var room = try makeRoom(.jigsaw, 2, 2)
        try room.lay(0, at: Self.at(0, 0))
        try room.lay(1, at: Self.at(4, 0))
        try room.lay(2, at: Self.at(0, 4))
        #expect(room.parts.members[0] == [0, 1, 2])
        try room.move(3, to: Cell(row: 1, col: 1))
        try room.perform(.grab(piece: 2), by: bob, at: 2)
        try room.perform(.drag(piece: 2, to: room.geometry.origin(of: Cell(row: 1, col: 0))), by: bob, at: 2)
        let events = try room.perform(.drop(piece: 2), by: bob, at: 3)
        #expect(events.map(\.body.name) == ["placed", "solved"])
        #expect(room.isSolved && room.correctCount == 4)
    }

    @Test func aMoveIsOneDropWhateverThePartsSize() throws {
        var room = try Self.room()
        try room.lay(0, at: Self.at(0, 0))
        try room.lay(1, at: Self.at(4, 0))
        let before = room.players[bob]!.moves
        try room.lay(0, at: Self.at(8, 8), by: bob, at: 2)
        #expect(room.players[bob]!.moves == before + 1)
    }

    @Test func replayingTheEventsGivesTheSameRoomAndDigest() throws {
        var room = try Self.room()
        var log: [RoomEvent] = []
        let start = room
        for (piece, point, who) in [(0, Self.at(0, 0), alice), (2, Self.at(8, 1), alice), (1, Self.at(4, 0), alice), (5, Self.at(4, 4), bob)] {
            try room.perform(.grab(piece: piece), by: who, at: 1, into: &log)
            try room.perform(.drag(piece: piece, to: point), by: who, at: 1, into: &log)
            try room.perform(.drop(piece: piece), by: who, at: 1, into: &log)
        }
        var mirror = start
        for e in log { try mirror.apply(e) }
        #expect(mirror.digest == room.digest && mirror.parts == room.parts && mirror == room)
        #expect(room.parts.members[0] == [0, 1, 2, 5])
    }

    @Test func theDigestCoversPartsOnlyWhenThereAreSome() throws {
        var a = try Self.room()
        try a.lay(0, at: Self.at(0, 0))
        try a.lay(1, at: Self.at(4, 0))
        #expect(!a.parts.isEmpty)
        // The same places without the part (rebuilt by hand): another digest.
        var c = a
        c.board = try PieceBoard(spec: c.spec, seed: c.settings.seed, index: 0, pieces: c.pieces)
        #expect(c.pieces == a.pieces && c.parts.isEmpty && c.digest != a.digest)
        // Rebuilt with the part: the same digest.
        c.board = try PieceBoard(spec: c.spec, seed: c.settings.seed, index: 0, pieces: c.pieces, parts: [[0, 1]])
        #expect(c.digest == a.digest)
    }
}
