import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// Mouse and the log's words, in the pure session: a right click turns a piece
/// (taking it first), a release after the hold lapsed says why nothing
/// happened, turns are told in degrees, and a start-up choice of rooms is a
/// list to show, not news.
@Suite struct ClientSessionPointerTests {
    /// Alice (1) in a 2x2 jigsaw room with bob (2); `rotation` as given.
    func joined(rotation: Bool) throws -> (ClientSession, RoomState) {
        let st = try AliceAndBob.joined(RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2, rotation: rotation), seed: 5)))
        let s = AliceAndBob.session(in: "duo", of: st)
        #expect(s.phase == .joined)
        return (s, st)
    }

    /// A point inside piece `p` as it lies.
    func inside(_ p: Int, _ st: RoomState) -> Point {
        let corner = st.position(of: p)
        return Point(x: corner.x + 1, y: corner.y + 1)
    }

    @Test func aRightClickOnAPieceNotHeldTakesItAndTurnsIt() throws {
        var (s, st) = try joined(rotation: true)
        s.pointerTurn(at: inside(2, st), now: 1)
        #expect(s.takeOutgoing() == [.grab(2), .rotate(2)])
        // Holding it, a right click anywhere turns it again.
        s.receive("OK grabbed 2", now: 2)
        s.receive("EV \(st.seq + 1) grabbed 2 1", now: 2)
        s.pointerTurn(at: nil, now: 3)
        #expect(s.takeOutgoing() == [.rotate(2)])
    }

    @Test func aRightClickInARoomWithoutRotationSaysSoAndTakesNothing() throws {
        var (s, st) = try joined(rotation: false)
        s.pointerTurn(at: inside(1, st), now: 1)
        #expect(s.takeOutgoing().isEmpty)
        #expect(s.takeOutput().map(\.text) == ["pieces do not turn in this room (rotation off)"])
    }

    @Test func aReleaseAfterTheHoldLapsedSaysWhyNothingDropped() throws {
        var (s, st) = try joined(rotation: false)
        let point = inside(3, st)
        let pressed = s.pointerPress(at: point, now: 1)
        let hold = try #require(pressed)
        #expect(s.takeOutgoing() == [.grab(3)])
        s.receive("EV \(st.seq + 1) grabbed 3 1", now: 2)
        s.receive("OK grabbed 3", now: 2)
        s.receive("EV \(st.seq + 2) expired 3 1", now: 30_002)
        _ = s.takeOutput()
        s.pointerRelease(hold, now: 30_100)
        #expect(s.takeOutgoing().isEmpty)
        #expect(s.takeOutput().map(\.text) == ["piece 3 was not dropped: your hold had lapsed and it went back where you took it"])
        // Taken again and released in time: dropped, nothing said.
        _ = s.pointerPress(at: point, now: 30_200)
        s.receive("EV \(st.seq + 3) grabbed 3 1", now: 30_201)
        s.receive("OK grabbed 3", now: 30_201)
        _ = s.takeOutgoing()
        s.pointerRelease(hold, now: 30_300)
        #expect(s.takeOutgoing() == [.drop(3)])
    }

    @Test func turnsAreToldInDegrees() throws {
        var (s, st) = try joined(rotation: true)
        s.receive("EV \(st.seq + 1) grabbed 0 2", now: 1)
        s.receive("EV \(st.seq + 2) rotated 0 2 2 -", now: 2)
        #expect(s.takeOutput().map(\.text).last == "bob rotated piece 0 to 180° → no target")
    }

    @Test func aStartUpChoiceOfRoomsIsAListToShowOnce() {
        var s = ClientSession(name: "dave", room: nil)
        s.connected(now: 0)
        #expect(s.takeOutgoing().map(\.line) == ["HELLO 2 dave", "ROOMS"])
        s.receive("OK hello version=2 id=4 name=dave server=puzzle-room", now: 0)
        s.receive("S room duo kind=swap size=2x2 rotation=off players=0 password=no puzzle=0 progress=0/4", now: 0)
        s.receive("S room lobby kind=jigsaw size=3x3 rotation=off players=1 password=no puzzle=0 progress=2/9", now: 0)
        s.receive("OK rooms 2", now: 0)
        #expect(s.phase == .choosingRoom)
        #expect(s.takeRoomChoices() == ["duo  swap 2x2  0 players  0/4 placed",
                                        "lobby  jigsaw 3x3  1 player  2/9 placed"])
        #expect(s.takeRoomChoices() == nil)
        // The messages say what to do, once, without repeating the list.
        #expect(s.takeOutput().map(\.text) == ["pick a room: /join NAME [PASSWORD] (rooms: duo, lobby)"])
    }

    /// While the player is there, a hold gets a KEEP once a third of its lease
    /// has gone (not again while one is on its way), and the reply renews the
    /// mirror's lease, so the count on the screen starts again.
    @Test func holdsAreKeptWhileThePlayerIsThere() throws {
        var (s, st) = try joined(rotation: false)
        let lease = st.settings.leaseMillis
        s.perform(.grab(1), now: 0)
        _ = s.takeOutgoing()
        s.receive("EV \(st.seq + 1) grabbed 1 1", now: 0)
        s.receive("OK grabbed 1", now: 0)
        _ = s.takeOutput()
        s.keepHoldsWhilePresent(now: lease / 4)
        #expect(s.takeOutgoing().isEmpty)
        s.keepHoldsWhilePresent(now: lease / 2)
        #expect(s.takeOutgoing() == [.keep(1)])
        s.keepHoldsWhilePresent(now: lease / 2 + 10)
        #expect(s.takeOutgoing().isEmpty)
        s.receive("OK kept 1 \(lease)", now: lease / 2 + 20)
        #expect(s.state?.locks[1]?.expiresAt == lease / 2 + 20 + lease)
        #expect(s.takeOutput().isEmpty, "a KEEP is the client's own, not news")
    }

    @Test func aRoomChoiceSaysRotationPasswordAndSolvedOnlyWhenTheyApply() {
        #expect(PlayerText.listingEntry("S room den kind=jigsaw size=5x5 rotation=on players=3 password=yes puzzle=2 progress=25/25 solved")
                == "den  jigsaw 5x5  rotation  3 players  25/25 placed  solved  password")
        // A line of another shape is shown as it came.
        #expect(PlayerText.listingEntry("S room odd") == "room odd")
    }
}
