import Foundation
import PuzzleCore
import Testing
@testable import PuzzleProtocol

@Suite struct StateRecordCodecTests {
    /// One record of every kind, with and without every optional.
    static let everyRecord: [StateRecord] = [
        .help(usage: "CREATE <room> <jigsaw|swap> <rows>x<cols>|<pieces> [picture=NAME]"), .help(usage: "WHO"),
        .room(RoomListing(name: "lobby", kind: .jigsaw, rows: 3, cols: 3, rotation: false, players: 0, password: false,
                          puzzle: 0, correct: 0, total: 9, watchers: 0)),
        .room(RoomListing(name: "den", kind: .swap, rows: 100, cols: 7, rotation: true, players: 3, password: true,
                          puzzle: 12, correct: 700, total: 700, watchers: 2, seats: 4, solved: true)),
        .whoPlayer(id: PlayerID(1), name: "alice", moves: 0, holding: []),
        .whoPlayer(id: PlayerID(22), name: "bob", moves: 13, holding: [5]),
        .whoPlayer(id: PlayerID(3), name: "carol", moves: 1, holding: [9, 0, 4]),
        .whoWatcher(id: PlayerID(4), name: "dave"),
        .watcher(id: PlayerID(4), name: "dave"), .watcher(id: PlayerID(0), name: "-"),
        .clock(elapsedMillis: 0, running: false), .clock(elapsedMillis: 123_456_789, running: true),
    ]

    @Test func everyRecordEncodesAndDecodesBack() {
        for record in Self.everyRecord {
            var bytes: [UInt8] = []
            StateRecordCodec.encode(record, into: &bytes)
            #expect(bytes.last == UInt8(ascii: "\n") && bytes.filter { $0 == UInt8(ascii: "\n") }.count == 1)
            let line = StateRecordCodec.line(record)
            #expect(String(decoding: bytes.dropLast(), as: UTF8.self) == line)
            #expect(StateRecordCodec.decode(Substring(line)) == record, "\(line)")
        }
    }

    /// The bytes the server wrote before these records were typed.
    @Test func linesAreTheProtocolsOwn() {
        #expect(StateRecordCodec.line(Self.everyRecord[3])
                == "S room den kind=swap size=100x7 rotation=on players=3 password=yes puzzle=12 progress=700/700 watchers=2 seats=4 solved")
        #expect(StateRecordCodec.line(.whoPlayer(id: PlayerID(3), name: "carol", moves: 12, holding: [5, 9]))
                == "S who 3 carol moves=12 holding=5,9")
        #expect(StateRecordCodec.line(.whoPlayer(id: PlayerID(1), name: "a", moves: 1, holding: [])) == "S who 1 a moves=1 holding=-")
        #expect(StateRecordCodec.line(.whoWatcher(id: PlayerID(4), name: "dave")) == "S who 4 dave watching")
        #expect(StateRecordCodec.line(.watcher(id: PlayerID(4), name: "dave")) == "S watcher 4 dave")
        #expect(StateRecordCodec.line(.clock(elapsedMillis: 8021, running: false)) == "S clock 8021 paused")
        #expect(StateRecordCodec.line(.help(usage: "PING [token]")) == "S help PING [token]")
    }

    /// Other `S` lines (a snapshot's header among them, which is an `S room`
    /// too), and broken ones, are not these records.
    @Test func otherAndBrokenLinesDoNotDecode() {
        let lines = [
            "S room lobby kind=jigsaw size=3x3 rotation=off picture=sunset puzzle=0 seq=1 seed=7 lease=30000 hint=2000 hold=1 solved=- first=jigsaw,3x3,off,sunset",
            "S player 1 0 0 - alice", "S piece 0 cell 0 0 0", "S history 0 jigsaw 2x2 off sunset elapsed=8021 moves=5 players=2",
            "S help", "S help ", "S room odd", "S room den kind=cube size=2x2 rotation=on players=1 password=no puzzle=0 progress=0/4",
            "S room den kind=swap size=2 rotation=on players=1 password=no puzzle=0 progress=0/4",
            "S room den kind=swap size=2x2 rotation=maybe players=1 password=no puzzle=0 progress=0/4",
            "S who x alice moves=1 holding=-", "S who 1 alice", "S who 1 alice moves=1 holding=1,,2", "S who 1 alice moves=1 holding=-3",
            "S watcher 4", "S watcher 4 dave extra", "S clock 12 stopped", "S clock -", "S clock 12 running now",
            "OK who 2", "EV 3 said 1 hi", "S", "S ", "",
        ]
        for line in lines { #expect(StateRecordCodec.decode(Substring(line)) == nil, "\(line)") }
    }

    /// Fields are found by key: one added later is passed over, and a room
    /// line without `watchers=` reads as watched by none.
    @Test func fieldsAreReadByKey() {
        let line = "S room den kind=jigsaw size=5x5 rotation=on players=3 password=yes puzzle=2 progress=25/25 colour=red solved"
        #expect(StateRecordCodec.decode(Substring(line)) == .room(RoomListing(
            name: "den", kind: .jigsaw, rows: 5, cols: 5, rotation: true, players: 3, password: true,
            puzzle: 2, correct: 25, total: 25, watchers: 0, solved: true)))
        #expect(StateRecordCodec.decode("S who 2 bob holding=1 moves=4 colour=3")
                == .whoPlayer(id: PlayerID(2), name: "bob", moves: 4, holding: [1]))
    }

    /// Every line of these kinds the example transcripts expect decodes, and
    /// encodes back to the same line; their snapshots' `S room` headers do not.
    @Test func transcriptRecordsDecodeAndEncodeBack() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Protocol/examples").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".txt") }
        var checked: [String: Int] = [:]
        for file in files {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            for raw in text.split(separator: "\n") {
                guard raw.count > 3, raw.dropFirst().hasPrefix("< ") || raw.dropFirst().hasPrefix("~ ") else { continue }
                let line = raw.dropFirst(3)
                let kind = line.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                guard line.hasPrefix("S "), ["help", "room", "who", "watcher", "clock"].contains(kind) else { continue }
                if kind == "room", line.contains(" seq=") {
                    #expect(StateRecordCodec.decode(line) == nil, "\(file): a snapshot's header is not a listing")
                    continue
                }
                guard let record = StateRecordCodec.decode(line) else {
                    Issue.record("\(file): '\(line)' does not decode")
                    continue
                }
                #expect(StateRecordCodec.line(record) == String(line), "\(file)")
                checked[kind, default: 0] += 1
            }
        }
        #expect(checked["help", default: 0] > 20 && checked["room", default: 0] >= 1 && checked["who", default: 0] >= 4)
    }
}
