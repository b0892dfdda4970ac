import Testing
import PuzzleCore
@testable import PuzzleServer

/// The upkeep's counts alone: a visit between two sweeps starts them again.
@Suite struct RoomUpkeepRuleTests {
    static func room(absent: Bool) throws -> HostedRoom {
        var state = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2), seed: 1))
        try state.perform(.join(name: "ann"), by: PlayerID(1), at: 0)
        if absent { try state.perform(.leave, by: PlayerID(1), at: 0) }
        return HostedRoom(name: "den", password: nil, state: state, picture: nil, run: 1)
    }

    @Test func anAbsentPlayerAndAnEmptyRoomAreDueAfterTheirLimits() throws {
        var upkeep = RoomUpkeep(forgetAfterSeconds: 10, closeAfterSeconds: 20, configured: [])
        let den = try Self.room(absent: true)
        #expect(upkeep.due(in: [den], now: 0).forget.isEmpty)
        #expect(upkeep.due(in: [den], now: 10_000).forget.map(\.players) == [[PlayerID(1)]])
        #expect(upkeep.due(in: [den], now: 20_000).close.map(\.name) == ["den"])
    }

    @Test func aVisitBetweenTwoSweepsStartsTheCountsAgain() throws {
        var upkeep = RoomUpkeep(forgetAfterSeconds: 10, closeAfterSeconds: 20, configured: [])
        let den = try Self.room(absent: true)
        _ = upkeep.due(in: [den], now: 0)
        // ann came back and left again between sweeps: no sweep saw her.
        upkeep.visited("den", by: PlayerID(1))
        _ = upkeep.due(in: [den], now: 9_000)
        #expect(upkeep.due(in: [den], now: 10_000).forget.isEmpty)
        #expect(upkeep.due(in: [den], now: 19_000).forget.map(\.players) == [[PlayerID(1)]])
        #expect(upkeep.due(in: [den], now: 20_000).close.isEmpty)
    }

    @Test func aConfiguredRoomIsNeverClosed() throws {
        var upkeep = RoomUpkeep(forgetAfterSeconds: 0, closeAfterSeconds: 1, configured: ["den"])
        let den = try Self.room(absent: true)
        _ = upkeep.due(in: [den], now: 0)
        #expect(upkeep.due(in: [den], now: 1_000_000).close.isEmpty)
    }
}
