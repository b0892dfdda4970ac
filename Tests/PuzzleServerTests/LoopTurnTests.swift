@testable import PuzzleServer
import PuzzleCore
import PuzzleProtocol
import Testing

/// A loop turn's budget for rooms, alone: what it charges, what it makes
/// wait, and that a new turn has it whole again.
@Suite struct LoopTurnTests {
    /// Requests that may send a whole room.
    static let roomRequests: [Request] = [
        .join(room: "den", password: nil), .rejoin(room: "den", seq: 4, run: "r1", password: nil), .watch(room: "den", password: nil),
        .sync, .syncFrom(seq: 4, run: "r1"), .picture(.png), .layout(nil), .layout(3),
    ]

    @Test func sixtyFourGreetingsSpendATurnsBudgetAndANewTurnHasItWhole() {
        var turn = LoopTurn()
        for _ in 0..<63 { turn.chargeHello() }
        #expect(turn.roomBytes < LoopTurn.roomBytesPerTurn)
        #expect(!turn.mustWait(for: .hello(version: 2, name: "ann", token: nil)))
        turn.chargeHello()
        #expect(turn.roomBytes >= LoopTurn.roomBytesPerTurn)
        #expect(turn.mustWait(for: .hello(version: 2, name: "ann", token: nil)))
        turn.begin()
        #expect(turn.roomBytes == 0)
        #expect(!turn.mustWait(for: .hello(version: 2, name: "ann", token: nil)))
    }

    @Test func roomsWaitOnlyOnceTheirBytesSpendTheBudget() {
        var turn = LoopTurn()
        turn.chargeRoom(LoopTurn.roomBytesPerTurn - 1)
        for request in Self.roomRequests { #expect(!turn.mustWait(for: request), "\(request.verb)") }
        turn.chargeRoom(1)
        for request in Self.roomRequests { #expect(turn.mustWait(for: request), "\(request.verb)") }
        turn.begin()
        for request in Self.roomRequests { #expect(!turn.mustWait(for: request), "\(request.verb)") }
    }

    @Test func playAndTalkNeverWaitForTheBudget() {
        var turn = LoopTurn()
        turn.chargeRoom(4 * LoopTurn.roomBytesPerTurn)
        let cheap: [Request] = [
            .drag(3, Point(x: 1, y: 2)), .drag(nil, Point(x: 1, y: 2)), .grab(3), .drop(nil), .keep(3), .rotate(3),
            .say("hi"), .ping("t"), .rooms, .who, .digest, .leave, .quit,
        ]
        for request in cheap { #expect(!turn.mustWait(for: request), "\(request.verb)") }
    }

    /// A CREATE costs its room's making: one spends a turn's budget, big or
    /// small; once spent, the next CREATE waits.
    @Test func createsSpendTheBudgetByTheirSize() {
        let create = Request.create(RoomSpec(name: "r1", kind: .jigsaw, rows: 100, cols: 100))
        var turn = LoopTurn()
        #expect(!turn.mustWait(for: create))
        turn.chargeCreate(pieces: 10_000)
        #expect(turn.mustWait(for: create))
        turn.begin()
        var small = 0
        while !turn.mustWait(for: create) { turn.chargeCreate(pieces: 4); small += 1 }
        #expect(small == 1, "\(small) small rooms a turn")
    }
}
