import PuzzleCore

/// What a client asks of the server: one request a line, one reply each.
public enum Request: Hashable, Sendable {
    /// `token`: version 2's resume token, to come back as the same player.
    case hello(version: Int, name: String, token: String? = nil)
    case ping(String)
    case rooms
    case create(RoomSpec)
    case join(room: String, password: String?)
    /// Version 2: JOIN for a client that has the room up to `seq` of its run
    /// `run` (from its last JOIN or SYNC reply): the events since, when the
    /// room still has them, else a snapshot as JOIN gives.
    case rejoin(room: String, seq: UInt64, run: String, password: String?)
    /// Version 2: follow a room without playing in it (see PROTOCOL.md, *Watchers*).
    case watch(room: String, password: String?)
    case leave
    case sync
    /// Version 2: SYNC from `seq` of run `run`: the events since, or a snapshot.
    case syncFrom(seq: UInt64, run: String)
    case grab(Int)
    /// Piece omitted: the one piece the player holds.
    case drag(Int?, Point)
    case rotate(Int?)
    case drop(Int?)
    case release(Int?)
    /// Renew a held piece's lease without moving it (piece omitted: the one held).
    case keep(Int?)
    case hint
    case next
    case say(String)
    /// Announces a picture upload: `bytes` bytes to be stored as picture
    /// `name`, sent in `data` lines once the server says go (`OK upload`).
    case upload(name: String, bytes: Int)
    /// One line of an upload's bytes (base64 on the wire, `UploadChunk`).
    case data([UInt8])
    case who
    case stats
    case digest
    /// The room's solved puzzles kept for replay (`HISTORY [puzzle]`): all, or one.
    case history(Int?)
    /// A solved puzzle's replay (`REPLAY <puzzle> [from]`): how it started
    /// and its moves from move `from` on, a page at a time.
    case replay(Int, from: Int = 0)
    /// The room's picture (`PICTURE [png|jpeg]`: `S png` or `S jpeg` lines)
    /// for a client whose cache lacks the hash a compact snapshot named.
    case picture(PictureFormat)
    /// Where a puzzle's start layout put every piece (`S start` or `S piece`
    /// lines): for a client without the core, which `S pieces start` needs.
    /// `LAYOUT` is the current puzzle's; `LAYOUT <puzzle>` names the current
    /// one or one the room keeps a replay of, and comes with that puzzle's
    /// `S table` and `S edges` (what drawing its replay needs).
    case layout(Int?)
    /// `PACE <ms>`: the room's `dragged` events for this connection at most
    /// every `ms` milliseconds, the newest per piece (0: each as it comes).
    case pace(Int)
    /// `EVENTS on|off`: whether the room's events are sent to this
    /// connection (off: only chat and watchers'; the client follows by SYNC).
    case events(Bool)
    case help
    case quit

    /// Whether the request plays (moves, holds, asks for the hint or the next
    /// puzzle): what a watcher may not do.
    public var isPlay: Bool {
        switch self {
        case .grab, .drag, .rotate, .drop, .release, .keep, .hint, .next: return true
        default: return false
        }
    }

    /// Whether the answer may carry a whole room (a snapshot, the picture or
    /// the start layout): what a server spreads over its loop turns.
    public var sendsRoom: Bool {
        switch self {
        case .join, .rejoin, .watch, .sync, .syncFrom, .picture, .layout: return true
        default: return false
        }
    }

    /// The request verb as sent on the wire.
    public var verb: String {
        switch self {
        case .hello: return "HELLO"
        case .ping: return "PING"
        case .rooms: return "ROOMS"
        case .create: return "CREATE"
        case .join: return "JOIN"
        case .rejoin: return "REJOIN"
        case .watch: return "WATCH"
        case .leave: return "LEAVE"
        case .sync, .syncFrom: return "SYNC"
        case .grab: return "GRAB"
        case .drag: return "DRAG"
        case .rotate: return "ROTATE"
        case .drop: return "DROP"
        case .release: return "RELEASE"
        case .keep: return "KEEP"
        case .hint: return "HINT"
        case .next: return "NEXT"
        case .say: return "SAY"
        case .upload: return "UPLOAD"
        case .data: return "DATA"
        case .who: return "WHO"
        case .stats: return "STATS"
        case .digest: return "DIGEST"
        case .history: return "HISTORY"
        case .replay: return "REPLAY"
        case .picture: return "PICTURE"
        case .layout: return "LAYOUT"
        case .pace: return "PACE"
        case .events: return "EVENTS"
        case .help: return "HELP"
        case .quit: return "QUIT"
        }
    }

    /// Usage of every request, as HELP prints it and BAD_ARGS quotes it.
    public static let usage: [String: String] = [
        "HELLO": "HELLO <version> <name> [token]",
        "PING": "PING [token]",
        "ROOMS": "ROOMS",
        "CREATE": "CREATE <room> <jigsaw|swap> <rows>x<cols>|<pieces> [picture=NAME] [rotation=on|off] [password=SECRET] [lease=MS] [hint=MS] [hold=N] [pictures=cycle|fixed] [lid=on|off] [seats=N] [place=own|shape]",
        "JOIN": "JOIN <room> [password]",
        "LEAVE": "LEAVE",
        "SYNC": "SYNC [<seq> <run>]",
        "REJOIN": "REJOIN <room> <seq> <run> [password]",
        "WATCH": "WATCH <room> [password]",
        "GRAB": "GRAB <piece>",
        "DRAG": "DRAG [piece] <x> <y>",
        "ROTATE": "ROTATE [piece]",
        "DROP": "DROP [piece]",
        "RELEASE": "RELEASE [piece]",
        "KEEP": "KEEP [piece]",
        "HINT": "HINT",
        "NEXT": "NEXT",
        "SAY": "SAY <text>",
        "UPLOAD": "UPLOAD <picture> <bytes>",
        "DATA": "DATA <base64>",
        "WHO": "WHO",
        "STATS": "STATS",
        "DIGEST": "DIGEST",
        "HISTORY": "HISTORY [puzzle]",
        "REPLAY": "REPLAY <puzzle> [from]",
        "PICTURE": "PICTURE [png|jpeg]",
        "LAYOUT": "LAYOUT [puzzle]",
        "PACE": "PACE <ms>",
        "EVENTS": "EVENTS on|off",
        "HELP": "HELP",
        "QUIT": "QUIT",
    ]
}
