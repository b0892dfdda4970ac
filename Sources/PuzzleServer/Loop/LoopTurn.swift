import PuzzleProtocol

/// One loop turn's own rule and bookkeeping: what the turn has spent of its
/// budget for rooms and which requests must wait for the next turn, the
/// connections whose lines wait for the next turn, and those to close once
/// this turn's output is flushed.
///
/// The budget: bytes of rooms (snapshots, pictures, layouts) one turn sends
/// before the next request for one (or a HELLO) waits for the next turn. A
/// thousand joins at once are spread over turns, so that the drags of those
/// already playing are answered between them instead of after them all
/// (measured with `puzzle bench --storm`). Each connection has at most
/// `linesPerTurn` lines handled per turn, so one flooding client cannot
/// starve the others.
///
/// Not thread-safe: owned by the server's event loop.
struct LoopTurn {
    /// Lines one connection may have handled per turn before others get a go.
    static let linesPerTurn = 512
    /// Bytes of rooms one turn sends before the next request for one waits.
    static let roomBytesPerTurn = 1 << 20
    /// What each piece of a room counts against `roomBytesPerTurn` when a
    /// snapshot of it is sent (if more than its bytes): at most 64 k pieces'
    /// snapshots a turn. Without it, 200 pipelined SYNCs of a 100x100 (20 KB
    /// each in the compact form) went fifty a turn, and a bystander's PING
    /// waited 48 ms (`Tests/Tools/bystander_ping.py`, issue 31).
    static let roomCostPerPiece = 16

    /// What a HELLO counts against `roomBytesPerTurn`: a new player's token
    /// is written and synced before the reply (about 0.2 ms), so at most 64
    /// greetings a turn.
    static let helloCost = 16 << 10

    /// What a CREATE counts against `roomBytesPerTurn`: a whole turn's
    /// budget, so at most one room is begun a turn. Its layout, snapshot and
    /// synced files (4 to 7 ms for a 100x100) are made off the loop now
    /// (`RoomCreation`), and its asker waits for them; the charge still
    /// spreads many askers' CREATEs over turns. Measured with 512 pipelined
    /// CREATEs when rooms were made on the loop: without the charge they held
    /// it 1.3 s (2x2) to 2.4 s (100x100).
    static func createCost(pieces: Int) -> Int {
        roomBytesPerTurn
    }

    /// Bytes of rooms sent this turn, and `helloCost` for each HELLO.
    private(set) var roomBytes = 0
    /// Connections with unread complete lines (or a request held for the
    /// budget) left over from a busy turn: handled first next turn.
    private var backlog: [Connection] = []
    /// Connections done with (goodbye sent and flushed), to end this turn.
    private var closing: [Connection] = []

    /// Whether the loop must not wait for readiness: lines are left over.
    var hasLeftovers: Bool { !backlog.isEmpty }

    /// Whether the room budget is spent: a request that may send a room
    /// (or a HELLO) waits for the next turn.
    var budgetIsSpent: Bool { roomBytes >= Self.roomBytesPerTurn }

    /// Whether `request` must wait for the next turn: it may send a whole
    /// room (see `Request.sendsRoom`), make one (CREATE) or is a HELLO, and
    /// this turn's budget is spent. Drags and every other request never wait for it.
    func mustWait(for request: Request) -> Bool {
        guard budgetIsSpent else { return false }
        switch request {
        case .hello, .create: return true
        default: return request.sendsRoom
        }
    }

    /// A new turn: its budget for rooms is whole again.
    mutating func begin() {
        roomBytes = 0
    }

    /// `bytes` of a room (a snapshot, its picture, its layout) were queued.
    mutating func chargeRoom(_ bytes: Int) {
        roomBytes += bytes
    }

    /// A HELLO was answered (see `helloCost`).
    mutating func chargeHello() {
        roomBytes += Self.helloCost
    }

    /// A room of `pieces` pieces was made (see `createCost`).
    mutating func chargeCreate(pieces: Int) {
        roomBytes += Self.createCost(pieces: pieces)
    }

    /// `conn` has lines (or a held request) left: handled first next turn.
    mutating func leaveForNextTurn(_ conn: Connection) {
        backlog.append(conn)
    }

    /// `conn` said goodbye and everything queued for it is sent: closed at
    /// the end of this turn (`takeClosing`).
    mutating func closeAtEnd(_ conn: Connection) {
        closing.append(conn)
    }

    /// The connections left over from the last turn; none are left after.
    mutating func takeBacklog() -> [Connection] {
        defer { backlog.removeAll() }
        return backlog
    }

    /// The connections to close now; none are left after.
    mutating func takeClosing() -> [Connection] {
        defer { closing.removeAll() }
        return closing
    }
}
