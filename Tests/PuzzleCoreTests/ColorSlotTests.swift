import Testing
@testable import PuzzleCore

/// Colour slots (issue 16, spoiler 4): every player present in a room has a
/// slot no one else there has, whatever its id, kept while it stays.
@Suite struct ColorSlotTests {
    static func room() throws -> RoomState {
        RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3), seed: 1))
    }

    @Test func arrivalsTakeTheLowestFreeSlotWhateverTheirIds() throws {
        var room = try Self.room()
        try room.perform(.join(name: "alice"), by: PlayerID(1), at: 0)
        try room.perform(.join(name: "erin"), by: PlayerID(9), at: 0)
        try room.perform(.join(name: "zed"), by: PlayerID(13), at: 0)
        #expect(room.colorSlots == [PlayerID(1): 0, PlayerID(9): 1, PlayerID(13): 2])
    }

    @Test func aLeaveFreesItsSlotForTheNextArrivalAndOthersKeepTheirs() throws {
        var room = try Self.room()
        for id in [1, 9, 13] { try room.perform(.join(name: "p\(id)"), by: PlayerID(id), at: 0) }
        try room.perform(.leave, by: PlayerID(1), at: 1)
        #expect(room.colorSlots == [PlayerID(9): 1, PlayerID(13): 2])
        try room.perform(.join(name: "new"), by: PlayerID(20), at: 2)
        #expect(room.colorSlots[PlayerID(20)] == 0)
        // The one who left comes back to the lowest slot free then.
        try room.perform(.join(name: "p1"), by: PlayerID(1), at: 3)
        #expect(room.colorSlots[PlayerID(1)] == 3)
        #expect(Set(room.colorSlots.values).count == room.players.count)
    }

    /// Replaying a room's events gives every player the same slot: a mirror
    /// that applies them agrees with the server without being told.
    @Test func replayingTheEventsGivesTheSameSlots() throws {
        var room = try Self.room()
        var events: [RoomEvent] = []
        for id in [4, 2, 7] { try room.perform(.join(name: "p\(id)"), by: PlayerID(id), at: 0, into: &events) }
        try room.perform(.leave, by: PlayerID(2), at: 1, into: &events)
        try room.perform(.join(name: "p8"), by: PlayerID(8), at: 2, into: &events)
        var mirror = try Self.room()
        for e in events { try mirror.apply(e) }
        #expect(mirror.colorSlots == room.colorSlots)
        #expect(room.colorSlots == [PlayerID(4): 0, PlayerID(8): 1, PlayerID(7): 2])
    }

    /// A recorded state keeps the slots it was given; players without one
    /// (version 1, older files) get the lowest free, in id order; two players
    /// sharing a slot is damage.
    @Test func aRecordedStateKeepsItsSlotsAndFillsInMissingOnes() throws {
        let base = try Self.room()
        func rebuilt(_ slots: [PlayerID: Int]) throws(SnapshotError) -> RoomState {
            let players = Dictionary(uniqueKeysWithValues: [1, 9, 13].map { (PlayerID($0), PlayerInfo(name: "p\($0)")) })
            return try RoomState(settings: base.settings, puzzleIndex: 0, spec: base.spec, pieces: base.pieces, locks: [:],
                                 players: players, seq: 3, elapsed: 0, clockRunning: true, solveMillis: nil, now: 0,
                                 colorSlots: slots)
        }
        #expect(try rebuilt([PlayerID(9): 0, PlayerID(1): 4]).colorSlots == [PlayerID(1): 4, PlayerID(9): 0, PlayerID(13): 1])
        #expect(try rebuilt([:]).colorSlots == [PlayerID(1): 0, PlayerID(9): 1, PlayerID(13): 2])
        #expect(throws: SnapshotError.badColorSlot(9)) { try rebuilt([PlayerID(1): 2, PlayerID(9): 2]) }
        #expect(throws: SnapshotError.badColorSlot(1)) { try rebuilt([PlayerID(1): -1]) }
    }

    /// Issue 29: a player keeps its own colour (the slot it had last, which
    /// the server keeps) whenever nobody present has it; else the lowest
    /// free. The `joined` event names the slot only when it is not the lowest
    /// free, and a mirror applying the events agrees.
    @Test func aPlayerTakesItsOwnSlotAgainWhenNobodyPresentHasIt() throws {
        var room = try Self.room()
        var events: [RoomEvent] = []
        // dave's own colour is slot 2, alice's slot 0: after a restart dave comes back first.
        try room.perform(.join(name: "dave", color: 2), by: PlayerID(4), at: 0, into: &events)
        try room.perform(.join(name: "alice", color: 0), by: PlayerID(1), at: 0, into: &events)
        #expect(room.colorSlots == [PlayerID(4): 2, PlayerID(1): 0])
        #expect(events.map(\.body) == [.joined(PlayerID(4), name: "dave", color: 2), .joined(PlayerID(1), name: "alice")])
        // bob's own slot is dave's: he gets the lowest free one (1), and the event says nothing.
        try room.perform(.join(name: "bob", color: 2), by: PlayerID(2), at: 1, into: &events)
        #expect(room.colorSlots[PlayerID(2)] == 1)
        #expect(events.last?.body == .joined(PlayerID(2), name: "bob"))
        // A slot out of range is no preference.
        try room.perform(.join(name: "zed", color: -3), by: PlayerID(26), at: 1, into: &events)
        #expect(room.colorSlots[PlayerID(26)] == 3)
        var mirror = try Self.room()
        for e in events { try mirror.apply(e) }
        #expect(mirror.colorSlots == room.colorSlots)
        #expect(Set(room.colorSlots.values).count == room.players.count)
    }

    /// A `joined` naming a slot someone present has (a damaged journal, a
    /// bad mirror) never makes two players share it: the lowest free instead.
    @Test func aJoinedNamingATakenSlotGivesTheLowestFree() throws {
        var room = try Self.room()
        try room.apply(RoomEvent(seq: 1, time: 0, body: .joined(PlayerID(1), name: "alice", color: 3)))
        try room.apply(RoomEvent(seq: 2, time: 0, body: .joined(PlayerID(2), name: "bob", color: 3)))
        #expect(room.colorSlots == [PlayerID(1): 3, PlayerID(2): 0])
    }
}
