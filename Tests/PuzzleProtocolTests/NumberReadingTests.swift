import Testing
import PuzzleCore
@testable import PuzzleProtocol

/// Every decoder reads numbers as PROTOCOL.md writes them, through
/// `LineScanner`: an optional `-` and digits, no `+` (which `Int(_:)` takes),
/// no leading junk, nothing past 64 bits.
@Suite struct NumberReadingTests {
    @Test func aWordReadsAsScannerNumbersRead() {
        #expect(LineScanner.int("42") == 42 && LineScanner.int("-7") == -7 && LineScanner.int("007") == 7)
        #expect(LineScanner.int("9223372036854775807") == Int.max && LineScanner.int("-9223372036854775808") == Int.min)
        #expect(LineScanner.uint("18446744073709551615") == UInt64.max)
        for bad in ["+5", " 5", "5 ", "x5", "5x", "", "-", "--5", "9223372036854775808", "0x10", "5.0", "٣"] {
            #expect(LineScanner.int(bad[...]) == nil, "\(bad)")
        }
        for bad in ["+5", "-5", "18446744073709551616", "", "5 6"] {
            #expect(LineScanner.uint(bad[...]) == nil, "\(bad)")
        }
    }

    /// A snapshot line with one number changed.
    func snapshot(_ change: (inout [String]) -> Void) throws -> RoomSnapshot {
        let spec = try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2, picture: "waves")
        let room = RoomState(settings: RoomSettings(first: spec, seed: 9))
        var lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: room, picture: Picture.builtin("waves", width: 2, height: 1)), now: 0)
        change(&lines)
        return try SnapshotCodec.decode(lines.map { $0[...] }, now: 0)
    }

    @Test func snapshotsRefuseAPlusJunkOrOverflow() throws {
        _ = try snapshot { _ in }
        let big = "99999999999999999999"
        // The line (by its start), a number's text in it, and that number spoilt.
        let cases: [(String, String, [String])] = [
            ("S room", " seq=0", [" seq=+0", " seq=x0", " seq=\(big)"]),
            ("S room", " seed=9", [" seed=+9", " seed=\(big)"]),
            ("S room", " lease=", [" lease=+", " lease=\(big)"]),
            ("S room", " size=2x2", [" size=+2x2", " size=2x+2"]),
            ("S piece 0 ", " table ", [" table +", " table x", " table \(big)"]),
            ("S picture", "S picture 2", ["S picture +2", "S picture \(big)"]),
        ]
        for (prefix, old, spoilt) in cases {
            for new in spoilt {
                #expect(throws: SnapshotError.self, "\(new)") {
                    try snapshot { lines in
                        let i = lines.firstIndex { $0.hasPrefix(prefix) }!
                        lines[i] = lines[i].replacing(old, with: new, maxReplacements: 1)
                    }
                }
            }
        }
    }

    @Test func stateRecordsRefuseAPlus() {
        #expect(StateRecordCodec.decode("S who 1 ann moves=3 holding=2") != nil)
        for line in ["S who +1 ann moves=3 holding=2", "S who 1 ann moves=+3 holding=2", "S who 1 ann moves=3 holding=+2",
                     "S clock +5 running", "S watcher +2 bob", "S room r kind=jigsaw size=+2x2 rotation=off players=0 password=no puzzle=0 progress=0/4",
                     "S clock 99999999999999999999 running"] {
            #expect(StateRecordCodec.decode(line[...]) == nil, "\(line)")
        }
    }

    @Test func replaysRefuseAPlus() throws {
        var reader = ReplayCodec.Reader()
        #expect(throws: ReplayCodec.Problem.self) { try reader.take("replay-start +0 jigsaw 2x2 off waves seed=1 elapsed=5 moves=0 players=0") }
        #expect(throws: ReplayCodec.Problem.self) { try reader.take("replay-start 0 jigsaw 2x2 off waves seed=+1 elapsed=5 moves=0 players=0") }
        #expect(throws: ReplayCodec.Problem.self) { try reader.take("replay-start 0 jigsaw 2x2 off waves seed=1 elapsed=+5 moves=0 players=0") }
        try reader.take("replay-start 0 jigsaw 2x2 off waves seed=1 elapsed=5 moves=1 players=0")
        #expect(throws: ReplayCodec.Problem.self) { try reader.take("replay +10 1 swapped 0 1") }
        #expect(throws: ReplayCodec.Problem.self) { try reader.take("replay 10 1 swapped +0 1") }
        try reader.take("replay 10 1 swapped 0 1")
        #expect(ReplayCodec.decodeHistory(["S history 0 jigsaw 2x2 off waves elapsed=5 moves=1 players=0"]).count == 1)
        #expect(ReplayCodec.decodeHistory(["S history +0 jigsaw 2x2 off waves elapsed=5 moves=1 players=0"]).isEmpty)
        #expect(ReplayCodec.decodeHistory(["S history 0 jigsaw 2x2 off waves elapsed=+5 moves=1 players=0"]).isEmpty)
    }

    @Test func requestsRefuseAPlus() {
        #expect(Request.parse("HISTORY +2") == .failure(.badNumber("+2")))
        #expect(Request.parse("SYNC +5 0123456789abcdef") == .failure(.badNumber("+5")))
        #expect(Request.parse("SYNC 5 0123456789abcdef") == .success(.syncFrom(seq: 5, run: "0123456789abcdef")))
        guard case .failure? = Request.parse("CREATE r jigsaw 2x2 lease=+500") else { Issue.record("lease=+500 taken"); return }
    }
}
