import PuzzleCore
import Testing
@testable import PuzzleProtocol

/// Issue 28 on the wire: parts in both snapshot forms (`S part`), the
/// `merged` event, joins in replays, and the `place=` room setting.
@Suite struct SnapshotPartsTests {
    /// A `rows`x`cols` jigsaw whose pieces `parts` lie joined, each part at
    /// its home shape moved `shift` units right and down (loose over the board).
    static func room(_ rows: Int, _ cols: Int, parts: [[Int]], shift: Int = 2, placement: Placement = .own) throws -> RoomState {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: rows, cols: cols)
        let settings = RoomSettings(first: spec, seed: 11, placement: placement)
        let start = RoomState(settings: settings)
        var pieces = start.pieces
        for members in parts {
            for m in members {
                let o = start.geometry.origin(of: start.homeCell(of: m))
                pieces[m] = PieceState(location: .table(Point(x: o.x + shift, y: o.y + shift)), rotation: 0)
            }
        }
        return try RoomState(settings: settings, puzzleIndex: 0, spec: spec, pieces: pieces, parts: parts, locks: [:],
                             players: [:], seq: 7, elapsed: 0, clockRunning: false, solveMillis: nil, now: 0)
    }

    static func decode(_ lines: [String]) throws -> RoomState {
        try SnapshotCodec.decode(lines.map { $0[...] }, now: 0).state
    }

    @Test func partsReadBackInBothFormsAndTheCompactOneListsOnlyEachPartsLowestPiece() throws {
        let st = try Self.room(6, 6, parts: [[0, 1, 2, 6, 7], [20, 21, 26, 27, 32]])
        let snap = RoomSnapshot(name: "den", state: st, picture: nil)
        let full = SnapshotCodec.lines(snap, now: 0)
        let compact = SnapshotCodec.lines(snap, now: 0, layout: true, compact: true)
        #expect(full.contains("S part 0 0-2,6-7") && full.contains("S part 20 20-21,26-27,32"))
        #expect(try Self.decode(full) == st)
        #expect(try Self.decode(compact) == st)
        let listed = compact.filter { $0.hasPrefix("S piece ") }.map { $0.split(separator: " ")[2] }
        #expect(listed.contains("0") && listed.contains("20") && !listed.contains("1") && !listed.contains("27"))
    }

    @Test func aHundredByHundredWithTwoHalvesJoinedJoinsInUnderAHundredKB() throws {
        let top = Array(0..<5_000), bottom = Array(5_000..<10_000)
        let st = try Self.room(100, 100, parts: [top, bottom])
        var out: [UInt8] = []
        SnapshotCodec.encode(RoomSnapshot(name: "big", state: st, picture: nil), now: 0, layout: true, compact: true, into: &out)
        #expect(out.count <= 100_000, "\(out.count) bytes")
        let back = try Self.decode(String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init))
        #expect(back.parts.members[0]?.count == 5_000 && back.parts.members[5_000]?.count == 5_000)
        #expect(back.digest == st.digest)
    }

    @Test func aHeldPartTravelsWithItsGrip() throws {
        var st = try Self.room(4, 4, parts: [[0, 1]])
        var events: [RoomEvent] = []
        try st.perform(.join(name: "ann"), by: PlayerID(1), at: 0, into: &events)
        try st.perform(.grab(piece: 1), by: PlayerID(1), at: 0, into: &events)
        let back = try Self.decode(SnapshotCodec.lines(RoomSnapshot(name: "r", state: st, picture: nil), now: 0, compact: true))
        #expect(back.grip(of: 0) == 1 && back.holder(of: 0) == PlayerID(1))
        #expect(throws: PuzzleError.heldBy(piece: 0, holder: PlayerID(1))) {
            var copy = back
            try copy.perform(.join(name: "bo"), by: PlayerID(2), at: 0)
            try copy.perform(.grab(piece: 0), by: PlayerID(2), at: 0)
        }
    }

    @Test(arguments: [
        ("S part 0 0,2", "not joined through neighbours"),
        ("S part 1 0-1", "named by a piece other than its lowest"),
        ("S part 0 1-0", "a backwards range"),
        ("S part 0 0-1,1", "a piece twice"),
        ("S part 0 0-1000001", "beyond any piece"),
        ("S part 0 0", "a part of one"),
    ]) func badPartsAreRefused(_ line: String, _ why: String) throws {
        let st = try Self.room(4, 4, parts: [[0, 1, 2]])
        var lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: st, picture: nil), now: 0).filter { !$0.hasPrefix("S part") }
        lines.append(line)
        #expect(throws: SnapshotError.self, "\(why)") { try Self.decode(lines) }
    }

    @Test func aPartWhosePiecesAreNotInPlaceIsRefused() throws {
        let st = try Self.room(4, 4, parts: [[0, 1]])
        var lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: st, picture: nil), now: 0)
        let i = try #require(lines.firstIndex { $0.hasPrefix("S piece 1 ") })
        let w = lines[i].split(separator: " ")
        lines[i] = "S piece 1 table \(Int(w[4])! + 1) \(w[5]) 0"
        #expect(throws: SnapshotError.badPart(0)) { try Self.decode(lines) }
    }

    @Test func twoPartsSharingAPieceAreRefused() throws {
        let st = try Self.room(4, 4, parts: [[0, 1]])
        var lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: st, picture: nil), now: 0)
        lines.append("S part 1 1-2")
        #expect(throws: SnapshotError.self) { try Self.decode(lines) }
    }

    @Test func theMergedEventReadsBack() throws {
        let event = RoomEvent(seq: 12, time: 0, body: .merged(piece: 5, other: 6, by: PlayerID(3)))
        let line = EventCodec.line(event)
        #expect(line == "EV 12 merged 5 6 3")
        #expect(EventCodec.decode(line[...]) == .room(event))
        #expect(EventCodec.decode("EV 12 merged 5 6"[...]) == nil)
    }

    @Test func placeTravelsOnTheRoomLineAndAnOlderLineMeansShape() throws {
        for placement in Placement.allCases {
            let st = try Self.room(3, 3, parts: [], placement: placement)
            var lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: st, picture: nil), now: 0)
            #expect(lines[0].hasSuffix(" place=\(placement.rawValue)"))
            #expect(try Self.decode(lines).settings.placement == placement)
            lines[0] = lines[0].replacingOccurrences(of: " place=\(placement.rawValue)", with: "")
            #expect(try Self.decode(lines).settings.placement == .shape)
            lines[0] += " place=sideways"
            #expect(throws: SnapshotError.malformed("room line has a bad place=")) { try Self.decode(lines) }
        }
        let spec = try RoomSpec.parse("den jigsaw 4x4 place=shape".split(separator: " "))
        #expect(spec.placement == .shape && spec.description == "den jigsaw 4x4 place=shape")
        #expect(throws: ProtocolError.self) { try RoomSpec.parse("den jigsaw 4x4 place=any".split(separator: " ")) }
    }

    @Test func aReplayKeepsItsJoinsApartFromItsMoves() throws {
        var st = try Self.room(4, 4, parts: [])
        var recorder = ReplayRecorder(startOf: st)
        var events: [RoomEvent] = []
        try st.perform(.join(name: "ann"), by: PlayerID(1), at: 0, into: &events)
        for (piece, x) in [(0, 0), (1, 4)] {
            try st.perform(.grab(piece: piece), by: PlayerID(1), at: 1, into: &events)
            try st.perform(.drag(piece: piece, to: Point(x: x, y: 0)), by: PlayerID(1), at: 1, into: &events)
            try st.perform(.drop(piece: piece), by: PlayerID(1), at: 1, into: &events)
        }
        var mirror = try Self.room(4, 4, parts: [])
        for e in events {
            recorder.observe(e, before: mirror)
            try mirror.apply(e)
        }
        let replay = recorder.replay
        #expect(replay.moveCount == 2 && replay.joinCount == 1 && replay.moves.count == 3)
        var out: [UInt8] = []
        ReplayCodec.encode(replay, into: &out)
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.contains(" moves=2 players=1 joins=1\n") && text.contains(" merged 1 0\n"))
        var reader = ReplayCodec.Reader()
        for line in text.split(separator: "\n") { try reader.take(line.dropFirst(2)) }
        let back = try reader.finish()
        #expect(back.moves == replay.moves)
        // Played back, the replay forms the part.
        #expect(back.state(after: 3).parts.members[0] == [0, 1])
    }
}
