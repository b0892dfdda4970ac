import PuzzleCore

/// Draws a `Scene` into a `Frame`: a pure function of its input, so every
/// screen can be checked in tests without a terminal.
///
/// Layout: a status line on top; the table view (board grid, loose pieces,
/// everyone's drags and drop targets) with the player panel on its right;
/// recent messages; the command line at the bottom.
public enum SceneRenderer {
    public static func render(_ scene: Scene) -> Frame {
        var cache = TableLayerCache()
        return render(scene, cache: &cache)
    }

    /// The same frame, with the table's still layer taken from `cache` when
    /// nothing it shows changed since the last frame (and kept there for the next).
    public static func render(_ scene: Scene, cache: inout TableLayerCache) -> Frame {
        var frame = Frame(width: scene.width, height: scene.height)
        let layout = SceneLayout(width: scene.width, height: scene.height, zoom: scene.zoom)
        if layout.isTooSmall {
            let lines = ["terminal too small", "need \(SceneLayout.minimumWidth)x\(SceneLayout.minimumHeight)",
                         "have \(scene.width)x\(scene.height)"]
            for (i, line) in lines.enumerated() {
                frame.put(line, row: scene.height / 2 - 1 + i, column: max(0, (scene.width - line.count) / 2))
            }
            return frame
        }
        if let state = scene.state {
            var (canvas, loose) = cache.stillLayer(state, scene: scene, layout: layout)
            canvas.showNumbers = scene.showNumbers
            if !scene.drawsHint {
                canvas.drawHeldPieces(state, picture: scene.picture, names: scene.names, loose: loose, me: scene.myID,
                                      countdown: leaseCountdown(scene, state))
            }
            canvas.drawPlainBoardMarks(state)
            if !scene.drawsHint { canvas.drawFound(state) }
            canvas.compose(into: &frame)
            // The map (the lid at its largest covers the view: no map); it
            // keeps clear of the piece in the player's hand.
            if !(scene.drawsLid && scene.lens.lid >= TableLens.lidSteps) {
                OverviewMap.draw(state, picture: scene.picture, view: scene.view, layout: layout, lens: scene.lens,
                                 plain: scene.colorMode == .plain, avoiding: LidWindow.heldBox(state, me: scene.myID, layout: layout, view: scene.view, shift: scene.viewShift), into: &frame)
            }
            if let banner = scene.solvedBanner {
                // Short lines, so that an 80-column terminal shows each whole.
                let middle = layout.viewTop + layout.viewRows / 2
                drawBanner("*** \(banner) ***", in: &frame, layout: layout, row: middle)
                var row = middle + 1
                if let stats = scene.solvedStats {
                    drawBanner(stats, in: &frame, layout: layout, row: row)
                    row += 1
                }
                // A watcher cannot start the next puzzle (NEXT is refused): it is told how to play.
                drawBanner(scene.watching ? "Ctrl-O: watch it again  /join: play" : "/next: next puzzle  Ctrl-O: watch it again",
                           in: &frame, layout: layout, row: row)
            }
            if let lines = scene.replayBanner {
                let middle = layout.viewTop + layout.viewRows / 2
                for (i, line) in lines.enumerated() { drawBanner(line, in: &frame, layout: layout, row: middle + i) }
            }
        } else if scene.choosingRoom && scene.connectionNotice == nil {
            // Wrapped to the table view, so the panel never cuts it (80 columns: 55 for the table).
            let hint = MessageWrap.wrap(scene.awaitingRoomList
                                            ? "in no room yet: waiting for the server's list of rooms (a server that just started sends it once its rooms are loaded)"
                                            : "in no room yet: /join NAME to play (/rooms lists them)",
                                        width: max(10, layout.viewColumns - 3), indent: 0)
            for (i, line) in hint.prefix(max(1, layout.viewRows - 1)).enumerated() {
                frame.put(line, row: layout.viewTop + 1 + i, column: 2)
            }
        } else if scene.connectionNotice == nil {
            frame.put("joining \(scene.room)...", row: layout.viewTop + 1, column: 2)
        }
        if let notice = scene.connectionNotice {
            drawBanner(notice, in: &frame, layout: layout, row: layout.viewTop + 1, alert: true)
        }
        drawStatus(scene, in: &frame)
        if layout.hasPanel { drawPanel(scene, in: &frame, layout: layout) }
        // The lid over the map and the panel (small, it sits on the panel).
        if let state = scene.state, !layout.isTooSmall, scene.drawsLid, let picture = scene.picture {
            LidWindow.draw(picture, st: state, step: scene.lens.lid, layout: layout, plain: scene.colorMode == .plain,
                           avoiding: LidWindow.heldBox(state, me: scene.myID, layout: layout, view: scene.view, shift: scene.viewShift), into: &frame)
        }
        drawMessages(scene, in: &frame, layout: layout)
        // Over the table and the panel, under nothing.
        if let overlay = scene.overlay { drawOverlay(overlay, in: &frame, layout: layout) }
        drawPrompt(scene, in: &frame)
        return frame
    }

    static let statusStyle = Frame.Style(inverse: true)

    static func drawStatus(_ scene: Scene, in frame: inout Frame) {
        frame.fill(row: 0, column: 0, height: 1, width: frame.width, with: Frame.Cell(" ", style: statusStyle))
        var parts = [" \(scene.room)" + (scene.watching ? " (watching)" : "")]
        if let replay = scene.replayStatus {
            parts += replay
        } else if let st = scene.state {
            // Right after the room: on an 80-column terminal the end of the line is cut.
            if let warning = leaseWarning(scene, st) { parts.append(warning) }
            let p = st.progress(at: min(scene.now, scene.clockStoppedAt ?? scene.now))
            parts.append("puzzle \(st.puzzleIndex) \(st.spec.kind.rawValue) \(st.spec.rows)x\(st.spec.cols)")
            parts.append("\(p.correct)/\(p.total) \(p.percent)%")
            let seconds = max(0, p.elapsedMillis) / 1000
            parts.append("\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)")
            // The room's moves on this puzzle, by everyone who played it (not only who is here now).
            parts.append("room moves \(st.roomMoves)")
        }
        parts.append(scene.rttMillis.map { "rtt \($0) ms" } ?? "rtt -")
        frame.put(parts.joined(separator: " | "), row: 0, column: 0, style: statusStyle)
    }

    /// "piece 5 goes back in 3 s" while this player's hold is about to lapse
    /// (the last 5 s, or the last half of a shorter lease), so that a piece
    /// held while thinking does not vanish from the hand unannounced. Nothing
    /// once the time is up (the server's word comes next) or while the link is
    /// down (the count would stand still at 0).
    static func leaseWarning(_ scene: Scene, _ st: RoomState) -> String? {
        guard let me = scene.myID, scene.connectionNotice == nil else { return nil }
        let soon = min(5_000, st.settings.leaseMillis / 2)
        guard let (piece, expiresAt) = st.soonestLapsingHold(of: me) else { return nil }
        let left = expiresAt - scene.now
        guard left <= soon, left > 0 else { return nil }
        return "piece \(piece) goes back in \((left + 999) / 1000) s"
    }

    /// Seconds left on each of this player's holds in its last seconds (the
    /// status line's rule), shown by the piece itself: where the player looks.
    static func leaseCountdown(_ scene: Scene, _ st: RoomState) -> [Int: Int] {
        guard let me = scene.myID, scene.connectionNotice == nil else { return [:] }
        let soon = min(5_000, st.settings.leaseMillis / 2)
        var out: [Int: Int] = [:]
        for (piece, lock) in st.locks where lock.holder == me {
            let left = lock.expiresAt - scene.now
            if left <= soon, left > 0 { out[piece] = Int((left + 999) / 1000) }
        }
        return out
    }

    static func drawBanner(_ text: String, in frame: inout Frame, layout: SceneLayout, row: Int, alert: Bool = false) {
        let shown = " \(text) "
        let style = alert ? Frame.Style(foreground: TerminalColor(hex: 0xFFFFFF), background: TerminalColor(hex: 0xB00020), bold: true, inverse: false)
                          : Frame.Style(bold: true, inverse: true)
        let column = max(0, (layout.viewColumns - DisplayWidth.of(shown)) / 2)
        frame.put(String(DisplayWidth.prefix(shown, columns: layout.viewColumns)), row: row, column: column, style: style)
    }

    static func drawPanel(_ scene: Scene, in frame: inout Frame, layout: SceneLayout) {
        let left = layout.viewColumns + 1
        let width = SceneLayout.panelWidth
        for r in layout.viewTop..<(layout.viewTop + layout.viewRows) { frame[r, left - 1] = Frame.Cell("|") }
        var row = layout.viewTop
        frame.put("players", row: row, column: left, style: Frame.Style(bold: true))
        row += 1
        let players = scene.state?.players.sorted { $0.key < $1.key } ?? []
        // Above the 4 rows of key hints.
        let limit = layout.viewTop + layout.viewRows - 4
        for (i, (id, info)) in players.enumerated() {
            let details = panelDetails(moves: info.moves, holding: info.holding, width: width)
            // A row is kept for "+N more" unless this is the last player.
            let needed = 1 + details.count + (i == players.count - 1 ? 0 : 1)
            guard row + needed <= limit else {
                if row < limit {
                    frame.put("+\(players.count - i) more (/who)", row: row, column: left, style: Frame.Style(bold: true))
                }
                break
            }
            let slots = scene.state?.colorSlots ?? [:]
            let color = PlayerPalette.color(of: id, in: slots)
            let swatch = Frame.Style(foreground: color, bold: true)
            frame.put(String(repeating: PlayerPalette.marker(of: id, in: slots), count: 2), row: row, column: left, style: swatch)
            let me = id == scene.myID ? " (you)" : ""
            frame.put(String(DisplayWidth.prefix("\(info.name)\(me)", columns: width - 3)), row: row, column: left + 3)
            row += 1
            for line in details {
                frame.put(line, row: row, column: left, style: Frame.Style(foreground: color))
                row += 1
            }
        }
        // Who watches, apart from the players, when there is a row for it.
        if !scene.watchers.isEmpty && row < limit {
            let text = scene.watchers.count == 1 ? "\(scene.watchers[0]) watching" : "\(scene.watchers.count) watching"
            frame.put(String(DisplayWidth.prefix(text, columns: width)), row: row, column: left, style: Frame.Style(bold: true))
        }
        // Rotation only where the puzzle has it; S-arrows pan when nothing is held.
        let rotates = scene.state?.spec.rotation ?? false
        // Keys that type nothing (a letter always goes to the prompt); the lid where the room offers it.
        // A watcher holds nothing: no grab, drop or turn keys, but how to play.
        let zoom = scene.lidAllowed ? "^Up ^Down zoom  ^P lid" : "^Up ^Down zoom  ^N nums"
        let keys = scene.panelKeys ?? (scene.watching
            ? ["watching: /join to play", "S-arrows pan", zoom, "/help"]
            : ["Tab grab  arrows move", rotates ? "Enter drop  ^R turn" : "Enter drop  S-arrows pan", zoom, "Esc release  /help"])
        for (i, k) in keys.enumerated() {
            frame.put(k, row: layout.viewTop + layout.viewRows - keys.count + i, column: left)
        }
    }

    /// A player's lines under their name in a panel `width` columns wide: the moves, and the
    /// pieces held beside them when they fit, else on lines of their own, broken after a comma:
    /// a piece number is never cut (a 100x100 board has numbers up to 9999).
    static func panelDetails(moves: Int, holding: [Int], width: Int) -> [String] {
        let moves = "   moves \(moves)"
        guard !holding.isEmpty else { return [moves] }
        let label = "has piece\(holding.count == 1 ? "" : "s") "
        let numbers = holding.map(String.init)
        let together = moves + "  " + label + numbers.joined(separator: ",")
        if together.count <= width { return [together] }
        var lines = [moves]
        var line = "   " + label
        for (i, number) in numbers.enumerated() {
            let item = number + (i < numbers.count - 1 ? "," : "")
            if line.count + item.count > width && line.count > 3 + label.count {
                lines.append(line)
                line = "     "
            }
            line += item
        }
        lines.append(line)
        return lines
    }

    static func drawMessages(_ scene: Scene, in frame: inout Frame, layout: SceneLayout) {
        let top = layout.viewTop + layout.viewRows
        let shown = layout.messageLines
        let wrapped = MessageWrap.lastLines(of: scene.messages, width: frame.width, count: shown + scene.messageScroll)
        let scroll = min(scene.messageScroll, max(0, wrapped.count - shown))
        var label = ""
        if scene.chatOnly { label += "-- chat only (Ctrl-T shows all) " }
        if scroll > 0 { label += "-- \(scroll) line\(scroll == 1 ? "" : "s") more below (PgDn) " }
        if label.isEmpty {
            frame.fill(row: top, column: 0, height: 1, width: frame.width, with: Frame.Cell("-"))
        } else {
            frame.put(String(label.padding(toLength: frame.width, withPad: "-", startingAt: 0)), row: top, column: 0)
        }
        let myName = scene.myID.flatMap { scene.names[$0] } ?? ""
        let visible = wrapped.dropLast(scroll).suffix(shown)
        for (i, line) in visible.enumerated() {
            let mentioned = MessageLog.mentions(line, name: myName, me: scene.myID)
            let style = style(of: line.kind, mentioned: mentioned)
            // A mention is a band across the pane, so it is seen from the table.
            if mentioned { frame.fill(row: top + 1 + i, column: 0, height: 1, width: frame.width, with: Frame.Cell(" ", style: style)) }
            frame.put(line.text, row: top + 1 + i, column: 0, style: style)
        }
    }

    /// Chat stands out from the game's lines (bold, in a colour of its own), a chat line that
    /// names the player most (reversed, so that plain terminals show it too); errors are red.
    static func style(of kind: OutputLine.Kind, mentioned: Bool = false) -> Frame.Style {
        switch kind {
        case .error: return Frame.Style(foreground: TerminalColor(hex: 0xFF5555), bold: true)
        case .chat where mentioned: return Frame.Style(foreground: TerminalColor(hex: 0xFFD75F), bold: true, inverse: true)
        case .chat: return Frame.Style(foreground: TerminalColor(hex: 0x5FD7FF), bold: true)
        default: return .default
        }
    }

    static func drawPrompt(_ scene: Scene, in frame: inout Frame) {
        let row = frame.height - 1
        frame.put("> ", row: row, column: 0, style: Frame.Style(bold: true))
        let slice = scene.editor.visibleSlice(width: frame.width - 2)
        frame.put(slice.text, row: row, column: 2)
        frame.cursor = Frame.Position(row: row, column: 2 + slice.cursorColumn)
    }
}
