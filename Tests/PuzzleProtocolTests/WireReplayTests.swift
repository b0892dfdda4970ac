import PuzzleCore
import Testing
@testable import PuzzleProtocol

/// A mirror fed only with event lines must end exactly where the room did:
/// what the server sends is enough to follow the game.
@Suite struct WireReplayTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var kind: PuzzleKind
        var size: Int
        var steps: Int
        var seed: UInt64
        var testDescription: String { "\(kind) \(size)x\(size), \(steps) steps" }
    }

    @Test(arguments: [Case(kind: .jigsaw, size: 6, steps: 4_000, seed: 7), Case(kind: .swap, size: 5, steps: 4_000, seed: 8)])
    func mirrorFedWithDecodedLinesMatchesTheRoom(_ c: Case) throws {
        var game = try RandomGame(kind: c.kind, rows: c.size, cols: c.size, seed: c.seed)
        game.play(c.steps / 2)
        // Random play rarely solves a swap board: solve one on purpose, mid game,
        // so that solved and next go through the wire too.
        if c.kind == .swap { try game.solveSwapAndMoveOn() }
        game.play(c.steps / 2)
        let log = game.log
        // The game has to exercise the codec, not just joins and refusals.
        let names = Set(log.map(\.body.name))
        let expected: Set<String> = c.kind == .jigsaw
            ? ["joined", "left", "grabbed", "dragged", "rotated", "placed", "released", "expired", "returned", "hint"]
            : ["joined", "left", "grabbed", "dragged", "swapped", "released", "expired", "returned", "hint", "solved", "next"]
        #expect(expected.isSubset(of: names), "missing \(expected.subtracting(names))")

        // Checkpoints: compare the full mirror after every sequenced event in a
        // few windows, and the digest everywhere else at the end.
        let windows = [0..<50, (log.count / 2)..<(log.count / 2 + 50), (log.count - 50)..<log.count]
        var mirror = game.start
        var original = game.start
        for (i, event) in log.enumerated() {
            let line = EventCodec.line(event)
            guard case .room(let decoded)? = EventCodec.decode(line[...], now: event.time) else {
                Issue.record("line \(i) did not decode: \(line)")
                return
            }
            #expect(decoded == event, "\(line)")
            try mirror.apply(decoded)
            if windows.contains(where: { $0.contains(i) }) {
                try original.apply(event)
                if event.body.isSequenced {
                    #expect(mirror.digest == original.digest, "digest differs after \(line)")
                    #expect(mirror == original, "state differs after \(line)")
                }
            } else {
                try original.apply(event)
            }
        }
        #expect(mirror.digest == game.room.digest)
        #expect(mirror == game.room)
    }

    /// The same, through the byte stream a client actually reads: all events
    /// encoded back to back with chat lines between them, split by the framer,
    /// with the receiver's clock offset from the room's.
    @Test func byteStreamWithChatAndAnOffsetClock() throws {
        var game = try RandomGame(kind: .jigsaw, rows: 6, cols: 6, seed: 19)
        game.play(3_000)
        var stream: [UInt8] = []
        var times: [Int64] = []
        var says = 0
        for (i, event) in game.log.enumerated() {
            if i % 17 == 0 {
                stream += EventCodec.encodeSay(seq: event.seq, player: PlayerID(1 + i % 4), text: "line  \(i)")
                times.append(event.time)
                says += 1
            }
            EventCodec.encode(event, into: &stream)
            times.append(event.time)
        }
        let offset: Int64 = -123_456
        var framer = LineFramer(maxLineLength: 4_096)
        var mirror = game.start
        var lineIndex = 0, chats = 0
        var at = 0
        // Uneven chunks, as reads deliver them.
        while at < stream.count {
            let n = min(stream.count - at, 1 + (at * 7919) % 613)
            framer.append(stream[at..<(at + n)])
            at += n
            while let frame = framer.next() {
                guard case .line(let bytes) = frame else {
                    Issue.record("unexpected \(frame)")
                    return
                }
                let text = String(decoding: bytes, as: UTF8.self)
                switch EventCodec.decode(text[...], now: times[lineIndex] + offset) {
                case .room(let event)?:
                    try mirror.apply(event)
                case .say(_, _, let said)?:
                    #expect(said.hasPrefix("line  "))
                    chats += 1
                case .watching?, .unwatching?:
                    Issue.record("no watcher in this stream: \(text)")
                case nil:
                    Issue.record("undecodable line \(text)")
                    return
                }
                lineIndex += 1
            }
        }
        #expect(lineIndex == times.count)
        #expect(chats == says)
        // Times are shifted by the offset, which the digest leaves out.
        #expect(mirror.digest == game.room.digest)
        #expect(mirror.locks.mapValues(\.holder) == game.room.locks.mapValues(\.holder))
        #expect(mirror.locks.mapValues { $0.expiresAt - offset } == game.room.locks.mapValues(\.expiresAt))
    }

    /// A solved puzzle followed by the next one, through the wire.
    @Test func solveAndNextPuzzleReplay() throws {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3, rotation: false, picture: "quilt")
        let start = RoomState(settings: RoomSettings(first: spec, seed: 4))
        var room = start
        var log: [RoomEvent] = []
        try room.perform(.join(name: "ann"), by: PlayerID(1), at: 10, into: &log)
        try room.solveJigsaw(by: PlayerID(1), at: 500, into: &log)
        #expect(room.isSolved)
        try room.perform(.next, by: PlayerID(1), at: 900, into: &log)
        #expect(log.contains { if case .solved(0, 490) = $0.body { return true } else { return false } })
        var mirror = start
        for event in log {
            guard case .room(let e)? = EventCodec.decode(EventCodec.line(event)[...], now: event.time) else {
                Issue.record("undecodable \(event)")
                return
            }
            try mirror.apply(e)
        }
        #expect(mirror == room)
        #expect(mirror.puzzleIndex == 1 && mirror.spec == spec.next())
    }
}
