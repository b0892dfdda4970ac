import Testing
import PuzzleCore
@testable import PuzzleProtocol

/// Room settings added to the `S room` line (issue 16): on the extended line
/// only, read back, and a line without them (version 1, an older file) loads
/// with the defaults.
@Suite struct SnapshotRoomSettingsTests {
    static func room(_ kind: PuzzleKind, cycles: Bool = true) throws -> RoomState {
        let spec = try PuzzleSpec(kind: kind, rows: 3, cols: 3, picture: "waves")
        return RoomState(settings: RoomSettings(first: spec, seed: 9, cyclesPictures: cycles))
    }

    static func decode(_ lines: [String]) throws -> RoomState {
        try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0).state
    }

    @Test func picturesFixedOrCycleTravelsOnTheExtendedLineOnly() throws {
        let fixed = try Self.room(.jigsaw, cycles: false)
        let lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: fixed, picture: nil), now: 0)
        #expect(lines[0].hasSuffix(" pictures=fixed"), "\(lines[0])")
        #expect(try Self.decode(lines).settings.cyclesPictures == false)
        let v1 = SnapshotCodec.lines(RoomSnapshot(name: "r", state: fixed, picture: nil), now: 0, extended: false)
        #expect(!v1[0].contains("pictures="))
    }

    @Test func aLineWithoutTheNewSettingsLoadsWithTheDefaults() throws {
        // A room line as written before these settings: up to clock=.
        var lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: try Self.room(.jigsaw, cycles: false), picture: nil), now: 0)
        let old = String(lines[0][..<lines[0].range(of: " clock=paused")!.upperBound])
        #expect(old.hasSuffix("first=jigsaw,3x3,off,waves clock=paused"))
        lines.removeFirst()
        let pieces = lines
        let st = try Self.decode([old] + pieces)
        #expect(st.settings.cyclesPictures)
        #expect(throws: SnapshotError.self) { try Self.decode([old + " pictures=sometimes"] + pieces) }
    }
}
