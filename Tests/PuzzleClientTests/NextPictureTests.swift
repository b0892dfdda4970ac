import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// A next puzzle with another picture (issue 16, spoiler 7): the client has
/// only the old picture's pixels, so it asks for a snapshot with the new one.
@Suite struct NextPictureTests {
    @Test func aNextPuzzleWithAnotherPictureAsksForItsPixels() throws {
        var (s, st) = try ClientSessionTests().joined()
        #expect(st.spec.picture == "sunset")
        s.receive("EV 3 solved 0 1234", now: 10)
        _ = s.takeOutgoing()
        s.receive("EV 4 next 1 swap 3x3 off rings", now: 11)
        #expect(s.state?.spec.picture == "rings")
        #expect(s.takeOutgoing() == [.sync])
    }

    @Test func aNextPuzzleWithTheSamePictureNeedsNoSnapshot() throws {
        var (s, _) = try ClientSessionTests().joined()
        s.receive("EV 3 solved 0 1234", now: 10)
        _ = s.takeOutgoing()
        s.receive("EV 4 next 1 swap 3x3 off sunset", now: 11)
        #expect(s.state?.puzzleIndex == 1)
        #expect(s.takeOutgoing() == [])
    }
}

/// The client's mirror knows the room's box lid after JOIN (issue 16).
@Suite struct MirrorLidTests {
    @Test func theMirrorHasTheRoomsLid() throws {
        for lid in [true, false] {
            let spec = try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2)
            var st = RoomState(settings: RoomSettings(first: spec, seed: 5, lid: lid))
            try st.perform(.join(name: "alice"), by: PlayerID(1), at: 0)
            var s = ClientSession(name: "alice", room: "duo")
            s.connected(now: 0)
            _ = s.takeOutgoing()
            s.receive("OK hello version=2 id=1 name=alice token=0123456789abcdef0123456789abcdef server=puzzle-room", now: 0)
            for line in SnapshotCodec.lines(RoomSnapshot(name: "duo", state: st, picture: nil), now: 0) { s.receive(Substring(line), now: 0) }
            s.receive("OK joined duo id=1 seq=1", now: 0)
            #expect(s.state?.settings.lid == lid)
        }
    }
}
