import PuzzleSystem

/// What a worker of the server's (the upload worker, the picture renderer)
/// finished: waits on its descriptor, up to `millis`, until `collect` has
/// something (nothing when the deadline passes first).
func awaitResults<T>(of descriptor: FileDescriptor, withinMillis millis: Int64 = 30_000, _ collect: () -> [T]) throws -> [T] {
    let queue = try EpollQueue()
    defer { queue.close() }
    try queue.register(descriptor, interest: .readable, token: 1)
    var done: [T] = []
    let deadline = MonotonicClock.nowMilliseconds + millis
    while done.isEmpty && MonotonicClock.nowMilliseconds < deadline {
        _ = try queue.wait(timeoutMillis: 1000)
        done += collect()
    }
    return done
}
