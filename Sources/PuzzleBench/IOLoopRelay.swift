import Dispatch

/// A running relay server: every line from any member goes to all members.
protocol IOLoopRelay: AnyObject, Sendable {
    /// The port it listens on (127.0.0.1).
    var port: UInt16 { get }
    /// Signalled once per accepted connection.
    var accepted: DispatchSemaphore { get }
    /// Stops the loop and closes every socket; returns the lines relayed.
    func stop() -> Int
}

extension IOLoopRelay {
    /// Blocks until `count` connections have been accepted in total, or the
    /// deadline passes; returns whether they were.
    func waitForMembers(_ count: Int, timeoutMillis: Int) -> Bool {
        let deadline = DispatchTime.now() + .milliseconds(timeoutMillis)
        for _ in 0..<count where accepted.wait(timeout: deadline) == .timedOut { return false }
        return true
    }
}
