/// The server's open connections by token, with what the loop looks them up
/// by. The table hands out the tokens (each once, so a late readiness event
/// or a finished picture for a closed connection can never reach a new one)
/// and keeps indexes: how many come from each address (`max_connections_per_address`),
/// which are paused or draining, which are over the output soft limit, and
/// which hold paced drags (their timers). The indexes follow each
/// connection's state: `stateChanged` is called by the one place a state
/// changes (`ConnectionLifecycle`), and a closed connection leaves
/// the table.
///
/// Not thread-safe: owned by the server's event loop.
final class ConnectionTable {
    /// The first token a connection gets: those below are the loop's own
    /// descriptors (`PuzzleServer.listenerToken` and the others).
    static let firstToken: UInt64 = 16

    private(set) var byToken: [UInt64: Connection] = [:]
    /// The token the next connection gets.
    private var nextToken = firstToken
    private var perHost: [String: Int] = [:]
    /// Connections whose requests wait, by token.
    private(set) var paused: [UInt64: Connection] = [:]
    /// Connections draining input after their goodbye, by token.
    private(set) var draining: [UInt64: Connection] = [:]
    /// Connections over the output soft limit, by token: the loop's timer
    /// applies the grace period even when no more output comes their way.
    private(set) var overSoft: [UInt64: Connection] = [:]
    /// Paced connections holding drags until a time (`Connection.dragsDue`), by token.
    private(set) var paced: [UInt64: Connection] = [:]

    var count: Int { byToken.count }
    var isEmpty: Bool { byToken.isEmpty }
    var values: Dictionary<UInt64, Connection>.Values { byToken.values }

    subscript(token: UInt64) -> Connection? { byToken[token] }

    /// Open connections from one peer address.
    func count(from host: String) -> Int { perHost[host, default: 0] }

    /// Makes a connection under a token never handed out before and files it.
    func insert(_ make: (_ token: UInt64) -> Connection) -> Connection {
        let token = nextToken
        nextToken += 1
        let conn = make(token)
        assert(conn.token == token, "a connection is filed under the token it was made with")
        byToken[conn.token] = conn
        perHost[conn.host, default: 0] += 1
        stateChanged(conn)
        return conn
    }

    /// Files the connection under its current state.
    func stateChanged(_ conn: Connection) {
        guard byToken[conn.token] === conn else { return }
        guard conn.state.isOpen else { return remove(conn) }
        paused[conn.token] = conn.state.pausedUntil == nil ? nil : conn
        draining[conn.token] = conn.state.drainingUntil == nil ? nil : conn
    }

    /// Records when the connection went over the output soft limit (nil:
    /// it is under it again).
    func markOverSoft(_ conn: Connection, since: Int64?) {
        guard conn.overSoftSince != since else { return }
        conn.overSoftSince = since
        overSoft[conn.token] = since == nil || byToken[conn.token] !== conn ? nil : conn
    }

    /// Sets when a paced connection's held drags go out (nil: not waiting for a time).
    func markPaced(_ conn: Connection, due: Int64?) {
        conn.dragsDue = due
        paced[conn.token] = due == nil || byToken[conn.token] !== conn ? nil : conn
    }

    private func remove(_ conn: Connection) {
        byToken[conn.token] = nil
        overSoft[conn.token] = nil
        paced[conn.token] = nil
        paused[conn.token] = nil
        draining[conn.token] = nil
        if let count = perHost[conn.host] {
            perHost[conn.host] = count > 1 ? count - 1 : nil
        }
    }
}
