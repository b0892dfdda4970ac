/// The slow-reader rule (PROTOCOL.md, *Slow readers*), decided in one place.
/// A member whose socket stops taking bytes and whose queue passes the soft
/// limit gets its drags coalesced (`OutputQueue` keeps the newest per piece);
/// one over the hard limit, or over the soft limit for longer than the
/// grace period, is disconnected (`BYE SLOW`, abortively). The connection
/// keeps when it went over the soft limit (`Connection.overSoftSince`, set
/// through `ConnectionTable.markOverSoft`, which the loop's timer reads).
struct SlowReaderRule {
    /// Queued bytes past which a stalled reader's drags are coalesced.
    let softLimit: Int
    /// Queued bytes past which a reader is disconnected at once.
    let hardLimit: Int
    /// How long a reader may stay over the soft limit.
    let graceMillis: Int64

    /// What a connection's queue means after a flush.
    enum Verdict: Equatable {
        /// At or under the soft limit: held-back drags may go out.
        case underSoftLimit
        /// Over the soft limit since `since`, within the grace period.
        case overSoftLimit(since: Int64)
        /// Disconnect, saying why.
        case disconnect(String)
    }

    /// Whether a member's drag events are coalesced now rather than queued:
    /// only a reader the kernel has stopped taking bytes from; a burst of
    /// events within one turn is not a reason to drop anyone's drags.
    func coalescesDrags(queuedBytes: Int, socketFull: Bool) -> Bool {
        socketFull && queuedBytes > softLimit
    }

    /// The verdict on `queuedBytes` still queued at `now` for a reader over
    /// the soft limit since `overSoftSince` (nil: it was not).
    ///
    /// A reader of `answersOnly` (an HTTP client, before any WebSocket) is
    /// queued nothing but the answers to what it asked, and its next request
    /// waits for them to leave: its queue is bounded by those answers, so no
    /// size cuts it (a picture over the hard limit is sent whole); it is let
    /// go only when its socket has taken no byte since `stalledSince` for
    /// longer than the grace period.
    func judge(queuedBytes: Int, overSoftSince: Int64?, now: Int64, answersOnly: Bool = false, stalledSince: Int64? = nil) -> Verdict {
        if answersOnly {
            guard queuedBytes > softLimit else { return .underSoftLimit }
            let since = stalledSince ?? now
            if now - since > graceMillis { return .disconnect("reader too slow for \(graceMillis) ms (it took no byte)") }
            return .overSoftLimit(since: since)
        }
        if queuedBytes > hardLimit { return .disconnect("output queue over \(hardLimit) bytes") }
        guard queuedBytes > softLimit else { return .underSoftLimit }
        let since = overSoftSince ?? now
        // The grace is over once strictly more of it has passed.
        if now - since > graceMillis { return .disconnect("reader too slow for \(graceMillis) ms") }
        return .overSoftLimit(since: since)
    }

    /// When a reader over the soft limit since `since` is out of grace, so
    /// the loop judges it then even if its room has gone quiet.
    func graceEnds(since: Int64) -> Int64 { since + graceMillis + 1 }
}
