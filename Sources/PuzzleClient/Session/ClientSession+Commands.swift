import PuzzleCore
import PuzzleProtocol

/// The player's commands, turned into requests (or answered locally).
extension ClientSession {
    /// Parses and performs one typed line. A line that is not a command is
    /// reported (`error: ...`) and counts as a failed command; nothing is sent.
    /// A leading `/` is taken too: the hints shared with the full screen say
    /// `/join NAME`, and a player types what they read.
    public mutating func submit(_ line: String, now: Int64) {
        do {
            let bare = line.drop { $0 == " " || $0 == "\t" }
            let typed = bare.hasPrefix("/") && !bare.hasPrefix("//") ? String(bare.dropFirst()) : line
            guard let command = try ClientCommand.parse(typed) else { return }
            perform(command, now: now)
        } catch {
            failedCommands += 1
            emit(.error, "error: \(error.message)")
        }
    }

    /// Performs a command: queues its request, or answers it locally.
    public mutating func perform(_ command: ClientCommand, now: Int64) {
        switch command {
        case .help:
            for line in ClientCommand.helpLines { emit(.info, "  " + line) }
            return
        case .pan, .panHome, .mouse, .zoom, .numbers, .chatOnly, .lens:
            emit(.info, "pan, zoom, numbers, chat, mouse, the filters, find and the lid are for the full-screen view; they do nothing here")
            return
        case .board:
            guard let st = state else { return refuse("not in a room yet") }
            for line in PlayerText.boardLines(st, names: displayName) { emit(.info, line) }
            return
        case .rooms:
            send(.rooms, fromUser: true, now: now)
            return
        case .create(let request):
            guard phase == .joined || phase == .choosingRoom else { return refuse("not connected yet") }
            send(.create(request), fromUser: true, now: now)
            return
        case .createWithFile(let spec, let path):
            guard phase == .joined || phase == .choosingRoom else { return refuse("not connected yet") }
            guard !uploads.isBusy else { return refuse("a picture is being uploaded; wait for it to finish") }
            uploads.name(PictureFile(path: path, name: spec.picture, spec: spec))
            return
        case .join(let target, let secret), .watch(let target, let secret):
            let watch = if case .watch = command { true } else { false }
            switch phase {
            case .joined:
                guard target != room || watch != watching else {
                    return refuse(watch ? "you are watching \(target) already" : "you are in \(target) already")
                }
                // Leaving gives held pieces back: never by surprise (a grab on
                // its way counts, Tab or the mouse may have just sent one).
                if let held = heldPiece ?? pending.lazy.compactMap({ if case .grab(let p) = $0.request { p } else { nil } }).first {
                    return refuseLeaving(holding: held)
                }
            case .choosingRoom:
                break
            default:
                return refuse("not connected yet")
            }
            join(target, password: secret, watch: watch, now: now)
            return
        case .quit:
            guard phase == .joined || phase == .joining else { phase = .finished; return }
            send(.quit, fromUser: true, now: now)
            return
        default:
            break
        }
        guard phase == .joined, let st = state else {
            return refuse(phase == .disconnected ? "not connected; reconnecting, try again when the room is back" : "not in a room yet; wait for the join")
        }
        switch command {
        case .grab(let p): send(.grab(p), fromUser: true, now: now)
        case .drag(let x, let y): send(.drag(ambiguousHeld, Point(x: x, y: y)), fromUser: true, now: now)
        case .place(let r, let c):
            let cell = Cell(row: r, col: c)
            guard st.geometry.isOnBoard(cell) else { return refuse("no cell \(r),\(c) on a \(st.spec.rows)x\(st.spec.cols) board") }
            let note = heldPiece.map { "piece \($0) is over cell \(r),\(c): drop puts it in" }
            send(.drag(ambiguousHeld, st.geometry.origin(of: cell)), fromUser: true, now: now, successNote: note)
        case .rotate:
            if let held = heldPiece, let why = turnLeavesTable(held) { return refuse(why) }
            send(.rotate(ambiguousHeld), fromUser: true, now: now)
        case .drop: send(.drop(ambiguousHeld), fromUser: true, now: now)
        case .release: send(.release(ambiguousHeld), fromUser: true, now: now)
        case .hint: send(.hint, fromUser: true, now: now)
        case .next: send(.next, fromUser: true, now: now)
        case .say(let text): send(.say(text), fromUser: true, now: now)
        case .who: send(.who, fromUser: true, now: now)
        case .sync:
            syncing = true
            send(.sync, fromUser: true, now: now)
        case .history: send(.history(nil), fromUser: true, now: now)
        case .replay(let puzzle, let speed):
            apply(replays.command(puzzle: puzzle, speed: speed, table: state), now: now)
        case .replayStop: emit(.info, "no replay is playing")
        case .help, .pan, .panHome, .mouse, .zoom, .numbers, .chatOnly, .lens, .board, .rooms, .quit, .join, .watch, .create,
             .createWithFile: break
        }
    }

    /// Asks to join `target`. From a room this is a switch (protocol version
    /// 2): the server checks the new room (its name, password, a name taken
    /// there) before it leaves the old one, so a refused `/join` leaves the
    /// player where it was, and nobody saw it go.
    mutating func join(_ target: String, password secret: String?, watch: Bool = false, now: Int64) {
        let request = seat.ask(target, password: secret, watch: watch, switching: phase == .joined)
        phase = .joining
        send(request, fromUser: true, now: now)
    }

    /// Leaving would give `held` back: never by surprise.
    mutating func refuseLeaving(holding held: Int) {
        refuse("you hold piece \(held): drop it or give it back (Esc, /release) before you go")
    }

    /// The piece to name in a request: left out (the server picks the one held)
    /// unless this player holds several, when the latest grabbed is meant.
    var ambiguousHeld: Int? {
        guard let myID, let st = state, st.implicitPiece(of: myID) == .severalHeld else { return nil }
        return heldPiece
    }

    /// Why turning the held `piece` would be refused (a part that would
    /// reach off the table turned about it where it is), said before asking
    /// the server, which would only name a point off the table; nil when it may turn.
    func turnLeavesTable(_ piece: Int) -> String? {
        guard let st = state, st.spec.rotation, st.partSize(of: piece) > 1, let at = shownPosition(of: piece) else { return nil }
        let turned = (st.displayRotation(of: piece) + 1) & 3
        guard !st.board.fitsOnTable(piece, at: at, rotation: turned) else { return nil }
        return "turned about piece \(piece), the part would reach off the table: move it further in first"
    }

    mutating func refuse(_ message: String) {
        failedCommands += 1
        emit(.error, "error: \(message)")
    }

    // MARK: Keyboard play

    /// Moves the held piece by a step in table units (arrow keys), ahead of the
    /// server's echo so that fast key repeat does not lag. Stays on the table:
    /// a held part, all of it (the step is not taken when it would leave).
    public mutating func dragHeld(dx: Int, dy: Int, now: Int64) {
        guard phase == .joined, let st = state, let piece = heldPiece, let base = shownPosition(of: piece) else { return }
        let to = Point(x: base.x + dx, y: base.y + dy)
        guard st.board.fitsOnTable(piece, at: to, rotation: st.displayRotation(of: piece)) else { return }
        guard hand.drag(piece, to: to, in: st) else { return }
        send(.drag(piece, to), fromUser: true, now: now)
    }

    /// Tab: grabs the next free piece (not held, not already right) after the
    /// last one tabbed to, giving back the one held first.
    public mutating func grabNextFree(now: Int64) {
        guard phase == .joined, let st = state, st.pieceCount > 0 else { return }
        guard let p = hand.nextFree(in: st) else { return emit(.info, "no free piece to grab") }
        if let held = heldPiece { send(.release(held), fromUser: true, now: now) }
        send(.grab(p), fromUser: true, now: now)
    }
}
