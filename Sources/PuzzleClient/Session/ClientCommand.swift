import PuzzleProtocol
/// A command a player types (in plain mode: one per input line). Most become one
/// protocol request; `help`, `board` and `pan` are answered locally.
public enum ClientCommand: Hashable, Sendable {
    case grab(Int)
    /// Drag the held piece's top-left corner to a table point.
    case drag(x: Int, y: Int)
    /// Drag the held piece onto a board cell's origin.
    case place(row: Int, col: Int)
    case rotate
    case drop
    case release
    case hint
    case next
    case say(String)
    case who
    case rooms
    /// Leave this room for another.
    case join(room: String, password: String?)
    /// Follow a room without playing in it.
    case watch(room: String, password: String?)
    /// Create a room on the server (it does not join it).
    case create(RoomSpec)
    /// Upload the picture file at `path` (as `spec.picture`, a name made
    /// from the file's), then create the room from it.
    case createWithFile(RoomSpec, path: String)
    case sync
    /// List the room's solved puzzles (time, moves, who placed what).
    case history
    /// Play a solved puzzle back (nil: the latest solved) at a speed (nil: 4x).
    case replay(puzzle: Int?, speed: Int?)
    /// Leave the replay for the live room.
    case replayStop
    case help
    /// Print the board (plain mode): which piece is in each cell.
    case board
    /// Move the view (interactive mode) by table units; `home` follows the held piece again.
    case pan(dx: Int, dy: Int)
    case panHome
    /// Zoom the view (interactive mode): in, out, or fit the whole table.
    case zoom(ZoomStep)
    /// Show or hide piece numbers (interactive mode); nil toggles.
    case numbers(Bool?)
    /// How the mouse takes pieces: hold the button to drag, or click to pick up and click to put down.
    case mouse(PointerMode)
    /// Show only chat in the message pane (interactive mode); nil toggles.
    case chatOnly(Bool?)
    /// What this player's own view shows (interactive mode): a piece filter, a found piece, the lid.
    case lens(LensCommand)
    case quit

    /// The help text, one command a line (a line that starts with spaces goes
    /// on with the command above it).
    public static let helpLines: [String] = [
        "grab N         take piece N",
        "drag X Y       move the held piece's corner to X Y (4 units a cell)",
        "place R C      move the held piece over cell R C (drop puts it in)",
        "rotate         turn the held piece a quarter clockwise (Ctrl-R)",
        "drop           put the held piece down where it is",
        "release        give the held piece back where it was",
        "hint           show the whole picture for a moment (once a puzzle)",
        "next           start the next puzzle (after solving)",
        "say TEXT       chat to the room",
        "who            list the players",
        "rooms          list the server's rooms",
        "join ROOM [PW] leave this room for ROOM",
        "watch ROOM [PW] watch ROOM without playing (/join it to play)",
        "create NAME jigsaw|swap RxC [rotation=on] [picture=P] [password=PW]",
        "               make a room (and stay where you are); picture=~/trip.jpg",
        "               uploads a PNG or JPEG file and makes the room from it;",
        "               [place=own|shape]: own (the default) puts a piece only in",
        "               its own cell, shape in any cell where its shape fits",
        "sync           reload the room from the server",
        "history        the room's solved puzzles: time, moves, who placed what",
        "replay [N] [Sx] watch puzzle N solved again (default: the latest) at",
        "               speed S (1x 2x 4x ... 64x); /replay off leaves it",
        "board          print which piece lies in each cell",
        "pan DIR [N]    scroll the view (left/right/up/down, or home)",
        "zoom in|out|fit  larger or smaller pieces, or the whole table",
        "numbers [on|off] show or hide piece numbers (Ctrl-N)",
        "chat [on|off]  show only chat in the messages, or everything (Ctrl-T)",
        "mouse hold     press on a piece, drag, release to drop (default)",
        "mouse click    click a piece to pick it up, click again to put it down",
        "edges          show only edge pieces (your view; /loose, /all)",
        "loose          show only loose pieces: placed ones dimmed",
        "all            show every piece again",
        "find [N]       mark piece N wherever it lies (no N: clear the mark)",
        "lid [bigger|smaller]  open or close the box lid: the picture",
        "help           this list",
        "quit           leave",
    ]

    /// A line that is not a command, with the reason.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The full-screen help: the mouse and keys, the chat rule, every command
    /// with its `/`. `lid`: whether the room offers the box lid; elsewhere
    /// neither Ctrl-P nor `/lid` is offered (they would only say no).
    public static func slashHelpLines(lid: Bool) -> [String] {
        var lines = [
            "mouse: press on a piece to take it (where you touched it), drag,",
            "       release to drop; right click turns a piece (taking it if you",
            "       hold none); the wheel zooms the table (over it) or scrolls the",
            "       messages; drag the empty table to pan; /mouse click: click to",
            "       pick up, click to put down",
            "typing: letters, digits and signs always go to the command line,",
            "       holding a piece or not: chat never loses a letter to a key",
            "keys: Tab grabs the next free piece;",
            "       with a piece held and an empty command line: arrows move",
            "       it (Shift+arrows a whole cell), Enter drops it, Esc gives",
            "       it back; Ctrl-R turns it (with a piece held);",
            "       holding nothing: Shift+arrows pan the table (or /pan, or",
            "       drag it); PgUp/PgDn scroll the messages, Home follows your",
            "       piece; Ctrl-Up/Ctrl-Down zoom (out to the whole table);",
            "       Ctrl-N shows or hides the piece numbers (where they fit);",
            "       Ctrl-T shows only chat in the messages, or everything again;",
            "       Ctrl-O watches a solved puzzle again (/replay; Esc leaves)",
        ]
        if lid { lines.append("       Ctrl-P opens or closes the box lid (the whole picture)") }
        lines += [
            "messages: others' moves show on the table, not here; a line that",
            "       names you is highlighted; a repeated line reads (xN)",
            "piece N belongs in cell (N div cols, N mod cols), counting from 0",
            "text without a leading / is chat to the room (// sends a / line)",
        ]
        // A command's second line moves right with the slash, like its first.
        for line in helpLines where lid || !line.hasPrefix("lid ") {
            lines.append((line.hasPrefix(" ") ? " " : "/") + line + (lid && line.hasPrefix("lid ") ? " (Ctrl-P)" : ""))
        }
        return lines
    }

    /// Parses a line typed at the full-screen prompt, IRC style: `/verb ...` is a
    /// command, any other text is chat (`//` escapes a leading slash); nil for a
    /// blank line.
    public static func parseTyped(_ line: String) throws(ParseError) -> ClientCommand? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard !trimmed.isEmpty else { return nil }
        if trimmed.hasPrefix("//") { return .say(String(trimmed.dropFirst())) }
        if trimmed.hasPrefix("/") {
            guard let command = try parse(String(trimmed.dropFirst())) else { throw ParseError(message: "a command after /; /help lists them") }
            return command
        }
        return .say(line)
    }

    /// Parses one command line; nil for an empty line. Verbs are case-insensitive.
    public static func parse(_ line: String) throws(ParseError) -> ClientCommand? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first else { return nil }
        let verb = first.lowercased()
        let args = words.dropFirst().map(String.init)
        func ints(_ n: Int, _ usage: String) throws(ParseError) -> [Int] {
            guard args.count == n else { throw ParseError(message: "usage: \(usage)") }
            var out: [Int] = []
            for a in args {
                guard let v = Int(a), v >= 0, v < 1_000_000 else { throw ParseError(message: "'\(a)' is not a number; usage: \(usage)") }
                out.append(v)
            }
            return out
        }
        func none() throws(ParseError) {
            guard args.isEmpty else { throw ParseError(message: "'\(verb)' takes no arguments") }
        }
        switch verb {
        case "grab", "g": return .grab(try ints(1, "grab N")[0])
        case "drag", "d":
            let v = try ints(2, "drag X Y")
            return .drag(x: v[0], y: v[1])
        case "place", "p":
            let v = try ints(2, "place R C")
            return .place(row: v[0], col: v[1])
        case "rotate", "r": try none(); return .rotate
        case "drop": try none(); return .drop
        case "release": try none(); return .release
        case "hint": try none(); return .hint
        case "next": try none(); return .next
        case "say":
            // Everything after the verb and one separator, spaces kept.
            let text = trimmed.dropFirst(first.count).dropFirst()
            guard !text.allSatisfy({ $0 == " " }) else { throw ParseError(message: "usage: say TEXT") }
            return .say(String(text))
        case "who": try none(); return .who
        case "rooms": try none(); return .rooms
        case "watch":
            guard (1...2).contains(args.count) else { throw ParseError(message: "usage: watch ROOM [PASSWORD]") }
            return .watch(room: args[0], password: args.count == 2 ? args[1] : nil)
        case "join":
            guard (1...2).contains(args.count) else { throw ParseError(message: "usage: join ROOM [PASSWORD]") }
            return .join(room: args[0], password: args.count == 2 ? args[1] : nil)
        case "create":
            do {
                var words = words.dropFirst().map { $0 }
                // A picture given as a file: uploaded under a name made from the file's.
                if let i = words.firstIndex(where: { $0.lowercased().hasPrefix("picture=") }),
                   let path = Optional(String(words[i].dropFirst(8))), PictureFile.isPath(path) {
                    words[i] = Substring("picture=" + PictureFile.pictureName(forPath: path))
                    // A room of one's own photo keeps it for its next puzzles
                    // (the server's default cycles through the host's pictures).
                    if !words.contains(where: { $0.lowercased().hasPrefix("pictures=") }) { words.append("pictures=fixed") }
                    return .createWithFile(try RoomSpec.parse(words), path: path)
                }
                return .create(try RoomSpec.parse(words))
            } catch {
                throw ParseError(message: "\(error.message); usage: create NAME jigsaw|swap RxC [rotation=on] [picture=P] [password=PW] [place=own|shape]")
            }
        case "sync": try none(); return .sync
        case "history": try none(); return .history
        case "replay":
            let usage = "usage: replay [N] [SPEEDx] | replay off"
            if args.count == 1, ["off", "stop"].contains(args[0].lowercased()) { return .replayStop }
            guard args.count <= 2 else { throw ParseError(message: usage) }
            var puzzle: Int?, speed: Int?
            for a in args {
                let lower = a.lowercased()
                if lower.hasSuffix("x"), let v = Int(lower.dropLast()), speed == nil {
                    guard (1...64).contains(v) else { throw ParseError(message: "speed \(a) is not 1x to 64x; \(usage)") }
                    speed = v
                } else if let v = Int(a), v >= 0, v <= 1_000_000_000, puzzle == nil, speed == nil {
                    puzzle = v
                } else {
                    throw ParseError(message: "'\(a.prefix(16))' is not a puzzle number or a speed; \(usage)")
                }
            }
            return .replay(puzzle: puzzle, speed: speed)
        case "help", "?": try none(); return .help
        case "board": try none(); return .board
        case "quit", "exit": try none(); return .quit
        case "zoom", "z":
            switch args.first?.lowercased() {
            case "in" where args.count == 1: return .zoom(.zoomIn)
            case "out" where args.count == 1: return .zoom(.zoomOut)
            case "fit" where args.count == 1: return .zoom(.fit)
            default: throw ParseError(message: "usage: zoom in|out|fit")
            }
        case "numbers":
            switch args.first?.lowercased() {
            case nil: return .numbers(nil)
            case "on" where args.count == 1: return .numbers(true)
            case "off" where args.count == 1: return .numbers(false)
            default: throw ParseError(message: "usage: numbers [on|off]")
            }
        case "chat":
            switch args.first?.lowercased() {
            case nil: return .chatOnly(nil)
            case "on" where args.count == 1: return .chatOnly(true)
            case "off" where args.count == 1: return .chatOnly(false)
            default: throw ParseError(message: "usage: chat [on|off]")
            }
        case "mouse":
            switch args.first?.lowercased() {
            case "hold" where args.count == 1: return .mouse(.hold)
            case "click" where args.count == 1: return .mouse(.click)
            default: throw ParseError(message: "usage: mouse hold|click")
            }
        case "edges": try none(); return .lens(.filter(.edges))
        case "loose": try none(); return .lens(.filter(.loose))
        case "all": try none(); return .lens(.filter(.all))
        case "find":
            if args.isEmpty { return .lens(.find(nil)) }
            return .lens(.find(try ints(1, "find [N]")[0]))
        case "lid":
            switch args.first?.lowercased() {
            case nil: return .lens(.lid(.toggle))
            case "bigger" where args.count == 1, "+" where args.count == 1: return .lens(.lid(.bigger))
            case "smaller" where args.count == 1, "-" where args.count == 1: return .lens(.lid(.smaller))
            default: throw ParseError(message: "usage: lid [bigger|smaller]")
            }
        case "pan":
            guard let dir = args.first?.lowercased(), args.count <= 2 else { throw ParseError(message: "usage: pan left|right|up|down [N] | pan home") }
            if dir == "home" { return .panHome }
            var n = 4
            if args.count == 2 {
                guard let v = Int(args[1]), v > 0, v < 10_000 else { throw ParseError(message: "usage: pan DIR [N]") }
                n = v
            }
            switch dir {
            case "left": return .pan(dx: -n, dy: 0)
            case "right": return .pan(dx: n, dy: 0)
            case "up": return .pan(dx: 0, dy: -n)
            case "down": return .pan(dx: 0, dy: n)
            default: throw ParseError(message: "usage: pan left|right|up|down [N] | pan home")
            }
        default:
            throw ParseError(message: "unknown command '\(first.prefix(32))'; help lists them")
        }
    }
}

/// A zoom command: one level in or out, or back to the whole table.
public enum ZoomStep: Hashable, Sendable {
    case zoomIn
    case zoomOut
    case fit
}

/// How the full-screen client's mouse takes pieces.
public enum PointerMode: Hashable, Sendable {
    /// Press on a piece to take it, move with the button held, release to drop.
    case hold
    /// Click a piece to take it; it follows the pointer; click again to drop.
    case click
}

/// A change to what the player's own view shows (`TableLens`).
public enum LensCommand: Hashable, Sendable {
    /// Show every piece, only edge pieces, or only loose ones.
    case filter(TableLens.Filter)
    /// Mark a piece wherever it lies; nil clears the mark.
    case find(Int?)
    case lid(LidStep)
}

/// Opening, closing and sizing the box lid.
public enum LidStep: Hashable, Sendable {
    /// Open (small) if closed, else close.
    case toggle
    case bigger
    case smaller
}
