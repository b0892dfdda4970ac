import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// Who the session has seen and who watches: names outlive their players,
/// a snapshot's watcher lines replace the watchers, events add and remove them.
@Suite struct RosterTests {
    @Test func namesAreKeptAndUnknownIdsReadAsNumbers() throws {
        var roster = Roster()
        #expect(roster.displayName(PlayerID(7)) == "player 7")
        roster.met(PlayerID(7), name: "bob")
        #expect(roster.displayName(PlayerID(7)) == "bob")
        let spec = try PuzzleSpec(kind: .swap, rows: 2, cols: 2, rotation: false, picture: "sunset")
        var st = RoomState(settings: RoomSettings(first: spec, seed: 1))
        try st.perform(.join(name: "alice"), by: PlayerID(1), at: 0)
        roster.met(playersOf: st)
        #expect(roster.names == [PlayerID(1): "alice", PlayerID(7): "bob"], "bob is not in the room but keeps his name")
        #expect(roster.watchers.isEmpty)
    }

    @Test func watcherLinesReplaceTheWatchersAndEventsChangeThem() {
        var roster = Roster()
        roster.startedWatching(PlayerID(3), name: "carol")
        roster.adoptWatchers(from: ["S watcher 4 dave", "S piece 0 table 0 0 0", "S watcher 5 erin"])
        #expect(roster.watchers == [PlayerID(4): "dave", PlayerID(5): "erin"], "carol is not listed: she went")
        #expect(roster.displayName(PlayerID(3)) == "carol" && roster.displayName(PlayerID(5)) == "erin")
        let went = roster.stoppedWatching(PlayerID(4)), notOne = roster.stoppedWatching(PlayerID(9))
        #expect(went == "dave" && notOne == nil)
        #expect(roster.watchers == [PlayerID(5): "erin"])
        #expect(roster.displayName(PlayerID(4)) == "dave", "a watcher that went keeps its name")
        roster.adoptWatchers(from: [])
        #expect(roster.watchers.isEmpty)
    }
}
