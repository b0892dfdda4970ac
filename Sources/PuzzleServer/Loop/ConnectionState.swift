import PuzzleProtocol

/// Where a connection is in its life, with what each stage needs (modelled on
/// swift-nio's `SocketChannelLifecycleManager`). It changes only in
/// `ConnectionLifecycle`, which keeps the connection table's indexes
/// and the epoll registration in step with it:
///
///     active ⇄ paused
///       └──┬───┘  sayGoodbye (QUIT, BYE IDLE/SHUTDOWN/RESUMED, web end,
///          ▼                  or the peer's end of stream once all is answered)
///     closingAfterGoodbye ──(all sent)──► draining ──(peer's end of stream,
///          │ (all sent, the peer's input            deadline, byte budget)──┐
///          │  already ended)                                                ▼
///          └──────────────────────────────────────────────────────────► closed
///
/// Any stage may also go straight to `closed` (a read or write error, a
/// registration that failed, `BYE SLOW`, a server that stops).
///
/// Whether the peer has ended its sending side is a fact about the input,
/// not a stage: `Connection.inputEnded`.
enum ConnectionState {
    /// Requests are read and answered.
    case active
    /// Requests wait, unread, until `until` (chat pacing, a password retry);
    /// `deferred`, the one that had to wait, is handled first when it ends.
    /// An upload being decoded and stored, or a CREATE's room being made,
    /// waits with `until` `Int64.max` and nothing deferred, until its job is
    /// done (`resumeAfterWorker`); a
    /// JOIN or WATCH of a room still loading after a restart waits with
    /// `until` `Int64.max` and itself deferred, until the room is in
    /// (`collectLoadedRooms`).
    case paused(until: Int64, deferred: Request?)
    /// Said goodbye: nothing more is answered. Once everything queued is
    /// sent the sending side is shut down (`draining`), or, if the peer's
    /// input already ended, the connection is closed.
    case closingAfterGoodbye(Goodbye)
    /// Everything sent and the sending side shut down: input is read and
    /// discarded (`discarded` bytes so far) until the peer's end of stream,
    /// at most until `until` and `ConnectionLifecycle.lingerMaxBytes`, so that
    /// closing never resets the connection under replies not yet received.
    case draining(Goodbye, until: Int64, discarded: Int)
    /// Deregistered, its socket closed, out of every table.
    case closed

    var isOpen: Bool {
        if case .closed = self { return false }
        return true
    }

    /// Whether its requests are read and answered now.
    var isActive: Bool {
        if case .active = self { return true }
        return false
    }

    /// Whether a goodbye was said (nothing more is answered).
    var saidGoodbye: Bool {
        switch self {
        case .closingAfterGoodbye, .draining: true
        case .active, .paused, .closed: false
        }
    }

    /// When a paused connection's wait ends.
    var pausedUntil: Int64? {
        if case .paused(let until, _) = self { return until }
        return nil
    }

    /// When a draining connection is closed anyway.
    var drainingUntil: Int64? {
        if case .draining(_, let until, _) = self { return until }
        return nil
    }
}
