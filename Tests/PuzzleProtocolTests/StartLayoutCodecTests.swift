import PuzzleCore
import Testing
@testable import PuzzleProtocol

/// `LAYOUT`'s compact form: three bytes a piece, for every board size.
@Suite struct StartLayoutCodecTests {
    static func lines(_ pieces: [PieceState]) -> [Substring]? {
        var out: [UInt8] = []
        guard StartLayoutCodec.encode(pieces, into: &out) else { return nil }
        return String(decoding: out, as: UTF8.self).split(separator: "\n")
    }

    @Test(arguments: [(2, 2), (3, 100), (100, 3), (2, 100), (100, 2), (57, 91), (100, 100)])
    func everyJigsawStartFitsAndComesBack(rows: Int, cols: Int) throws {
        for rotation in [false, true] {
            let spec = try PuzzleSpec(kind: .jigsaw, rows: rows, cols: cols, rotation: rotation)
            let start = RoomState.startPieces(spec: spec, seed: 77, index: 3)
            let lines = try #require(Self.lines(start), "\(rows)x\(cols) does not fit")
            #expect(lines.allSatisfy { $0.hasPrefix("S start table ") && $0.utf8.count <= 14 + StartLayoutCodec.lineChars })
            #expect(StartLayoutCodec.decode(lines, count: start.count) == start)
            // Four base64 characters a piece.
            #expect(lines.reduce(0) { $0 + $1.utf8.count - 14 } == 4 * start.count)
        }
    }

    @Test func aSwapStartIsCells() throws {
        let spec = try PuzzleSpec(kind: .swap, rows: 100, cols: 100)
        let start = RoomState.startPieces(spec: spec, seed: 5, index: 0)
        let lines = try #require(Self.lines(start))
        #expect(lines.allSatisfy { $0.hasPrefix("S start cell ") })
        #expect(StartLayoutCodec.decode(lines, count: start.count) == start)
    }

    @Test func placesTheFormCannotHoldAreRefusedSoTheServerListsThem() {
        #expect(Self.lines([PieceState(location: .table(Point(x: 3, y: 5)))]) == nil)
        #expect(Self.lines([PieceState(location: .table(Point(x: 5 * 256, y: 0)))]) == nil)
        #expect(Self.lines([PieceState(location: .table(Point(x: 5, y: 5))), PieceState(location: .board(Cell(row: 0, col: 0)))]) == nil)
        #expect(Self.lines([]) == nil)
    }

    @Test func damagedLinesReadAsNothing() {
        let good = Self.lines([PieceState(location: .table(Point(x: 5, y: 10)), rotation: 2)])!
        #expect(StartLayoutCodec.decode(good, count: 1) == [PieceState(location: .table(Point(x: 5, y: 10)), rotation: 2)])
        #expect(StartLayoutCodec.decode(good, count: 2) == nil)
        #expect(StartLayoutCodec.decode(["S start table AQID"], count: 1) == [PieceState(location: .table(Point(x: 5, y: 10)), rotation: 3)])
        #expect(StartLayoutCodec.decode(["S start table AQIE"], count: 1) == nil)  // rotation 4
        #expect(StartLayoutCodec.decode(["S start table AQI"], count: 1) == nil)   // not whole quads
        #expect(StartLayoutCodec.decode(["S start square AQID"], count: 1) == nil)
        #expect(StartLayoutCodec.decode(["S start table AQID", "S start cell AQID"], count: 2) == nil)
        #expect(StartLayoutCodec.decode(["S start table AQIDAQID"], count: 1) == nil)
    }
}
