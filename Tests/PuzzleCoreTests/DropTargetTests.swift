import Testing
@testable import PuzzleCore

/// The drop zones of `place=shape` (the seeds' rule); `place=own` has its own tests (`PartJoiningTests`).
@Suite struct DropTargetTests {
    @Test func jigsawCellUnderPointWhenPieceFits() throws {
        var room = try makeRoom(.jigsaw, placement: .shape)
        try room.perform(.grab(piece: 5), by: alice, at: 1)
        let home = Cell(row: 1, col: 1)
        let events = try room.perform(.drag(piece: 5, to: room.geometry.origin(of: home)), by: alice, at: 2)
        #expect(events.map(\.body) == [.dragged(piece: 5, by: alice, to: room.geometry.origin(of: home), target: home)])
        // A point a little off the origin still has its centre in the same cell.
        let near = Point(x: room.geometry.origin(of: home).x + 1, y: room.geometry.origin(of: home).y - 1)
        #expect(room.dropTarget(piece: 5, at: near, rotation: 0, holder: alice) == home)
    }

    @Test func jigsawNearestAllowedNeighbourWhenCellTaken() throws {
        var room = try makeRoom(.jigsaw, placement: .shape)
        try room.move(5, to: Cell(row: 1, col: 1))
        // Piece 6 belongs at (1,2). Aim it at (1,1), which is taken, a bit to the right:
        // of the 8 cells around, its own home is allowed and the nearest.
        let o = room.geometry.origin(of: Cell(row: 1, col: 1))
        let p = Point(x: o.x + 1, y: o.y)
        #expect(room.dropTarget(piece: 6, at: p, rotation: 0, holder: alice) == Cell(row: 1, col: 2))
    }

    @Test func jigsawNoneWhenNothingAroundFits() throws {
        let room = try makeRoom(.jigsaw, 8, 8, placement: .shape)
        // A corner piece over the middle: no interior cell takes flat edges.
        let p = room.geometry.origin(of: Cell(row: 4, col: 4))
        #expect(room.dropTarget(piece: 0, at: p, rotation: 0, holder: alice) == nil)
    }

    @Test func jigsawEdgesMustFitNeighbours() throws {
        var room = try makeRoom(.jigsaw, 5, 5, placement: .shape)
        try room.move(6, to: Cell(row: 1, col: 1))
        let right = room.cut.edge(piece: 6, side: .right, rotation: 0)
        let target = Cell(row: 1, col: 2)
        let interior = [7, 8, 11, 12, 13, 16, 17, 18]
        let clash = interior.first { room.cut.edge(piece: $0, side: .left, rotation: 0) == right }
        let match = interior.first { room.cut.edge(piece: $0, side: .left, rotation: 0) == right.complement }
        #expect(clash != nil && match != nil)
        #expect(!room.fits(piece: clash!, rotation: 0, in: target))
        #expect(room.fits(piece: match!, rotation: 0, in: target))
        #expect(room.fits(piece: 7, rotation: 0, in: target))
    }

    @Test func jigsawFlatEdgesOnlyFaceTheBorder() throws {
        let room = try makeRoom(.jigsaw, 4, 4, rotation: true, placement: .shape)
        // Corner 0 turned a quarter has its flats on top and right: fits (0,3), not (0,0).
        #expect(!room.fits(piece: 0, rotation: 1, in: Cell(row: 0, col: 0)))
        #expect(room.fits(piece: 0, rotation: 1, in: Cell(row: 0, col: 3)))
        #expect(room.fits(piece: 0, rotation: 0, in: Cell(row: 0, col: 0)))
    }

    @Test func jigsawPointFarOffBoardHasNoTarget() throws {
        let room = try makeRoom(.jigsaw, placement: .shape)
        #expect(room.dropTarget(piece: 0, at: Point(x: 0, y: 0), rotation: 0, holder: alice) == nil)
    }

    @Test func jigsawDropNextToBoardSnapsIntoEdgeCell() throws {
        let room = try makeRoom(.jigsaw, placement: .shape)
        // Just left of the board, beside (0,0): the corner cell is among the 8 around.
        let o = room.geometry.origin(of: Cell(row: 0, col: 0))
        #expect(room.dropTarget(piece: 0, at: Point(x: o.x - 3, y: o.y), rotation: 0, holder: alice) == Cell(row: 0, col: 0))
    }

    @Test func swapTargetIsCellUnderPoint() throws {
        let room = try makeRoom(.swap, 3, 3)
        let own = room.pieces[0].location.cell!
        let other = own == Cell(row: 2, col: 2) ? Cell(row: 0, col: 0) : Cell(row: 2, col: 2)
        #expect(room.dropTarget(piece: 0, at: room.geometry.origin(of: other), rotation: 0, holder: alice) == other)
    }

    @Test func swapOwnCellIsNoTarget() throws {
        let room = try makeRoom(.swap, 3, 3)
        let own = room.pieces[0].location.cell!
        #expect(room.dropTarget(piece: 0, at: room.geometry.origin(of: own), rotation: 0, holder: alice) == nil)
    }

    @Test func swapTileHeldByAnotherIsNoTarget() throws {
        var room = try makeRoom(.swap, 3, 3)
        try room.perform(.grab(piece: 1), by: bob, at: 1)
        let cell = room.pieces[1].location.cell!
        #expect(room.dropTarget(piece: 0, at: room.geometry.origin(of: cell), rotation: 0, holder: alice) == nil)
        #expect(room.dropTarget(piece: 0, at: room.geometry.origin(of: cell), rotation: 0, holder: bob) == cell)
    }
}
