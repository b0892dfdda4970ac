import PuzzleSystem

/// Which event-loop design an `IOLoopComparison` relay uses.
public enum IOLoopVariant: String, CaseIterable, Sendable {
    /// One thread around `EpollQueue.wait`: the puzzle server's design.
    case epoll
    /// One serial `DispatchQueue` with a read source per connection.
    case dispatch

    /// Starts a relay of this design on 127.0.0.1, port 0.
    func start() throws(Errno) -> any IOLoopRelay {
        switch self {
        case .epoll: return try IOLoopEpollRelay.start()
        case .dispatch: return try IOLoopDispatchRelay.start()
        }
    }
}
