import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// A hold is kept (KEEP) while its holder is visibly there, and only then: the mouse
/// button down on the piece, or keys and mouse events lately. A piece picked up in click
/// mode, or a half-typed line, left alone is an abandoned hold: it lapses (both were once
/// kept for ever). The room's lease here is 30 s: a KEEP is due a third of it (10 s) after
/// the grab, and a player counts as there for 10 s after its last key or mouse event.
@Suite struct HoldPresenceTests {
    /// The KEEPs among what the app sent at `now`, each answered as the server would (a
    /// renewed 30 s lease), and its PINGs answered too (replies are matched in order).
    static func keeps(_ app: inout PlayApp, now: Int64) -> [Request] {
        let requests = app.takeRequests()
        for request in requests {
            switch request {
            case .keep(let piece?): app.handle(.serverLine(Substring("OK kept \(piece) 30000")), now: now)
            case .ping(let token): app.handle(.serverLine(Substring("PONG \(token)")), now: now)
            default: Issue.record("unexpected request \(request)")
            }
        }
        return requests.filter { if case .keep = $0 { return true } else { return false } }
    }

    static func press(_ action: MouseEvent.Action, on piece: Int, _ st: RoomState, in app: inout PlayApp, now: Int64) throws {
        let (row, column) = try PlayAppTests.screenCell(of: PlayAppTests.middle(of: piece, st), in: app)
        app.handle(.key(.mouse(MouseEvent(button: .left, action: action, row: row, column: column))), now: now)
    }

    /// Looking for the place with the button down and the mouse still: kept however long.
    @Test func aPressHeldOnThePieceKeepsItWithoutAnyMotion() throws {
        var (app, st) = try PlayAppTests.joined()
        try Self.press(.press, on: 3, st, in: &app, now: 1)
        #expect(app.takeRequests() == [.grab(3)])
        PlayAppTests.grant(3, to: &app, seq: st.seq + 1, now: 2)
        app.handle(.tick, now: 9_000)
        #expect(Self.keeps(&app, now: 9_000).isEmpty, "not yet a third of the lease")
        app.handle(.tick, now: 25_000)
        #expect(Self.keeps(&app, now: 25_010) == [.keep(3)])
        app.handle(.tick, now: 45_000)
        #expect(Self.keeps(&app, now: 45_000) == [.keep(3)], "still pressing 45 s on")
    }

    /// Click mode: the button is up while the piece is held. One click and nothing more
    /// is not being there; moving the mouse is.
    @Test func aPieceClickedUpAndLeftAloneIsNotKept() throws {
        var (app, st) = try PlayAppTests.joined()
        PlayAppTests.type("/mouse click", into: &app, now: 1)
        try Self.press(.press, on: 3, st, in: &app, now: 2)
        try Self.press(.release, on: 3, st, in: &app, now: 3)
        #expect(app.takeRequests() == [.grab(3)])
        PlayAppTests.grant(3, to: &app, seq: st.seq + 1, now: 4)
        var kept: [Request] = []
        for t in stride(from: Int64(10_000), through: 29_000, by: 1_000) {
            app.handle(.tick, now: t)
            kept += Self.keeps(&app, now: t)
        }
        #expect(kept.isEmpty, "a click-mode hold left alone was kept")
        // The same hold with the pointer moving over the table is kept.
        var (moving, st2) = try PlayAppTests.joined()
        PlayAppTests.type("/mouse click", into: &moving, now: 1)
        try Self.press(.press, on: 3, st2, in: &moving, now: 2)
        try Self.press(.release, on: 3, st2, in: &moving, now: 3)
        PlayAppTests.grant(3, to: &moving, seq: st2.seq + 1, now: 4)
        #expect(moving.takeRequests() == [.grab(3)])
        let (row, column) = try PlayAppTests.screenCell(of: PlayAppTests.middle(of: 3, st2), in: moving)
        moving.handle(.key(.mouse(MouseEvent(button: .none, action: .motion, row: row, column: column + 1))), now: 9_500)
        moving.handle(.tick, now: 10_100)
        #expect(moving.takeRequests().contains(.keep(3)), "moving the mouse is being there")
    }

    /// Typing with a piece in hand is being there; a line left half typed is not, once
    /// the presence window (10 s) has gone by without a key.
    @Test func aHalfTypedLineLeftAloneDoesNotKeepTheHold() throws {
        var (app, st) = try PlayAppTests.joined()
        app.handle(.key(.tab), now: 1)
        guard case .grab(let piece)? = app.takeRequests().first else { Issue.record("no grab"); return }
        PlayAppTests.grant(piece, to: &app, seq: st.seq + 1, now: 2)
        for (i, c) in "still looking".enumerated() { app.handle(.key(.character(c)), now: 9_000 + Int64(i) * 100) }
        app.handle(.tick, now: 10_100)
        #expect(Self.keeps(&app, now: 10_110) == [.keep(piece)], "typing is being there")
        // The lease now ends at 40 110; the next KEEP would be due at 20 111, but the last
        // key was at 10 200: the player is not there any more. Nothing is sent again.
        var kept: [Request] = []
        for t in stride(from: Int64(20_200), through: 40_000, by: 1_000) {
            app.handle(.tick, now: t)
            kept += Self.keeps(&app, now: t)
        }
        #expect(kept.isEmpty, "a half-typed line kept the hold")
        #expect(app.editor.text == "still looking")
    }

    /// With a short lease the app wakes for the KEEP itself, not only on the clock's second.
    @Test func theAppWakesWhenAKeepIsDue() throws {
        var (app, st) = try PlayAppTests.joined(leaseMillis: 1_200)
        try Self.press(.press, on: 3, st, in: &app, now: 1)
        PlayAppTests.grant(3, to: &app, seq: st.seq + 1, now: 2)
        _ = app.takeRequests()
        // Lease ends at 1 202; a third of 1 200 gone at 402.
        let wake = app.nextWake(after: 300)
        #expect(wake <= 403 && wake > 300, "woke at \(wake)")
        app.handle(.tick, now: wake)
        #expect(Self.keeps(&app, now: wake) == [.keep(3)])
    }
}
