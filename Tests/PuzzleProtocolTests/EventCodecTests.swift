import PuzzleCore
import Testing
@testable import PuzzleProtocol

@Suite struct EventCodecTests {
    static let p = PlayerID(3)

    /// One event of every body, with every optional and every reason.
    static var everyBody: [EventBody] {
        get throws {
            [
                .joined(p, name: "alice"),
                .joined(p, name: "alice", color: 7),
                .left(p),
                .grabbed(piece: 0, by: p),
                .dragged(piece: 5, by: p, to: Point(x: 17, y: 3), target: nil),
                .dragged(piece: 5, by: p, to: Point(x: 0, y: 40), target: Cell(row: 2, col: 9)),
                .dragged(piece: 5, by: p, to: Point(x: -4, y: -1), target: nil),
                .rotated(piece: 8, by: p, rotation: 3, target: nil),
                .rotated(piece: 8, by: p, rotation: 0, target: Cell(row: 0, col: 0)),
                .placed(piece: 1, by: p, at: .board(Cell(row: 4, col: 1)), rotation: 0),
                .placed(piece: 1, by: p, at: .table(Point(x: 33, y: 2)), rotation: 2),
                .swapped(piece: 2, other: 7, by: p),
                .returned(piece: 2, by: p, reason: .released),
                .returned(piece: 2, by: p, reason: .expired),
                .returned(piece: 2, by: p, reason: .left),
                .returned(piece: 2, by: p, reason: .noTarget),
                .solved(puzzle: 0, elapsedMillis: 123_456),
                .solved(puzzle: 41, elapsedMillis: 0),
                .nextPuzzle(puzzle: 1, spec: try PuzzleSpec(kind: .jigsaw, rows: 5, cols: 6, rotation: true, picture: "rings")),
                .nextPuzzle(puzzle: 2, spec: try PuzzleSpec(kind: .swap, rows: 100, cols: 2, picture: "sunset")),
                .nextPuzzle(puzzle: 9, spec: try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2, rotation: false, picture: "my-pic.ppm")),
                .hint(by: p, untilMillis: 1_000_000 + 2_000),
                .hint(by: PlayerID(0), untilMillis: 1_000_000),
            ]
        }
    }

    @Test func everyBodyRoundTripsWithTimesRelativeToNow() throws {
        let bodies = try Self.everyBody
        #expect(Set(bodies.map(\.name)) == ["joined", "left", "grabbed", "dragged", "rotated", "placed", "swapped",
                                             "released", "expired", "returned", "solved", "next", "hint"])
        for (i, body) in bodies.enumerated() {
            let event = RoomEvent(seq: UInt64(i * 1_000), time: 1_000_000, body: body)
            let line = EventCodec.line(event)
            #expect(line.hasPrefix("EV \(i * 1_000) \(body.name) "), "\(line)")
            #expect(!line.contains("\n"))
            #expect(EventCodec.decode(line[...], now: 1_000_000) == .room(event), "\(line)")
            // The wire carries durations: a receiver whose clock differs by d sees
            // every time shifted by d, the hint's duration unchanged.
            let shifted = EventCodec.decode(line[...], now: 5)
            var expected = RoomEvent(seq: event.seq, time: 5, body: body)
            if case .hint(let who, let until) = body { expected.body = .hint(by: who, untilMillis: until - 1_000_000 + 5) }
            #expect(shifted == .room(expected), "\(line)")
        }
    }

    @Test func encodeIntoAppendsOneTerminatedLineEach() throws {
        var out: [UInt8] = Array("prefix\n".utf8)
        let events = try Self.everyBody.enumerated().map { RoomEvent(seq: UInt64($0.offset + 1), time: 7, body: $0.element) }
        for e in events { EventCodec.encode(e, into: &out) }
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == events.count + 2)
        #expect(lines.first == "prefix" && lines.last == "")
        for (line, event) in zip(lines.dropFirst(), events) {
            #expect(EventCodec.decode(line, now: 7) == .room(event))
        }
    }

    @Test func wireFormIsStable() {
        let p = PlayerID(2)
        func line(_ body: EventBody, seq: UInt64 = 12, time: Int64 = 100) -> String { EventCodec.line(RoomEvent(seq: seq, time: time, body: body)) }
        #expect(line(.joined(p, name: "bob")) == "EV 12 joined 2 bob")
        #expect(line(.joined(p, name: "bob", color: 4)) == "EV 12 joined 2 bob color=4")
        #expect(line(.dragged(piece: 4, by: p, to: Point(x: 8, y: 9), target: Cell(row: 1, col: 2))) == "EV 12 dragged 4 2 8 9 1,2")
        #expect(line(.rotated(piece: 4, by: p, rotation: 1, target: nil)) == "EV 12 rotated 4 2 1 -")
        #expect(line(.placed(piece: 4, by: p, at: .board(Cell(row: 3, col: 0)), rotation: 0)) == "EV 12 placed 4 2 cell 3 0 0")
        #expect(line(.placed(piece: 4, by: p, at: .table(Point(x: 30, y: 1)), rotation: 3)) == "EV 12 placed 4 2 table 30 1 3")
        #expect(line(.returned(piece: 4, by: p, reason: .released)) == "EV 12 released 4 2")
        #expect(line(.returned(piece: 4, by: p, reason: .expired)) == "EV 12 expired 4 2")
        #expect(line(.returned(piece: 4, by: p, reason: .noTarget)) == "EV 12 returned 4 2 no_target")
        #expect(line(.hint(by: p, untilMillis: 2_100)) == "EV 12 hint 2 2000")
        #expect(line(.solved(puzzle: 0, elapsedMillis: 99)) == "EV 12 solved 0 99")
    }

    @Test func sayLinesKeepTheirTextVerbatim() {
        let texts = ["hi", "multiple   spaces  inside ", "", " leading", "ünïcödé ☃ 🧩", "EV 1 grabbed 2 3", "-"]
        for text in texts {
            let bytes = EventCodec.encodeSay(seq: 77, player: PlayerID(4), text: text)
            #expect(bytes.last == UInt8(ascii: "\n"))
            let line = String(decoding: bytes.dropLast(), as: UTF8.self)
            #expect(line == "EV 77 say 4 \(text)")
            #expect(EventCodec.decode(line[...], now: 9) == .say(seq: 77, player: PlayerID(4), text: text), "\(line)")
        }
        // Sloppy spacing before the text does not leak the header into it.
        #expect(EventCodec.decode("EV  77  say   4 x  y", now: 0) == .say(seq: 77, player: PlayerID(4), text: "x  y"))
        #expect(EventCodec.decode("EV 77 say 4", now: 0) == .say(seq: 77, player: PlayerID(4), text: ""))
        #expect(WireEvent.say(seq: 77, player: PlayerID(4), text: "").seq == 77)
        #expect(WireEvent.room(RoomEvent(seq: 5, time: 0, body: .left(PlayerID(1)))).seq == 5)
    }

    @Test func malformedLinesDecodeToNil() {
        let bad = [
            "", "EV", "EV 1", "EV x joined 1 a", "EV -1 left 1", "OK 1 left 1", "ev 1 left 1",
            "EV 1 unknown 1", "EV 1 left", "EV 1 left 1 2", "EV 1 left x",
            "EV 1 joined 1", "EV 1 joined 1 a b", "EV 1 joined 1 a color=", "EV 1 joined 1 a color=-1",
            "EV 1 joined 1 a color=x", "EV 1 joined 1 a color=2 b", "EV 1 joined 1 a colour=2", "EV 1 grabbed 1", "EV 1 grabbed 1 2 3",
            "EV 1 dragged 1 2 3 4", "EV 1 dragged 1 2 3 4 5,", "EV 1 dragged 1 2 3 4 ,5", "EV 1 dragged 1 2 3 4 1,2,3",
            "EV 1 dragged 1 2 3 4 x", "EV 1 rotated 1 2 3", "EV 1 rotated 1 2 3 a,b",
            "EV 1 placed 1 2 board 3 4 0", "EV 1 placed 1 2 cell 3 0", "EV 1 placed 1 2 cell 3 4 0 9",
            "EV 1 swapped 1 2", "EV 1 released 1", "EV 1 released 1 2 3", "EV 1 expired 1 2 left",
            "EV 1 returned 1 2", "EV 1 returned 1 2 lost", "EV 1 solved 1", "EV 1 solved 1 x",
            "EV 1 next 1 jigsaw 5x5 on", "EV 1 next 1 puzzle 5x5 on p", "EV 1 next 1 swap 5y5 on p",
            "EV 1 next 1 swap 1x5 on p", "EV 1 next 1 swap 5x101 on p", "EV 1 next -1 swap 5x5 off p",
            "EV 1 hint 1", "EV 1 hint 1 x", "EV 1 say x hi",
            "EV 1 grabbed 99999999999999999999 1", "EV 99999999999999999999 left 1",
        ]
        for line in bad {
            #expect(EventCodec.decode(line[...], now: 0) == nil, "\(line)")
        }
    }

    @Test func hintDurationsOutOfRangeAreRejected() {
        #expect(EventCodec.decode("EV 1 hint 1 9223372036854775807", now: 1) == nil)
        #expect(EventCodec.decode("EV 1 hint 1 -9223372036854775808", now: -1) == nil)
        // Even where the sum would fit: no hint lasts longer than the longest duration.
        #expect(EventCodec.decode("EV 1 hint 1 9223372036854775807", now: 0) == nil)
        #expect(EventCodec.decode("EV 1 hint 1 -1", now: 0) == nil)
        #expect(EventCodec.decode("EV 1 hint 1 \(RoomLimits.maxDurationMillis)", now: 0) ==
                .room(RoomEvent(seq: 1, time: 0, body: .hint(by: PlayerID(1), untilMillis: RoomLimits.maxDurationMillis))))
    }

    @Test func sequencePuzzleAndSolveTimeOutOfRangeAreRejected() {
        #expect(EventCodec.decode("EV 18446744073709551615 left 1", now: 0) == nil)
        #expect(EventCodec.decode("EV 1 solved 0 9223372036854775807", now: 0) == nil)
        #expect(EventCodec.decode("EV 1 solved 0 -5", now: 0) == nil)
        #expect(EventCodec.decode("EV 1 next 9223372036854775807 jigsaw 3x3 off sunset", now: 0) == nil)
        #expect(EventCodec.decode("EV 1 solved 0 5", now: 0) != nil)
    }

    /// Thousands of random mutations of valid lines: decoding never traps, and
    /// whatever it accepts re-encodes to a line that decodes to the same event.
    @Test func randomDamageNeverCrashesAndAcceptedLinesAreCanonical() throws {
        var lines = try Self.everyBody.enumerated().map {
            EventCodec.line(RoomEvent(seq: UInt64($0.offset), time: 50, body: $0.element))
        }
        lines.append(String(decoding: EventCodec.encodeSay(seq: 3, player: PlayerID(1), text: "hello  there").dropLast(), as: UTF8.self))
        var mutator = LineMutator(rng: SeededGenerator(seed: 2024))
        var accepted = 0, rejected = 0
        for i in 0..<20_000 {
            let line = mutator.mutate(lines[i % lines.count])
            let now = Int64(mutator.next(1_000_000)) - 500_000
            guard let decoded = EventCodec.decode(line[...], now: now) else {
                rejected += 1
                continue
            }
            accepted += 1
            switch decoded {
            case .room(let event):
                #expect(event.time == now)
                let again = EventCodec.line(event)
                #expect(EventCodec.decode(again[...], now: now) == decoded, "\(line) -> \(again)")
            case .say(let seq, let player, let text):
                let again = String(decoding: EventCodec.encodeSay(seq: seq, player: player, text: text).dropLast(), as: UTF8.self)
                #expect(EventCodec.decode(again[...], now: now) == decoded, "\(line) -> \(again)")
            case .watching(let seq, let player, let name):
                let again = String(decoding: EventCodec.encodeWatching(seq: seq, player: player, name: name).dropLast(), as: UTF8.self)
                #expect(EventCodec.decode(again[...], now: now) == decoded, "\(line) -> \(again)")
            case .unwatching(let seq, let player):
                let again = String(decoding: EventCodec.encodeWatching(seq: seq, player: player, name: nil).dropLast(), as: UTF8.self)
                #expect(EventCodec.decode(again[...], now: now) == decoded, "\(line) -> \(again)")
            }
        }
        // Both outcomes must actually happen, or the loop tests nothing.
        #expect(accepted > 1_000 && rejected > 1_000)
    }

    @Test func everyTruncationOfEveryLineIsHandled() throws {
        for (i, body) in try Self.everyBody.enumerated() {
            let line = EventCodec.line(RoomEvent(seq: UInt64(i + 1), time: 0, body: body))
            for n in 0..<line.count {
                let cut = line.prefix(n)
                // A shorter line may still be a different valid event (a truncated
                // number or name), never the original one.
                #expect(EventCodec.decode(cut, now: 0) != .room(RoomEvent(seq: UInt64(i + 1), time: 0, body: body)), "\(cut)")
            }
        }
    }

    // MARK: - Bytes where they lie

    /// Decodes `line`'s bytes in place (no String made of the line).
    private func decodeBytes(_ line: String, now: Int64 = 0) -> WireEvent? {
        Array(line.utf8).withUnsafeBytes { EventCodec.decode($0, now: now) }
    }

    @Test func everyEventRoundTripsAtTheByteLevelThroughAFramer() throws {
        var stream: [UInt8] = []
        var expected: [WireEvent] = []
        for (i, body) in try Self.everyBody.enumerated() {
            let event = RoomEvent(seq: UInt64(i + 1), time: 70, body: body)
            EventCodec.encode(event, into: &stream)
            expected.append(.room(event))
        }
        stream += EventCodec.encodeSay(seq: 9, player: PlayerID(4), text: " two  spaces ")
        expected.append(.say(seq: 9, player: PlayerID(4), text: " two  spaces "))
        stream += EventCodec.encodeWatching(seq: 9, player: PlayerID(5), name: "wendy")
        expected.append(.watching(seq: 9, player: PlayerID(5), name: "wendy"))
        stream += EventCodec.encodeWatching(seq: 9, player: PlayerID(5), name: nil)
        expected.append(.unwatching(seq: 9, player: PlayerID(5)))
        // Read as a client reads them: lines in place, in reads of 7 bytes.
        var framer = LineFramer(maxLineLength: 1024)
        var decoded: [WireEvent?] = []
        for start in stride(from: 0, to: stream.count, by: 7) {
            framer.append(stream[start..<min(stream.count, start + 7)])
            while case .line(let bytes)? = framer.next() {
                decoded.append(bytes.withUnsafeBytes { EventCodec.decode($0, now: 70) })
            }
        }
        #expect(decoded == expected)
    }

    /// PROTOCOL.md: numbers are an optional `-` then digits, no `+`. Swift's
    /// `Int("+5")` is 5, which the decoder built on it accepted; the byte
    /// reader refuses a plus sign wherever a number stands.
    @Test func aPlusSignIsNotANumber() {
        #expect(Int("+5") == 5)
        for line in ["EV +1 left 1", "EV 1 left +1", "EV 1 grabbed +1 2", "EV 1 dragged 1 2 +3 4 -",
                     "EV 1 dragged 1 2 3 4 +1,2", "EV 1 dragged 1 2 3 4 1,+2", "EV 1 solved +0 5", "EV 1 hint 1 +20",
                     "EV 1 next 1 swap +5x5 on p", "EV 1 say +4 hi"] {
            #expect(decodeBytes(line) == nil, "\(line)")
            #expect(EventCodec.decode(line[...]) == nil, "\(line)")
        }
        #expect(decodeBytes("EV 1 left 1") != nil)
    }

    /// The shapes PROTOCOL.md gives, and no looser: a target `r,c` or `-`, a
    /// size `RxC`, rotation `on` or `off`, a sequence number of digits alone.
    @Test func targetsSizesAndRotationsHaveExactlyTheirShape() {
        for line in ["EV 1 dragged 1 2 3 4 -1,2", "EV 1 dragged 1 2 3 4 -5", "EV 1 dragged 1 2 3 4 --",
                     "EV 1 rotated 1 2 0 1,2,", "EV 1 next 1 swap 3xx4 on p", "EV 1 next 1 swap x3x4 on p",
                     "EV 1 next 1 swap 3x4x on p", "EV 1 next 1 swap 5x5 yes p", "EV -0 left 1", "EV 1 next 1 swap 5x5 on"] {
            #expect(decodeBytes(line) == nil, "\(line)")
        }
        #expect(decodeBytes("EV 1 next 1 swap 5x5 off p") != nil)
        #expect(decodeBytes("EV  1   dragged 1 2 3 4   2,3  ") ==
                .room(RoomEvent(seq: 1, time: 0, body: .dragged(piece: 1, by: PlayerID(2), to: Point(x: 3, y: 4), target: Cell(row: 2, col: 3)))))
    }

    @Test func numbersUpToTheLimitsOfAnIntAndNoFurther() {
        #expect(decodeBytes("EV 1 dragged 1 2 -9223372036854775808 9223372036854775807 -") ==
                .room(RoomEvent(seq: 1, time: 0, body: .dragged(piece: 1, by: PlayerID(2), to: Point(x: Int.min, y: Int.max), target: nil))))
        #expect(decodeBytes("EV 1 dragged 1 2 -9223372036854775809 0 -") == nil)
        #expect(decodeBytes("EV 1 dragged 1 2 9223372036854775808 0 -") == nil)
        #expect(decodeBytes("EV \(RoomLimits.maxSeq) left 1") != nil)
        #expect(decodeBytes("EV \(RoomLimits.maxSeq + 1) left 1") == nil)
    }
}
