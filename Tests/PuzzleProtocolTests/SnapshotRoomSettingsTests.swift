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
        #expect(lines[0].hasSuffix(" pictures=fixed lid=on place=own"), "\(lines[0])")
        #expect(try Self.decode(lines).settings.cyclesPictures == false)
        let v1 = SnapshotCodec.lines(RoomSnapshot(name: "r", state: fixed, picture: nil), now: 0, extended: false)
        #expect(!v1[0].contains("pictures=") && !v1[0].contains("lid="))
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
        #expect(st.settings.lid, "a jigsaw room's lid is on unless it says otherwise")
        #expect(throws: SnapshotError.self) { try Self.decode([old + " lid=ajar"] + pieces) }
        #expect(throws: SnapshotError.self) { try Self.decode([old + " pictures=sometimes"] + pieces) }
    }

    @Test func theLidTravelsAndDefaultsByKind() throws {
        for (kind, lid) in [(PuzzleKind.jigsaw, true), (.swap, false)] {
            let room = try Self.room(kind)
            #expect(room.settings.lid == lid)
            var lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: room, picture: nil), now: 0)
            #expect(lines[0].hasSuffix(" lid=\(lid ? "on" : "off") place=own"), "\(lines[0])")
            #expect(try Self.decode(lines).settings.lid == lid)
            // An older line, without lid=: the kind's default.
            lines[0] = String(lines[0][..<lines[0].range(of: " pictures=")!.lowerBound])
            #expect(try Self.decode(lines).settings.lid == lid)
        }
        let spec = try PuzzleSpec(kind: .swap, rows: 3, cols: 3)
        let lidded = RoomState(settings: RoomSettings(first: spec, seed: 9, lid: true))
        let lines = SnapshotCodec.lines(RoomSnapshot(name: "r", state: lidded, picture: nil), now: 0)
        #expect(try Self.decode(lines).settings.lid == true)
    }

    @Test func roomSpecsTakeLidAndPictures() throws {
        func parse(_ s: String) throws(ProtocolError) -> RoomSpec { try RoomSpec.parse(s.split(separator: " ")) }
        let spec = try parse("den swap 3x3 lid=on pictures=fixed")
        #expect(spec.lid == true && spec.cyclesPictures == false)
        #expect(try parse(spec.description) == spec)
        #expect(try parse("den jigsaw 3x3").lid == nil)
        #expect(try parse("den jigsaw 3x3 lid=off").lid == false)
        #expect(throws: ProtocolError.self) { try parse("den jigsaw 3x3 lid=maybe") }
        #expect(throws: ProtocolError.self) { try parse("den jigsaw 3x3 pictures=some") }
    }
}
