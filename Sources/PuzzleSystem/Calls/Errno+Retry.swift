/// Runs a system call until it stops failing with `EINTR`.
///
/// `body` follows the C convention: `-1` means failure with `errno` set.
/// Every syscall wrapper in this module goes through here (or through
/// `ioResult`, which builds on it), so a signal landing mid-call is never
/// reported as an error. The exception is `close`, which must not be retried
/// on Linux: the descriptor is released even when `EINTR` is reported.
@inline(__always)
func retryOnInterrupt<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
    while true {
        let result = body()
        if result != -1 { return .success(result) }
        let error = Errno.current
        if error != .interrupted { return .failure(error) }
    }
}

/// `retryOnInterrupt` that throws the failure.
@inline(__always)
func valueOrThrow<T: FixedWidthInteger>(_ body: () -> T) throws(Errno) -> T {
    try retryOnInterrupt(body).get()
}

/// `retryOnInterrupt` for byte-moving calls: `EAGAIN` becomes `.wouldBlock`
/// instead of an error, because it is the normal state of a non-blocking fd.
@inline(__always)
func ioResult(_ body: () -> Int) throws(Errno) -> IOResult {
    switch retryOnInterrupt(body) {
    case .success(let count):
        return .processed(count)
    case .failure(let error) where error == .wouldBlock:
        return .wouldBlock
    case .failure(let error):
        throw error
    }
}
