import CSystem

/// The calling thread's scheduling weight.
public enum ThreadPriority {
    /// Makes the calling thread yield to the others when the CPU is short: its nice value
    /// goes to `nice` (1...19; raising it needs no privilege). Other threads of the process
    /// keep theirs.
    public static func lowerCurrentThread(nice: Int32) throws(Errno) {
        _ = try valueOrThrow { csystem_lower_thread_priority(nice) }
    }
}
