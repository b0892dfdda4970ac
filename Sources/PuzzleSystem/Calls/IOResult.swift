/// Outcome of one non-blocking read or write.
///
/// Would-block is a value rather than an error because, on a non-blocking
/// descriptor, it is the ordinary "come back when epoll says so" answer.
public enum IOResult: Hashable, Sendable {
    /// The call moved this many bytes. For reads, `processed(0)` is end of file.
    case processed(Int)
    /// The descriptor is not ready; nothing was moved.
    case wouldBlock

    /// Bytes moved, or 0 for `.wouldBlock`.
    public var byteCount: Int {
        if case .processed(let count) = self { return count }
        return 0
    }
}
