import PuzzleCore
import Testing
@testable import PuzzleProtocol

/// The compact form (version 2): ranges of pieces home or at their start, a
/// line for each other piece, the picture by its hash; and what a hostile
/// server could send instead.
@Suite struct SnapshotCompactTests {
    private func midGame(seed: UInt64) throws -> RoomState {
        var game = try RandomGame(kind: .jigsaw, rows: 12, cols: 12, players: 4, maxHeld: 2, seed: seed)
        game.play(2_000)
        return game.room
    }

    @Test(arguments: [3, 5, 8] as [UInt64]) func aMidGameRoomReadsBackTheSameAsTheFullForm(seed: UInt64) throws {
        let st = try midGame(seed: seed)
        let picture = try #require(Picture.builtin("rings", width: 96, height: 96))
        let snap = RoomSnapshot(name: "den", state: st, picture: picture)
        let lines = SnapshotCodec.lines(snap, now: 0, extended: true, layout: true, compact: true)
        let back = try SnapshotCodec.decode(lines.map { $0[...] }, now: 0)
        let full = try SnapshotCodec.decode(SnapshotCodec.lines(snap, now: 0).map { $0[...] }, now: 0)
        #expect(back.state == full.state)
        #expect(back.state.pieces == st.pieces)
        #expect(back.picture == nil && back.pictureHash == picture.contentHashHex)
        let listed = lines.filter { $0.hasPrefix("S piece ") }.count
        let others = st.pieces.indices.filter { !st.isCorrect($0) && st.pieces[$0] != st.startPieces[$0] }.count
        #expect(listed == others)
        // Lines stay short however the pieces lie.
        #expect(lines.allSatisfy { !$0.hasPrefix("S pieces ") || $0.utf8.count <= SnapshotCodec.rangeLineBytes + 40 })
    }

    @Test func scatteredPiecesGoAsABitmapAndReadBack() throws {
        let st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 10, cols: 10), seed: 4))
        // Every other piece home: fifty runs, so a bitmap is shorter.
        var full = SnapshotCodec.lines(RoomSnapshot(name: "b", state: st, picture: nil), now: 0)
        for (k, line) in full.enumerated() where line.hasPrefix("S piece ") {
            let id = Int(line.split(separator: " ")[2])!
            if id % 2 == 0 { full[k] = "S piece \(id) cell \(id / 10) \(id % 10) 0" }
        }
        let mid = try SnapshotCodec.decode(full.map { $0[...] }, now: 0).state
        let lines = SnapshotCodec.lines(RoomSnapshot(name: "b", state: mid, picture: nil), now: 0, compact: true)
        let home = try #require(lines.first { $0.hasPrefix("S pieces home ") })
        #expect(home.hasPrefix("S pieces home bits "), "\(home)")
        #expect(lines.contains { $0.hasPrefix("S pieces start bits ") })
        #expect(try SnapshotCodec.decode(lines.map { $0[...] }, now: 0).state == mid)
        // All nine of a 3x3 home, as bits: 0xFF 0x80.
        let three = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3), seed: 9))
        var solved = SnapshotCodec.lines(RoomSnapshot(name: "r", state: three, picture: nil), now: 0, compact: true)
        solved.removeAll { $0.hasPrefix("S pieces ") || $0.hasPrefix("S piece ") }
        let back = try SnapshotCodec.decode((solved + ["S pieces home bits /4A="]).map { $0[...] }, now: 0).state
        #expect((0..<9).allSatisfy { back.isCorrect($0) })
    }

    @Test func aSwapBoardsTilesAreRangesToo() throws {
        let st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .swap, rows: 5, cols: 5), seed: 9))
        let lines = SnapshotCodec.lines(RoomSnapshot(name: "s", state: st, picture: nil), now: 0, compact: true)
        #expect(!lines.contains { $0.hasPrefix("S piece ") })
        #expect(try SnapshotCodec.decode(lines.map { $0[...] }, now: 0).state == st)
    }

    @Test(arguments: [
        "S pieces home 0-4,2",          // twice
        "S pieces home 0-1000001",      // past any piece number
        "S pieces home 0-9",            // past this puzzle's pieces
        "S pieces start 3-1",           // backwards
        "S pieces start -1",            // negative
        "S pieces sideways 0-8",        // unknown kind
        "S pieces home 0-3",            // pieces 4...8 missing
        "S pieces home",                // no ranges
        "S pieces home bits /4E=",      // a bit past the ninth piece
        "S pieces home bits /w==",      // eight pieces' bits for nine
        "S pieces home bits /4A",       // not whole base64 quads
        "S pieces home bits /4A= 0",    // a word too many
        "S pieces home bits /wA=",      // piece 8 missing
    ]) func badRangesAreRefused(_ bad: String) throws {
        let st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3), seed: 9))
        var lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: st, picture: nil), now: 0, compact: true)
        lines.removeAll { $0.hasPrefix("S pieces ") || $0.hasPrefix("S piece ") }
        lines.append(bad)
        #expect(throws: SnapshotError.self) { try SnapshotCodec.decode(lines.map { $0[...] }, now: 0) }
    }

    @Test func aPieceInARangeAndOnALineIsRefused() throws {
        let st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3), seed: 9))
        var lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: st, picture: nil), now: 0, compact: true)
        lines.append("S piece 4 table 0 0 0")
        #expect(throws: SnapshotError.self) { try SnapshotCodec.decode(lines.map { $0[...] }, now: 0) }
    }

    @Test func aBadPictureHashIsRefused() throws {
        let st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3), seed: 9))
        for bad in ["S picture 32 32 XYZ", "S picture 32 32 0123456789ABCDEF", "S picture 0 32 0123456789abcdef", "S picture 32 32 0123456789abcdef extra"] {
            var lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: st, picture: nil), now: 0, compact: true)
            lines.append(bad)
            #expect(throws: SnapshotError.self, "\(bad)") { try SnapshotCodec.decode(lines.map { $0[...] }, now: 0) }
        }
    }
}
