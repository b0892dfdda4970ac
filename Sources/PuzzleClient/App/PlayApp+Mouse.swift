import PuzzleCore

/// The mouse: a piece taken, dragged and put down; the empty table panned; the wheel zooming
/// the table about the pointer, sizing the lid or scrolling the messages; the map and the lid.
extension PlayApp {
    mutating func handleMouse(_ event: MouseEvent, now t: Int64) {
        viewport.update(for: session)
        let layout = viewport.layout
        let point = layout.tablePoint(row: event.row, column: event.column, view: viewport.origin, shift: viewport.shift)
        switch (event.button, event.action) {
        case (.left, .press) where pointer.hold == nil && overViewAid(event):
            break  // the lid or the map: never a grab of a piece the player cannot see
        case (.left, .press):
            if pointer.mode == .click, let hold = pointer.hold {
                // Click mode: the second click puts the piece down.
                finishPointer(hold, at: point, now: t)
            } else if let point, let hold = session.pointerPress(at: point, now: t, lens: lens) {
                pointer.hold = hold
                viewport.followHeld = false
            } else if point != nil {
                pointer.panAnchor = (event.row, event.column, viewport.origin)
            }
        case (.left, .motion), (.none, .motion):
            if pointer.hold != nil, let point {
                pointer.pending = point
                if pointer.dragDue(now: t) { sendPendingPointer(now: t) }
            } else if let anchor = pointer.panAnchor, event.button == .left {
                // The table moves with the pointer: screen cells back to units at this zoom.
                let zoom = viewport.zoom
                viewport.steer(to: Point(x: anchor.origin.x - zoom.units(inPixels: event.column - anchor.column),
                                         y: anchor.origin.y - zoom.units(inPixels: 2 * (event.row - anchor.row))))
            }
        case (.left, .release):
            pointer.panAnchor = nil
            if pointer.mode == .hold, let hold = pointer.hold { finishPointer(hold, at: point, now: t) }
        case (.right, .press):
            session.pointerTurn(at: point, now: t)
        case (.wheelUp, _), (.wheelDown, _):
            let step = event.button == .wheelUp ? -2 : 2
            if layout.isMessageRow(event.row) {
                scrollMessages(by: -step)
            } else if let st = session.state, lidAllowed, lens.lidOpen,
                      LidWindow.contains(row: event.row, column: event.column, layout: layout, step: lens.lid, rows: st.spec.rows, cols: st.spec.cols,
                                         avoiding: LidWindow.heldBox(st, me: session.myID, layout: layout, view: viewport.origin, shift: viewport.shift)) {
                // Over the lid the wheel sizes it (never closing it).
                lens.lid = event.button == .wheelUp ? min(TableLens.lidSteps, lens.lid + 1) : max(1, lens.lid - 1)
            } else if let st = session.state, point != nil {
                // Over the table the wheel zooms, keeping the point under the pointer in place.
                viewport.wheelZoom(in: event.button == .wheelUp, row: event.row, column: event.column, table: st.geometry)
            }
        default:
            break
        }
    }

    /// Whether a press falls on the lid window or the overview map, which
    /// cover the table there; a press on the map centres the view on the
    /// table point it shows.
    mutating func overViewAid(_ event: MouseEvent) -> Bool {
        guard let st = session.state else { return false }
        let layout = viewport.layout
        let held = LidWindow.heldBox(st, me: session.myID, layout: layout, view: viewport.origin, shift: viewport.shift)
        if lidAllowed, lens.lidOpen, session.mirror?.picture != nil,
           LidWindow.contains(row: event.row, column: event.column, layout: layout, step: lens.lid, rows: st.spec.rows, cols: st.spec.cols, avoiding: held) {
            return true
        }
        if !(lidAllowed && lens.lid >= TableLens.lidSteps),
           let p = OverviewMap.tablePoint(row: event.row, column: event.column, layout: layout, table: st.geometry, avoiding: held) {
            viewport.centre(on: p, table: st.geometry)
            return true
        }
        return false
    }

    /// Sends the newest pointer position as a drag (the throttle allows it now).
    mutating func sendPendingPointer(now: Int64) {
        guard let hold = pointer.hold, let point = pointer.pending else { return }
        pointer.pending = nil
        pointer.lastDrag = now
        session.pointerDrag(hold, to: point, now: now)
        needsDraw = true
    }

    /// Drops the pointer's piece where the pointer is (after its last drag).
    mutating func finishPointer(_ hold: PointerHold, at point: Point?, now: Int64) {
        if let point { pointer.pending = point }
        sendPendingPointer(now: now)
        session.pointerRelease(hold, now: now)
        pointer.hold = nil
    }
}
