import PuzzleCore

/// Keys (`KeyMap` decides what each does) and typed lines.
extension PlayApp {
    mutating func handle(_ key: Key, now t: Int64) {
        needsDraw = true
        if replay != nil, handleReplayKey(key, now: t) { return }
        let context = KeyMap.Context(holding: session.heldPiece != nil, promptEmpty: editor.text.isEmpty, overlayOpen: overlay != nil)
        switch KeyMap.action(for: key, in: context) {
        case .edit:
            if case .submitted(let line) = editor.handle(key) { submit(line, now: t) }
        case .quit:
            quitting = true
        case .moveHeld(let dx, let dy):
            viewport.followHeld = true
            session.dragHeld(dx: dx, dy: dy, now: t)
        case .pan(let dx, let dy):
            // A quarter of the view a step.
            let units = viewport.layout.viewUnits
            viewport.pan(dx: dx * max(1, units.x / 4), dy: dy * max(1, units.y / 4))
        case .drop: session.perform(.drop, now: t)
        case .rotate: session.perform(.rotate, now: t)
        case .release: session.perform(.release, now: t)
        case .clearPrompt: editor.setText("")
        case .grabNext:
            viewport.followHeld = true
            session.grabNextFree(now: t)
        case .scrollMessages(let back):
            let page = max(1, viewport.layout.messageLines - 1)
            scrollMessages(by: back ? page : -page)
        case .follow: viewport.followHeld = true
        case .zoom(let step): viewport.setZoom(step, session: session)
        case .toggleNumbers: viewport.showNumbers.toggle()
        case .toggleChatOnly: log.setChatOnly(nil)
        case .toggleLid: changeLens(.lid(.toggle), now: t)
        case .watchReplay: requestReplay(puzzle: nil, speed: nil, now: t)
        case .closeOverlay: overlay = nil
        case .pageOverlay(let back): overlay?.page(back: back, in: viewport.layout)
        case .mouse(let event): handleMouse(event, now: t)
        }
    }

    /// A line typed at the prompt: a command for the view, the window or the server, or chat.
    mutating func submit(_ line: String, now: Int64) {
        let command: ClientCommand?
        do { command = try ClientCommand.parseTyped(line) } catch {
            addMessage(OutputLine(kind: .error, text: "error: \(error.message)"))
            return
        }
        switch command {
        case .pan(let dx, let dy)?: viewport.pan(dx: dx, dy: dy)
        case .panHome?: viewport.followHeld = true
        case .zoom(let step)?: viewport.setZoom(step, session: session)
        case .numbers(let on)?:
            viewport.showNumbers = on ?? !viewport.showNumbers
            addMessage(OutputLine(kind: .info, text: "piece numbers \(viewport.showNumbers ? "on" : "off"): piece N belongs in cell (N div cols, N mod cols)"))
        case .mouse(let mode)?: setPointerMode(mode, now: now)
        case .chatOnly(let on)?: log.setChatOnly(on)
        case .lens(let change)?: changeLens(change, now: now)
        case .quit? where !link.up: quitting = true
        case .help?:
            overlay = Overlay(title: "help", lines: ClientCommand.slashHelpLines(lid: lidAllowed))
        case .replay(let puzzle, let speed)?: requestReplay(puzzle: puzzle, speed: speed, now: now)
        case .replayStop?: stopReplay()
        case .history?:
            overlay = Overlay(title: "solved puzzles (/replay N watches one again)", collecting: true)
            session.perform(.history, now: now)
        case .who?:
            overlay = Overlay(title: "players", collecting: true)
            session.perform(.who, now: now)
        case .rooms?:
            overlay = Overlay(title: "rooms (/join NAME to go there)", collecting: true)
            session.perform(.rooms, now: now)
        case .board?:
            if let st = session.state {
                let session = self.session
                overlay = Overlay(title: "board", lines: PlayerText.boardLines(st, names: { session.displayName($0) }))
            } else {
                session.perform(.board, now: now)
            }
        case let c?: session.perform(c, now: now)
        case nil: break
        }
    }

    /// Applies a change to the player's own view; a found piece out of sight is brought into view.
    mutating func changeLens(_ change: LensCommand, now: Int64) {
        let said = lens.apply(change, lidAllowed: lidAllowed, in: session.state)
        addMessage(OutputLine(kind: said.isError ? .error : .info, text: said.isError ? "error: \(said.text)" : said.text))
        if case .find(let piece?) = change, lens.found == piece, let st = session.state {
            viewport.update(for: session)
            let at = st.position(of: piece)
            let middle = Point(x: at.x + st.geometry.unit / 2, y: at.y + st.geometry.unit / 2)
            if viewport.layout.screenCell(of: middle, view: viewport.origin, shift: viewport.shift) == nil {
                // Out of sight: the view centred on it.
                viewport.centre(on: middle, table: st.geometry)
            }
        }
    }

    mutating func setPointerMode(_ mode: PointerMode, now: Int64) {
        pointer.mode = mode
        if let hold = pointer.hold { finishPointer(hold, at: nil, now: now) }
        // The driver asks the terminal for motion reports while `wantsMouseMotion`.
        addMessage(OutputLine(kind: .info, text: mode == .click ? "mouse: click a piece to pick it up, click again to put it down"
                                                                : "mouse: press on a piece, drag, release to drop"))
    }
}
