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
