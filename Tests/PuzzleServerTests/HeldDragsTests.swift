import Testing
@testable import PuzzleServer

/// `HeldDrags`: the newest drag line per piece, by reference into turn chunks.
struct HeldDragsTests {
    static func chunk(_ lines: [String]) -> (ByteChunk, [Range<Int>]) {
        let chunk = ByteChunk()
        var ranges: [Range<Int>] = []
        for line in lines {
            let start = chunk.count
            chunk.append(Array((line + "\n").utf8))
            ranges.append(start..<chunk.count)
        }
        return (chunk, ranges)
    }

    static func taken(_ held: inout HeldDrags) -> String {
        var bytes: [UInt8] = []
        held.take(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theNewestOfEachPieceInTheOrderFirstHeld() {
        var held = HeldDrags()
        let (c, r) = Self.chunk(["EV 1 dragged 7 1 1 1 -", "EV 1 dragged 3 2 1 1 -", "EV 1 dragged 7 1 2 2 -"])
        for (piece, range) in zip([7, 3, 7], r) { held.hold(piece: piece, chunk: c, start: range.lowerBound, end: range.upperBound) }
        #expect(held.count == 2)
        #expect(held.superseded == 1)
        #expect(Self.taken(&held) == "EV 1 dragged 7 1 2 2 -\nEV 1 dragged 3 2 1 1 -\n")
        #expect(held.isEmpty)
        #expect(Self.taken(&held) == "")
    }

    @Test func aDroppedPieceIsNotTakenAndAllDroppedHoldsNothing() {
        var held = HeldDrags()
        let (c, r) = Self.chunk(["EV 1 dragged 7 1 1 1 -", "EV 1 dragged 3 2 1 1 -"])
        held.hold(piece: 7, chunk: c, start: r[0].lowerBound, end: r[0].upperBound)
        held.hold(piece: 3, chunk: c, start: r[1].lowerBound, end: r[1].upperBound)
        held.drop(piece: 7)
        held.drop(piece: 99)
        #expect(held.count == 1 && held.superseded == 1)
        #expect(Self.taken(&held) == "EV 1 dragged 3 2 1 1 -\n")
        held.hold(piece: 7, chunk: c, start: r[0].lowerBound, end: r[0].upperBound)
        held.drop(piece: 7)
        #expect(held.isEmpty)
        // Held again after a drop: taken once.
        held.hold(piece: 7, chunk: c, start: r[0].lowerBound, end: r[0].upperBound)
        #expect(Self.taken(&held) == "EV 1 dragged 7 1 1 1 -\n")
    }

    /// A reader held back for many turns keeps a bounded number of turn chunks:
    /// what it holds is copied into one of its own, and reads the same.
    @Test func manyTurnsAreCompactedIntoOneChunk() {
        var held = HeldDrags()
        for turn in 0..<(HeldDrags.chunkLimit * 3) {
            let (c, r) = Self.chunk(["EV 1 dragged \(turn % 5) 1 \(turn) 0 -"])
            held.hold(piece: turn % 5, chunk: c, start: r[0].lowerBound, end: r[0].upperBound)
            #expect(held.chunksKept <= HeldDrags.chunkLimit)
        }
        let turns = 0..<(HeldDrags.chunkLimit * 3)
        let expected = (0..<5).map { p in "EV 1 dragged \(p) 1 \(turns.last { $0 % 5 == p }!) 0 -\n" }.joined()
        #expect(Self.taken(&held) == expected)
    }
}
