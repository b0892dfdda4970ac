/// Counters the server reports in reply to STATS: shared by the loop (bytes,
/// connections) and the request router (requests, moves, refusals).
final class ServerStats {
    var connectionsAccepted = 0
    var moves = 0
    var drags = 0
    var requests = 0
    var bytesOut = 0
    var slowReaderDisconnects = 0
    /// Drag lines slow readers never got because a newer one superseded them.
    var coalescedDrags = 0
    var refusedConnections = 0
    /// Connections that spoke HTTP, and those of them upgraded to WebSocket.
    var webConnections = 0
    var webSockets = 0
    var errorsSent = 0
    /// Moves per whole second over the last few seconds, for a moving rate.
    private var window: [(second: Int64, moves: Int)] = []

    func countMove(at now: Int64) {
        moves += 1
        let second = now / 1000
        if let last = window.last, last.second == second {
            window[window.count - 1].moves += 1
        } else {
            window.append((second, 1))
            if window.count > 11 { window.removeFirst(window.count - 11) }
        }
    }

    /// Moves per second over the last 10 complete seconds.
    func movesPerSecond(at now: Int64) -> Double {
        let second = now / 1000
        let total = window.filter { $0.second < second && $0.second >= second - 10 }.reduce(0) { $0 + $1.moves }
        return Double(total) / 10
    }
}
