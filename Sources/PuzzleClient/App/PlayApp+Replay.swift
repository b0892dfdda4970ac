import PuzzleCore

/// Playing a solved puzzle back (`/replay`, Ctrl-O from the solved banner):
/// the replayed board takes the table's place, on the app's clock; the live
/// room goes on underneath (its messages still come) and Esc returns to it.
extension PlayApp {
    /// Starts playing a replay the server sent.
    mutating func startReplay(_ loaded: LoadedReplay, now: Int64) {
        replay = ReplayView(loaded, now: now, colorSlots: session.state?.colorSlots ?? [:])
        overlay = nil
        needsDraw = true
    }

    /// Asks for a replay, unless a piece is in hand (it would lapse unseen).
    mutating func requestReplay(puzzle: Int?, speed: Int?, now: Int64) {
        if let held = session.heldPiece {
            addMessage(OutputLine(kind: .error, text: "error: you hold piece \(held): drop it or give it back (Esc) before you watch a replay"))
            return
        }
        session.perform(.replay(puzzle: puzzle, speed: speed), now: now)
    }

    mutating func stopReplay() {
        guard replay != nil else { return addMessage(OutputLine(kind: .info, text: "no replay is playing")) }
        replay = nil
        needsDraw = true
    }

    /// Shows the moves due by `now`.
    mutating func advanceReplay(now: Int64) {
        guard let shown = replay?.playback.shown else { return }
        replay?.playback.advance(to: now)
        if replay?.playback.shown != shown { needsDraw = true }
    }

    /// A key while a replay plays: the replay's own keys (on an empty command
    /// line, no window open), else nil and the key does what it always does.
    /// The mouse and Tab do nothing on the replayed board (it is not the room's).
    mutating func handleReplayKey(_ key: Key, now t: Int64) -> Bool {
        guard var view = replay else { return false }
        if case .mouse(let event) = key {
            // The wheel still scrolls the messages; nothing on the table takes a piece.
            if event.button == .wheelUp || event.button == .wheelDown, event.action == .press {
                scrollMessages(by: event.button == .wheelUp ? 3 : -3)
            }
            return true
        }
        guard editor.text.isEmpty, overlay == nil else { return key == .tab }
        switch key {
        case .escape: replay = nil
        case .enter:
            if view.playback.isFinished {
                view.playback.rewind(now: t, paused: false)
            } else {
                view.playback.togglePause(now: t)
            }
            replay = view
        case .up: replay?.playback.changeSpeed(faster: true, now: t)
        case .down: replay?.playback.changeSpeed(faster: false, now: t)
        case .right: replay?.playback.step(now: t)
        case .home: replay?.playback.rewind(now: t)
        case .end: replay?.playback.skipToEnd(now: t)
        case .tab: break
        default: return false
        }
        needsDraw = true
        return true
    }

    /// The screen while a replay plays: the replayed board, fitted whole, with
    /// the replay's players and where it is on the status line; the rest of the
    /// screen (messages, prompt, windows) as ever.
    func replayScene(_ view: ReplayView, now t: Int64) -> Scene {
        let st = view.playback.shownState(now: t)
        var fitted = viewport
        fitted.fit(st, room: nil)
        var names: [PlayerID: String] = [:]
        for p in view.replay.players { names[p.id] = p.name }
        var scene = Scene(width: viewport.size.cols, height: viewport.size.rows, colorMode: colorMode,
                          room: "\(session.room ?? "?"): replay \(view.replay.puzzle)", state: st,
                          picture: view.picture, myID: nil, names: names, view: fitted.origin, zoom: fitted.zoom,
                          showNumbers: viewport.showNumbers, now: t, rttMillis: session.rttMillis,
                          connectionNotice: link.up ? nil : link.notice ?? "connecting...",
                          messages: log.shownLines, messageScroll: log.scroll, editor: editor, overlay: overlay)
        // Where the playback is goes on the status line and its keys in the
        // panel, so that nothing covers the board while it plays (a swap
        // board fills its table); the totals go over the solved board.
        scene.replayStatus = view.statusWords()
        scene.panelKeys = view.panelKeys()
        scene.replayBanner = view.endLines()
        scene.chatOnly = log.chatOnly
        scene.viewShift = fitted.shift
        return scene
    }
}
