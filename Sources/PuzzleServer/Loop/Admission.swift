/// Who may connect: the server's cap on connections in all and per address,
/// and none while it shuts down. Decided from counts alone (no socket).
struct Admission {
    /// `max_connections`.
    let maxConnections: Int
    /// `max_connections_per_address` (0: no cap).
    let maxPerAddress: Int

    /// The goodbye and the log reason for a new connection from `host` that
    /// may not stay, or nil when it may. `open`: connections open now;
    /// `fromHost`: those of them from `host`.
    func refusal(host: String, open: Int, fromHost: Int, stopping: Bool) -> (bye: Goodbye, why: String)? {
        if stopping {
            return (.shutdown, "shutting down")
        }
        if open >= maxConnections {
            return (.full("server is full (\(maxConnections) connections)"), "full")
        }
        if maxPerAddress > 0, fromHost >= maxPerAddress {
            return (.full("too many connections from \(host) (limit \(maxPerAddress))"),
                    "already \(maxPerAddress) connections from \(host) (max_connections_per_address)")
        }
        return nil
    }
}
