/// What the router asks of the loop: facts about every connection and the
/// loop's own life, which no one session holds (the server answers; router
/// tests answer with fixed values).
protocol LoopFacts: AnyObject {
    /// Open connections (STATS).
    var connectionCount: Int { get }
    /// Seconds since the server started (STATS).
    var uptimeSeconds: Int64 { get }
    /// Uploads being received on sessions other than `session` (the cap on
    /// uploads in all, `upload_max_count`).
    func uploadsReceiving(besides session: PlayerSession) -> Int
}
