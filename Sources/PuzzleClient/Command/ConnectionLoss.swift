import PuzzleSystem

/// Why a connection went, in a player's words: the common ways a link dies
/// read as what happened, not as an errno.
public enum ConnectionLoss {
    public static func reason(_ error: Error) -> String {
        guard let errno = error as? Errno else { return "\(error)" }
        switch errno {
        case .connectionReset, .brokenPipe, .connectionAborted: return "the connection was cut"
        case .connectionRefused: return "the server is not answering"
        default: return "\(errno)"
        }
    }
}
