import PuzzleProtocol

/// One client of a join storm, as its lines arrive: greeted (its resume
/// token), joined (its point: seq and run), and every sequenced event after
/// it checked to come in order, none missed, none twice. Pure: the storm's
/// loop feeds it bytes and reads its state.
struct StormClient {
    enum Phase: Equatable { case connecting, greeting, joining, joined, digested }

    let index: Int
    var phase = Phase.connecting
    var token: String?
    var seq: UInt64 = 0
    var run: String?
    /// When its HELLO and JOIN (or REJOIN) went out, and when `OK joined` came (ms).
    var sentAt: Int64 = 0
    var joinedAt: Int64 = 0
    /// Events of a catch-up (the REJOIN's `missed=` must count them).
    var caughtUp = 0
    var lastJoinMissed: Int?
    /// The `OK digest` value, once asked.
    var digest: String?
    /// What went wrong, for the end checks (nil: nothing).
    var failure: String?
    private var pending: [UInt8] = []

    init(index: Int) { self.index = index }

    /// Takes in bytes from the socket; complete lines are handled.
    mutating func receive(_ bytes: ArraySlice<UInt8>, now: Int64) {
        pending.append(contentsOf: bytes)
        var start = 0
        while let lf = pending[start...].firstIndex(of: 0x0A) {
            line(pending[start..<lf], now: now)
            start = lf + 1
        }
        pending.removeFirst(start)
    }

    private mutating func fail(_ why: String) {
        if failure == nil { failure = "client \(index): \(why)" }
    }

    private mutating func line(_ l: ArraySlice<UInt8>, now: Int64) {
        guard let first = l.first else { return }
        // State lines: the snapshot, taken as the server's (JOIN checks it by seq).
        if first == UInt8(ascii: "S") { return }
        if first == UInt8(ascii: "E") { event(l); return }
        guard let reply = l.withUnsafeBytes({ ReplyCodec.decode($0) }) else {
            fail("unexpected line '\(String(decoding: l.prefix(100), as: UTF8.self))'")
            return
        }
        switch reply {
        case .hello(_, _, _, let t):
            if let t { token = t }
            if phase == .greeting { phase = .joining }
        case .joined(_, _, let s, let r, let missed):
            if let missed, caughtUp != missed { fail("REJOIN said missed=\(missed) but \(caughtUp) events came") }
            if missed == nil { seq = s }
            if seq != s { fail("after the catch-up at seq \(seq), the reply says seq=\(s)") }
            run = r
            lastJoinMissed = missed
            caughtUp = 0
            phase = .joined
            joinedAt = now
        case .digest(let d):
            if d.seq != seq { fail("DIGEST at seq \(d.seq), the client at \(seq)") }
            digest = d.value
            phase = .digested
        case .error(let e):
            fail("refused: \(e.code) \(e.message)")
        default:
            fail("unexpected reply '\(String(decoding: l.prefix(100), as: UTF8.self))'")
        }
    }

    /// `EV <seq> <kind> ...`: sequenced kinds must come one after another.
    private mutating func event(_ l: ArraySlice<UInt8>) {
        let words = l.split(separator: UInt8(ascii: " "), maxSplits: 3)
        guard words.count >= 3, let s = UInt64(String(decoding: words[1], as: UTF8.self)) else {
            fail("bad event line")
            return
        }
        let kind = String(decoding: words[2], as: UTF8.self)
        if ["dragged", "say", "watching", "unwatching"].contains(kind) { return }
        guard s == seq + 1 else {
            fail("event seq \(s) after \(seq) (\(kind))")
            seq = max(seq, s)
            return
        }
        seq = s
        if phase == .joining { caughtUp += 1 }
    }
}
