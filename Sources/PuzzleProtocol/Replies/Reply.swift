import PuzzleCore

/// The one line that answers a request: `OK ...`, `ERR <code> <text>` or `PONG`.
/// `ReplyCodec` writes and reads them; the server, the play client and the
/// bench all go through it.
public enum Reply: Hashable, Sendable {
    case pong(token: String)
    /// `token`: version 2's resume token (nil for version 1).
    case hello(version: Int, player: PlayerID, name: String, token: String? = nil)
    case help(count: Int)
    case rooms(count: Int)
    /// `OK stats key=value ...`, in the server's order.
    case stats([ReplyField])
    /// `OK created <room>`; for a piece count asked (`CREATE den jigsaw 48`),
    /// ` size=<r>x<c> asked=<n>`: the board made, whose count may differ.
    case created(room: String, rows: Int? = nil, cols: Int? = nil, asked: Int? = nil)
    /// `run`: the room's run (version 2), which with `seq` names a point a
    /// client may later catch up from (`REJOIN`, `SYNC <seq> <run>`);
    /// `missed`: set when the room sent the events after the client's point
    /// instead of a snapshot, and how many.
    case joined(room: String, player: PlayerID, seq: UInt64, run: String? = nil, missed: Int? = nil)
    /// WATCH: watching `room` as it is at `seq` of its run `run`.
    case watching(room: String, seq: UInt64, run: String)
    case left(room: String)
    case synced(seq: UInt64, digest: String, run: String? = nil, missed: Int? = nil)
    case digest(DigestSummary)
    /// PICTURE: the `S png` lines before it are the picture of this size and hash.
    case picture(width: Int, height: Int, hash: String)
    /// LAYOUT: the `S piece` lines before it are the start layout of puzzle
    /// `puzzle` of a room with `seed`, `pieces` pieces.
    case layout(pieces: Int, puzzle: Int, seed: UInt64)
    case who(count: Int)
    /// HISTORY: `count` solved puzzles listed.
    case history(count: Int)
    /// REPLAY: puzzle `puzzle`'s replay, `moves` move lines; `more`: the
    /// move the next page starts at, when there is one.
    case replay(puzzle: Int, moves: Int, more: Int? = nil)
    case grabbed(piece: Int)
    case dragged(piece: Int, to: Point, target: Cell?)
    case rotated(piece: Int, rotation: Int)
    /// `solved`: this drop solved the puzzle.
    case dropped(piece: Int, outcome: DropOutcome, solved: Bool)
    case released(piece: Int)
    /// KEEP: the hold's lease now has `leaseLeftMillis` to run.
    case kept(piece: Int, leaseLeftMillis: Int64)
    case hint(millis: Int64)
    /// PACE: this connection's drags now come at most every `millis` ms (0: as they come).
    case paced(millis: Int)
    /// EVENTS: the room's events are sent to this connection again, or not.
    case events(on: Bool)
    case next(puzzle: Int, kind: PuzzleKind, rows: Int, cols: Int)
    case said
    /// UPLOAD accepted: send its `bytes` bytes now, in DATA lines of at most
    /// `lineCharacters` base64 characters each.
    case uploadReady(name: String, bytes: Int, lineCharacters: Int)
    /// The upload's bytes arrived, decode as a `width`×`height` picture and
    /// are stored (durably) under `name`; `sha256` names their content.
    case uploaded(name: String, width: Int, height: Int, sha256: String)
    case bye
    case error(ProtocolError)

    /// Whether this is a refusal.
    public var isError: Bool {
        if case .error = self { return true }
        return false
    }
}

/// One `key=value` word of a reply.
public struct ReplyField: Hashable, Sendable {
    public var key: String
    public var value: String
    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

/// What `DIGEST` reports: enough for a client to compare its mirror.
public struct DigestSummary: Hashable, Sendable {
    public var seq: UInt64
    /// The state digest, 16 hex digits.
    public var value: String
    public var correct: Int
    public var total: Int
    public var held: Int
    public var puzzle: Int

    public init(seq: UInt64, value: String, correct: Int, total: Int, held: Int, puzzle: Int) {
        self.seq = seq
        self.value = value
        self.correct = correct
        self.total = total
        self.held = held
        self.puzzle = puzzle
    }
}
