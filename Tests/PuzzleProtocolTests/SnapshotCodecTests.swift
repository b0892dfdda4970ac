import PuzzleCore
import Testing
@testable import PuzzleProtocol

@Suite struct SnapshotCodecTests {
    /// A jigsaw room in mid game: players have moved pieces onto the board and
    /// onto the table, used hints, and hold pieces (some two at once).
    private func midGame(seed: UInt64 = 5) throws -> RandomGame {
        var game = try RandomGame(kind: .jigsaw, rows: 6, cols: 6, players: 4, maxHeld: 2, seed: seed)
        game.play(1_500)
        // Make sure there is something to carry: two holds by one player, a
        // live hint (a newcomer has its hint to use), and a player away.
        let p = PlayerID(99)
        try game.room.perform(.join(name: "new"), by: p, at: game.time, into: &game.log)
        try game.room.perform(.leave, by: game.players[3], at: game.time, into: &game.log)
        for piece in 0..<game.room.pieceCount where game.room.players[p]!.holding.count < 2 && game.room.locks[piece] == nil {
            try game.room.perform(.grab(piece: piece), by: p, at: game.time, into: &game.log)
        }
        try game.room.perform(.hint, by: p, at: game.time, into: &game.log)
        return game
    }

    private func picture() throws -> Picture {
        try #require(Picture.builtin("rings", width: 12, height: 7))
    }

    private func roundTrip(_ snap: RoomSnapshot, now: Int64, decodeAt: Int64? = nil) throws -> RoomSnapshot {
        let lines = SnapshotCodec.lines(snap, now: now)
        return try SnapshotCodec.decode(lines.map { $0[...] }, now: decodeAt ?? now)
    }

    /// Players compare equal except for the order of `holding`: the core rebuilds
    /// it in piece order, not grab order.
    private func expectSamePlayers(_ a: [PlayerID: PlayerInfo], _ b: [PlayerID: PlayerInfo], now: Int64,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Set(a.keys) == Set(b.keys), sourceLocation: sourceLocation)
        for (id, x) in a {
            guard let y = b[id] else { continue }
            #expect(x.name == y.name && x.moves == y.moves && x.hintUsed == y.hintUsed, sourceLocation: sourceLocation)
            #expect(x.holding.sorted() == y.holding.sorted(), sourceLocation: sourceLocation)
            // A hint that has run out only says so (its end is clamped to now).
            #expect(x.hintUntil.map { max($0, now) } == y.hintUntil, sourceLocation: sourceLocation)
        }
    }

    @Test func midGameRoomRoundTrips() throws {
        let game = try midGame()
        let room = game.room
        let now = game.time
        #expect(room.locks.count >= 2)
        #expect(room.players.values.contains { $0.holding.count == 2 })
        #expect(room.players.values.contains { $0.hintUsed })
        #expect(room.players.values.contains { ($0.hintUntil ?? .min) > now })
        #expect(room.pieces.contains { $0.location.cell != nil } && room.pieces.contains { $0.location.cell == nil })
        #expect(room.pieces.contains { $0.rotation != 0 })

        let snap = RoomSnapshot(name: "den", state: room, picture: try picture())
        let back = try roundTrip(snap, now: now)
        #expect(back.name == "den")
        #expect(back.picture == snap.picture)
        #expect(back.state.digest == room.digest)
        #expect(back.state.pieces == room.pieces)
        #expect(back.state.locks == room.locks)
        #expect(back.state.settings == room.settings)
        #expect(back.state.spec == room.spec && back.state.puzzleIndex == room.puzzleIndex && back.state.seq == room.seq)
        #expect(back.state.elapsed(at: now) == room.elapsed(at: now) && back.state.solveMillis == room.solveMillis)
        #expect(back.state.clockIsRunning == room.clockIsRunning)
        #expect(back.state.correctCount == room.correctCount)
        expectSamePlayers(room.players, back.state.players, now: now)
        for piece in 0..<room.pieceCount {
            #expect(back.state.occupant(of: room.homeCell(of: piece)) == room.occupant(of: room.homeCell(of: piece)))
        }
    }

    @Test func timesTravelAsDurationsFromNow() throws {
        let game = try midGame(seed: 9)
        let room = game.room
        let snap = RoomSnapshot(name: "den", state: room, picture: nil)
        let shift: Int64 = 1_000_000
        let back = try roundTrip(snap, now: game.time, decodeAt: game.time + shift)
        #expect(back.state.digest == room.digest)
        #expect(back.state.elapsed(at: game.time + shift) == room.elapsed(at: game.time))
        #expect(back.state.locks.mapValues(\.expiresAt) == room.locks.mapValues { $0.expiresAt + shift })
        #expect(back.picture == nil)
    }

    /// The snapshot a client gets on JOIN, then the events that follow it, keep
    /// the client's mirror in step with the room.
    @Test func snapshotThenLaterEventsStaysInStep() throws {
        var game = try midGame(seed: 21)
        let snap = RoomSnapshot(name: "den", state: game.room, picture: nil)
        var mirror = try roundTrip(snap, now: game.time).state
        let already = game.log.count
        game.play(2_000)
        for event in game.log[already...] {
            guard case .room(let e)? = EventCodec.decode(EventCodec.line(event)[...], now: event.time) else {
                Issue.record("undecodable \(event)")
                return
            }
            try mirror.apply(e)
        }
        #expect(game.log.count > already + 500)
        #expect(mirror.digest == game.room.digest)
        #expect(mirror.pieces == game.room.pieces && mirror.locks == game.room.locks)
        // Decoding again after the fact gives the same state too.
        let later = try roundTrip(RoomSnapshot(name: "den", state: game.room, picture: nil), now: game.time)
        #expect(later.state.digest == game.room.digest)
    }

    @Test func solvedRoomAndLaterPuzzleRoundTrip() throws {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 3, rotation: false, picture: "waves")
        var room = RoomState(settings: RoomSettings(first: spec, leaseMillis: 700, hintMillis: 300, maxHeld: 3, seed: 77))
        var log: [RoomEvent] = []
        try room.perform(.join(name: "ann"), by: PlayerID(4), at: 1_000, into: &log)
        try room.solveJigsaw(by: PlayerID(4), at: 1_500, into: &log)
        #expect(room.isSolved)
        let solved = try roundTrip(RoomSnapshot(name: "s", state: room, picture: nil), now: 2_000)
        #expect(solved.state.isSolved && solved.state.solveMillis == 500 && solved.state.elapsed(at: 9_000) == 500)
        #expect(solved.state.digest == room.digest)
        #expect(solved.state == room)
    }

    @Test func laterPuzzleKeepsTheFirstSpec() throws {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2, rotation: false, picture: "waves")
        var room = RoomState(settings: RoomSettings(first: spec, seed: 3))
        var log: [RoomEvent] = []
        try room.perform(.join(name: "ann"), by: PlayerID(1), at: 0, into: &log)
        try room.solveJigsaw(by: PlayerID(1), at: 10, into: &log)
        try room.perform(.next, by: PlayerID(1), at: 20, into: &log)
        try room.perform(.grab(piece: 4), by: PlayerID(1), at: 30, into: &log)
        let back = try roundTrip(RoomSnapshot(name: "n", state: room, picture: nil), now: 40)
        #expect(back.state.puzzleIndex == 1 && back.state.spec.rows == 3 && back.state.settings.first == spec)
        #expect(back.state == room)
        // The rebuilt puzzle has the same cut, so drops land where they would on the server.
        #expect(back.state.cut == room.cut)
    }

    @Test func swapRoomRoundTrips() throws {
        var game = try RandomGame(kind: .swap, rows: 5, cols: 5, seed: 12)
        game.play(800)
        let back = try roundTrip(RoomSnapshot(name: "sw", state: game.room, picture: nil), now: game.time)
        #expect(back.state.digest == game.room.digest)
        #expect(back.state.pieces == game.room.pieces && back.state.locks == game.room.locks)
        expectSamePlayers(game.room.players, back.state.players, now: game.time)
    }

    // MARK: - Malformed snapshots

    private func validLines() throws -> (lines: [String], room: RoomState) {
        let game = try midGame(seed: 33)
        return (SnapshotCodec.lines(RoomSnapshot(name: "den", state: game.room, picture: try picture()), now: game.time), game.room)
    }

    private func decodeError(_ lines: [String]) -> SnapshotError? {
        do {
            _ = try SnapshotCodec.decode(lines.map { $0[...] }, now: 0)
            return nil
        } catch {
            return error
        }
    }

    @Test func linesWorkWithOrWithoutPrefixAndSkipUnknownKinds() throws {
        let (lines, room) = try validLines()
        let bare = lines.map { String($0.dropFirst(2)) } + ["S future stuff 1 2 3", "", "S"]
        let back = try SnapshotCodec.decode(bare.map { $0[...] }, now: 0)
        #expect(back.state.digest == room.digest)
    }

    @Test func missingRoomFieldsAreMalformed() throws {
        let (lines, _) = try validLines()
        #expect(lines[0].hasPrefix("S room den "))
        for key in ["kind", "size", "rotation", "picture", "puzzle", "seq", "seed", "lease", "hint", "hold", "elapsed", "solved", "first"] {
            let words = lines[0].split(separator: " ").filter { !$0.hasPrefix("\(key)=") }
            #expect(words.count == lines[0].split(separator: " ").count - 1, "\(key)")
            let e = decodeError([words.joined(separator: " ")] + lines.dropFirst())
            if case .malformed? = e {} else { Issue.record("without \(key)= got \(String(describing: e))") }
        }
        #expect(decodeError(Array(lines.dropFirst())) != nil)
        #expect(decodeError(["S room"] + lines.dropFirst()) != nil)
    }

    @Test func badRoomFieldValuesAreMalformed() throws {
        let (lines, _) = try validLines()
        let replacements = [
            "kind=": "kind=square", "size=": "size=6", "seq=": "seq=-1", "seed=": "seed=x", "lease=": "lease=",
            "elapsed=": "elapsed=-9223372036854775808", "solved=": "solved=soon", "puzzle=": "puzzle=-1",
            "first=": "first=jigsaw,6x6,on",
        ]
        for (key, value) in replacements {
            let room = lines[0].split(separator: " ").map { $0.hasPrefix(key) ? value : String($0) }.joined(separator: " ")
            #expect(room != lines[0])
            #expect(decodeError([room] + lines.dropFirst()) != nil, "\(value)")
        }
        // Times that do not fit the clock are refused, not trapped on.
        let far = lines[0].split(separator: " ").map { $0.hasPrefix("elapsed=") ? "elapsed=-9223372036854775807" : String($0) }
        do {
            _ = try SnapshotCodec.decode(([far.joined(separator: " ")] + lines.dropFirst()).map { $0[...] }, now: 10)
            Issue.record("an elapsed time beyond the clock was accepted")
        } catch {}
    }

    @Test func duplicatedPieceInOneCellIsRefused() throws {
        let (lines, room) = try validLines()
        let onBoard = (0..<room.pieceCount).filter { room.pieces[$0].location.cell != nil }
        #expect(onBoard.count >= 2)
        let c = room.pieces[onBoard[0]].location.cell!
        var bad = lines
        let i = try #require(bad.firstIndex { $0.hasPrefix("S piece \(onBoard[1]) ") })
        bad[i] = "S piece \(onBoard[1]) cell \(c.row) \(c.col) 0"
        #expect(decodeError(bad) == .badPiece(onBoard[1]))
    }

    @Test func pieceCountMismatchIsRefused() throws {
        let (lines, room) = try validLines()
        let last = try #require(lines.lastIndex { $0.hasPrefix("S piece ") })
        var fewer = lines
        fewer.remove(at: last)
        #expect(decodeError(fewer) == .pieceCount(expected: room.pieceCount, got: room.pieceCount - 1))
        var more = lines
        more.insert("S piece \(room.pieceCount) table 0 0 0", at: last + 1)
        #expect(decodeError(more) == .pieceCount(expected: room.pieceCount, got: room.pieceCount + 1))
        // Pieces out of order (or repeated) are malformed.
        var repeated = lines
        repeated.insert(lines[last], at: last)
        if case .malformed? = decodeError(repeated) {} else { Issue.record("a repeated piece line was accepted") }
    }

    @Test func badPiecesAndHoldsAreRefused() throws {
        let (lines, room) = try validLines()
        let (held, lock) = try #require(room.locks.min { $0.key < $1.key })
        let h = try #require(lines.firstIndex { $0.hasPrefix("S hold \(held) ") })
        func with(_ line: String, at i: Int) -> [String] { var l = lines; l[i] = line; return l }
        let t = lock.target.map { "\($0.row),\($0.col)" } ?? "-"
        let p = "\(lock.point.x) \(lock.point.y)"
        // A hold by a player who is not in the room.
        #expect(decodeError(with("S hold \(held) 999 \(p) \(lock.rotation) \(t) 100", at: h)) == .badHold(held))
        // Holds of pieces that do not exist.
        #expect(decodeError(with("S hold \(room.pieceCount) \(lock.holder.rawValue) \(p) 0 - 100", at: h)) == .badHold(room.pieceCount))
        #expect(decodeError(with("S hold -1 \(lock.holder.rawValue) \(p) 0 - 100", at: h)) == .badHold(-1))
        // Holds that show an impossible piece.
        #expect(decodeError(with("S hold \(held) \(lock.holder.rawValue) \(p) 4 \(t) 100", at: h)) == .badHold(held))
        #expect(decodeError(with("S hold \(held) \(lock.holder.rawValue) \(p) 0 99,0 100", at: h)) == .badHold(held))
        #expect(decodeError(with("S hold \(held) \(lock.holder.rawValue) -9 0 0 - 100", at: h)) == .badHold(held))
        if case .malformed? = decodeError(with("S hold \(held) \(lock.holder.rawValue) \(p) 0 1;2 100", at: h)) {} else {
            Issue.record("a bad hold target was accepted")
        }
        if case .malformed? = decodeError(with("S hold \(held) \(lock.holder.rawValue) \(p) 0 -", at: h)) {} else {
            Issue.record("a short hold line was accepted")
        }
        let piece = try #require(lines.firstIndex { $0.hasPrefix("S piece 0 ") })
        #expect(decodeError(with("S piece 0 table -40 0 0", at: piece)) == .badPiece(0))
        #expect(decodeError(with("S piece 0 table 0 0 4", at: piece)) == .badPiece(0))
        #expect(decodeError(with("S piece 0 cell 6 0 0", at: piece)) == .badPiece(0))
        if case .malformed? = decodeError(with("S piece 0 shelf 0 0 0", at: piece)) {} else { Issue.record("a bad place was accepted") }
        if case .malformed? = decodeError(with("S piece 0 cell 1 1", at: piece)) {} else { Issue.record("a short piece line was accepted") }
    }

    @Test func badPicturesAreRefused() throws {
        let (lines, _) = try validLines()
        let pic = try #require(lines.firstIndex { $0.hasPrefix("S picture ") })
        var wrongSize = lines
        wrongSize[pic] = "S picture 12 8"
        #expect(decodeError(wrongSize) != nil)
        var huge = lines
        huge[pic] = "S picture 100000 100000"
        #expect(decodeError(huge) != nil)
        var badRow = lines
        badRow[pic + 1] = "S px zz"
        #expect(decodeError(badRow) != nil)
    }

    /// A hostile server (or a damaged file) cannot hand a client values that
    /// would trap later in lease, hint or clock arithmetic: each is refused.
    @Test func roomValuesAtTheirTypesExtremesAreRefused() throws {
        let (lines, _) = try validLines()
        let extremes = [("seq", "18446744073709551615"), ("lease", "9223372036854775807"), ("lease", "0"),
                        ("hint", "9223372036854775807"), ("hint", "-1"), ("hold", "9223372036854775807"),
                        ("elapsed", "9223372036854775807"), ("elapsed", "-9223372036854775807"), ("elapsed", "-1"),
                        ("puzzle", "9223372036854775807"), ("solved", "9223372036854775807"), ("solved", "-3")]
        for (key, value) in extremes {
            var changed = lines
            changed[0] = lines[0].split(separator: " ").map { $0.hasPrefix("\(key)=") ? "\(key)=\(value)" : String($0) }.joined(separator: " ")
            #expect(changed[0].contains("\(key)=\(value)"))
            #expect(decodeError(changed) != nil, "\(key)=\(value) accepted")
        }
        for (index, line) in lines.enumerated() where line.hasPrefix("S player ") || line.hasPrefix("S hold ") {
            var changed = lines
            var words = line.split(separator: " ").map(String.init)
            words[line.hasPrefix("S player ") ? 5 : 8] = "9223372036854775807"
            changed[index] = words.joined(separator: " ")
            #expect(decodeError(changed) != nil, "\(changed[index]) accepted")
        }
    }

    /// Random damage to every line of a snapshot never traps: it decodes or throws.
    @Test func randomDamageNeverCrashes() throws {
        let (lines, _) = try validLines()
        // The picture rows are long and dull to damage: the tests above cover them.
        let base = lines.filter { !$0.hasPrefix("S px ") && !$0.hasPrefix("S picture ") }
        var mutator = LineMutator(rng: SeededGenerator(seed: 77))
        var decoded = 0, refused = 0
        for _ in 0..<3_000 {
            var damaged = base
            for _ in 0..<(1 + mutator.next(3)) {
                let i = mutator.next(damaged.count)
                damaged[i] = mutator.mutate(damaged[i])
            }
            do {
                let snap = try SnapshotCodec.decode(damaged.map { $0[...] }, now: Int64(mutator.next(1_000)))
                // Whatever is accepted is a usable room.
                _ = snap.state.digest
                _ = SnapshotCodec.lines(snap, now: 0)
                decoded += 1
            } catch {
                refused += 1
            }
        }
        // Both outcomes must be exercised; range checks on every number (hint
        // and lease remainders, durations) refuse more damage than they used to.
        #expect(decoded > 50 && refused > 100)
    }
}
