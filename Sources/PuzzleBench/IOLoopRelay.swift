/// A running relay server: every line from any member goes to all members.
protocol IOLoopRelay: AnyObject, Sendable {
    /// The port it listens on (127.0.0.1).
    var port: UInt16 { get }
    /// Blocks until `count` connections have been accepted in total, or the
    /// deadline passes; returns whether they were.
    func waitForMembers(_ count: Int, timeoutMillis: Int) -> Bool
    /// Stops the loop and closes every socket; returns the lines relayed.
    func stop() -> Int
}
