import PuzzleCore
import PuzzleProtocol

/// A piece taken with the pointer: which one, and where on it the pointer
/// holds it (so it does not jump to the pointer's corner, as in the seeds).
public struct PointerHold: Hashable, Sendable {
    public var piece: Int
    /// The pointer's table point minus the piece's corner, when it was taken.
    public var offset: Point
}

/// Mouse play: press on a piece grabs it, moves drag it, release drops it.
extension ClientSession {
    /// Press at a table point: grabs the piece on top there among those the
    /// player's `lens` shows (a hidden piece is never taken), giving back
    /// another one held first, and returns the hold; nil when no piece is there.
    /// A piece of a part holds the whole part by it (the server's rule); a
    /// piece of the part this player holds already keeps that hold, by its grip.
    public mutating func pointerPress(at point: Point, now: Int64, lens: TableLens = TableLens()) -> PointerHold? {
        guard phase == .joined, let st = state, var piece = lens.topPiece(at: point, in: st, stack: stack) else { return nil }
        if let held = heldPiece, st.grip(of: piece) == held { piece = held }
        guard let corner = shownPosition(of: piece) else { return nil }
        let hold = PointerHold(piece: piece, offset: Point(x: point.x - corner.x, y: point.y - corner.y))
        if heldPiece == piece { return hold }
        if let held = heldPiece { send(.release(held), fromUser: false, now: now) }
        // The player's request: a refusal ("held by bob") is shown.
        send(.grab(piece), fromUser: true, now: now)
        return hold
    }

    /// The pointer moved to a table point while holding: drags the piece so the
    /// grab offset stays under the pointer, kept on the table (a part: all of
    /// it, so the server never answers `OFF_TABLE`).
    public mutating func pointerDrag(_ hold: PointerHold, to point: Point, now: Int64) {
        guard phase == .joined, let st = state, isTaking(hold.piece) else { return }
        let to = st.clampedOnTable(hold.piece, at: Point(x: point.x - hold.offset.x, y: point.y - hold.offset.y),
                                   rotation: st.displayRotation(of: hold.piece))
        guard hand.drag(hold.piece, to: to, in: st) else { return }
        // Not shown: a stream of drags would flood the messages.
        send(.drag(hold.piece, to), fromUser: false, now: now)
    }

    /// The pointer let go: drops the piece where it is. A piece whose hold
    /// lapsed while the button was down is not dropped, and the player is told.
    public mutating func pointerRelease(_ hold: PointerHold, now: Int64) {
        guard phase == .joined else { return }
        guard isTaking(hold.piece) else {
            if hand.lapsed.contains(hold.piece) {
                emit(.error, "piece \(hold.piece) was not dropped: your hold had lapsed and it went back where you took it")
            }
            return
        }
        send(.drop(hold.piece), fromUser: true, now: now)
    }

    /// A right click at a table point: turns the held piece; holding none,
    /// takes the piece on top there and turns it (the pointer does not hold
    /// it: it stays where it lies until dragged or dropped).
    public mutating func pointerTurn(at point: Point?, now: Int64) {
        guard phase == .joined, let st = state else { return }
        if let held = heldPiece {
            if let why = turnLeavesTable(held) { return refuse(why) }
            send(.rotate(held), fromUser: true, now: now)
            return
        }
        guard let point, let piece = TableLens().topPiece(at: point, in: st, stack: stack) else { return }
        guard st.spec.rotation else {
            emit(.error, "pieces do not turn in this room (rotation off)")
            return
        }
        send(.grab(piece), fromUser: true, now: now)
        send(.rotate(piece), fromUser: true, now: now)
    }

    /// Whether this player holds `piece`, or has asked for it and not yet heard back.
    func isTaking(_ piece: Int) -> Bool {
        if let myID, state?.holder(of: piece) == myID { return true }
        return pending.contains { $0.request == .grab(piece) }
    }
}
