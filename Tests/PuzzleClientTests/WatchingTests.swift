import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// The play client watching a room (`--watch`, `/watch ROOM`): it asks with
/// WATCH, keeps who watches, and does not send grabs the server would refuse.
@Suite struct WatchingTests {
    @Test func aWatchingClientWatchesKnowsTheWatchersAndDoesNotGrab() throws {
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .swap, rows: 2, cols: 2), seed: 5))
        try st.perform(.join(name: "alice"), by: PlayerID(1), at: 0)
        var s = ClientSession(name: "dave", room: "duo", watch: true)
        s.connected(now: 0)
        #expect(s.takeOutgoing().map(\.line) == ["HELLO 2 dave", "WATCH duo"])
        s.receive("OK hello version=2 id=4 name=dave server=puzzle-room", now: 0)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "duo", state: st, picture: nil), now: 0) { s.receive(Substring(line), now: 0) }
        s.receive("S watcher 4 dave", now: 0)
        s.receive("S watcher 3 carol", now: 0)
        s.receive("OK watching duo seq=1 run=00000000000000ab", now: 0)
        #expect(s.phase == .joined && s.watching && s.state == st)
        #expect(s.watchers == [PlayerID(4): "dave", PlayerID(3): "carol"])
        s.receive("EV 1 unwatching 3", now: 1)
        s.receive("EV 1 watching 5 erin", now: 1)
        #expect(s.watchers == [PlayerID(4): "dave", PlayerID(5): "erin"])
        #expect(s.takeOutput().map(\.text).suffix(2) == ["carol stopped watching", "erin is watching"])
        s.submit("grab 0", now: 2)
        #expect(s.takeOutgoing().isEmpty)
        #expect(s.takeOutput().last?.text == "you are watching duo: /join duo to play")
        // /join of the watched room plays in it.
        s.submit("join duo", now: 3)
        #expect(s.takeOutgoing().map(\.line) == ["JOIN duo"])
        s.receive("OK joined duo id=4 seq=2 run=00000000000000ab", now: 3)
        #expect(!s.watching)
    }

    @Test func aRefusedSwitchKeepsWatchingOrPlayingAsBefore() throws {
        let st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .swap, rows: 2, cols: 2), seed: 5))
        var s = ClientSession(name: "dave", room: "duo", watch: true)
        s.connected(now: 0)
        _ = s.takeOutgoing()
        s.receive("OK hello version=2 id=4 name=dave server=puzzle-room", now: 0)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "duo", state: st, picture: nil), now: 0) { s.receive(Substring(line), now: 0) }
        s.receive("OK watching duo seq=0 run=00000000000000ab", now: 0)
        s.submit("join duo", now: 1)
        _ = s.takeOutgoing()
        s.receive("ERR ROOM_FULL room 'duo' has all its 1 players: WATCH duo to watch", now: 1)
        #expect(s.watching && s.room == "duo" && s.phase == .joined)
        // A player who fails to watch another room plays on.
        var p = ClientSession(name: "ann", room: "duo")
        p.connected(now: 0)
        _ = p.takeOutgoing()
        p.receive("OK hello version=2 id=1 name=ann server=puzzle-room", now: 0)
        for line in SnapshotCodec.lines(RoomSnapshot(name: "duo", state: st, picture: nil), now: 0) { p.receive(Substring(line), now: 0) }
        p.receive("OK joined duo id=1 seq=0 run=00000000000000ab", now: 0)
        p.submit("watch den secret", now: 1)
        #expect(p.takeOutgoing().map(\.line) == ["WATCH den secret"])
        p.receive("ERR BAD_PASSWORD wrong room password", now: 1)
        #expect(!p.watching && p.room == "duo")
    }

    @Test func aFullRoomAtStartUpIsWatchedRatherThanGivenUp() throws {
        var s = ClientSession(name: "dave", room: "duo")
        s.connected(now: 0)
        #expect(s.takeOutgoing().map(\.line) == ["HELLO 2 dave", "JOIN duo"])
        s.receive("OK hello version=2 id=4 name=dave server=puzzle-room", now: 0)
        s.receive("ERR ROOM_FULL room 'duo' has all its 1 players: WATCH duo to watch", now: 0)
        #expect(s.fatalError == nil && s.watching)
        #expect(s.takeOutgoing().map(\.line) == ["WATCH duo"])
        #expect(s.takeOutput().contains { $0.text == "duo is full: watching it (/join duo when a seat is free)" })
    }

    @Test func watchersAreListedApartInTheRoomsAndPlayersWindows() {
        #expect(PlayerText.listingEntry("S room duo kind=swap size=2x2 rotation=off players=1 password=no puzzle=0 progress=1/4 watchers=2 seats=1")
                == "duo  swap 2x2  1/1 player  1/4 placed  2 watching")
        #expect(PlayerText.listingEntry("S who 4 dave watching") == "dave (#4)  watching")
    }
}
