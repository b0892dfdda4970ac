import PuzzleProtocol
import Testing
@testable import PuzzleClient

/// The seat's transitions: asking for a room, a switch refused or lost, the
/// server's answer, and which request enters the room on a new connection.
@Suite struct RoomSeatTests {
    @Test func aSwitchFromARoomIsRememberedAndARefusalGoesBack() {
        var seat = RoomSeat(room: "duo", password: "pw", watching: false)
        #expect(seat.ask("den", password: nil, watch: true, switching: true) == .watch(room: "den", password: nil))
        #expect(seat.room == "den" && seat.password == nil && seat.watching)
        #expect(seat.previous == RoomSeat.Place(name: "duo", password: "pw", watching: false))
        let back = seat.refused()
        #expect(back == RoomSeat.Place(name: "duo", password: "pw", watching: false))
        #expect(seat == RoomSeat(room: "duo", password: "pw", watching: false), "as before the switch, nothing remembered")
    }

    @Test func aRefusalAskedFromNoRoomLeavesNoRoom() {
        var seat = RoomSeat(room: nil, password: nil, watching: false)
        #expect(seat.ask("den", password: "s", watch: true, switching: false) == .watch(room: "den", password: "s"))
        #expect(seat.previous == nil)
        #expect(seat.refused() == nil)
        #expect(seat.room == nil && !seat.watching)
    }

    @Test func anAnswerEndsTheSwitchAndSaysWatchingOrPlaying() {
        var seat = RoomSeat(room: "duo", password: nil, watching: true)
        _ = seat.ask("den", password: nil, watch: false, switching: true)
        seat.entered(watching: nil)
        #expect(seat.previous == nil && !seat.watching, "a reply that does not say keeps what was asked")
        #expect(seat.goBack() == nil && seat.room == "den", "nothing to go back to")
        seat.entered(watching: true)
        #expect(seat.watching && seat.room == "den")
        seat.entered(watching: false)
        #expect(!seat.watching)
    }

    @Test func aLostSwitchGoesBackOnlyOnce() {
        var seat = RoomSeat(room: "duo", password: nil, watching: false)
        _ = seat.ask("den", password: "x", watch: false, switching: true)
        #expect(seat.goBack()?.name == "duo")
        #expect(seat.goBack() == nil && seat.room == "duo")
        _ = seat.ask("den", password: "x", watch: false, switching: true)
        seat.forgetSwitch()
        #expect(seat.goBack() == nil && seat.room == "den" && seat.password == "x")
    }

    @Test func theEntryRequestRejoinsOnlyTheRoomMirrored() {
        let seat = RoomSeat(room: "duo", password: "pw", watching: false)
        #expect(RoomSeat(room: nil, password: nil, watching: false).entryRequest(mirrored: nil) == nil)
        #expect(seat.entryRequest(mirrored: nil) == .join(room: "duo", password: "pw"))
        #expect(seat.entryRequest(mirrored: ("den", 9, "r1")) == .join(room: "duo", password: "pw"), "another room's run")
        #expect(seat.entryRequest(mirrored: ("duo", 9, "r1")) == .rejoin(room: "duo", seq: 9, run: "r1", password: "pw"))
        var watcher = seat
        watcher.watchInstead()
        #expect(watcher.entryRequest(mirrored: ("duo", 9, "r1")) == .watch(room: "duo", password: "pw"), "a watcher has nothing to catch up")
    }

    @Test func theOnlyRoomIsTakenAsStartUpSaid() {
        var player = RoomSeat(room: nil, password: "pw", watching: false)
        #expect(player.takeOnly("duo") == .join(room: "duo", password: nil))
        #expect(player.room == "duo" && player.password == "pw")
        var watcher = RoomSeat(room: nil, password: nil, watching: true)
        #expect(watcher.takeOnly("duo") == .watch(room: "duo", password: nil))
    }
}
