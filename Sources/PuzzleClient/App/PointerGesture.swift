import PuzzleCore

/// What the mouse is doing on the table: the piece it holds (and the newest point not yet
/// sent as a drag, drags going out at most every `interval` ms, always the latest point), or
/// the press that pans the empty table, and whether a piece is held by pressing or by clicking.
struct PointerGesture: Sendable {
    /// The piece the mouse has taken, if any.
    var hold: PointerHold?
    /// The newest pointer point not yet sent as a drag.
    var pending: Point?
    /// When the last drag went out.
    var lastDrag: Int64 = 0
    /// Dragging on the empty table pans: where the press was and the view then.
    var panAnchor: (row: Int, column: Int, origin: Point)?
    var mode = PointerMode.hold

    /// About 60 drags a second from the mouse.
    static let interval: Int64 = 16

    /// Whether the pending point may go out as a drag at `now`.
    func dragDue(now: Int64) -> Bool { pending != nil && now - lastDrag >= Self.interval }

    /// When the pending point may go out, if there is one.
    var nextDrag: Int64? { pending == nil ? nil : lastDrag + Self.interval }
}
