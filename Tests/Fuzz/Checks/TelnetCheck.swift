import PuzzleCore
import PuzzleTelnet

/// What a telnet client sends, read by the gateway's `TelnetDecoder` and `TelnetSession`:
/// never a trap, however the stream is cut into reads the same events (data runs merged),
/// memory held for a subnegotiation within its limit, what the encoder writes read back
/// as the same data, a window size always within the limits, and replies never more than
/// a few bytes for each byte sent (no amplification).
///
/// Input: byte 0 seeds the read sizes, the rest is the stream.
enum TelnetCheck {
    static let maxSubnegotiation = 16

    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        guard !input.isEmpty else { return }
        let stream = Array(input.dropFirst())

        var whole = TelnetDecoder(maxSubnegotiation: maxSubnegotiation)
        let reference = merged(whole.feed(stream))
        var rng = SeededGenerator(seed: UInt64(input[0]) &* 0x9E37_79B9 &+ UInt64(stream.count))
        var split = TelnetDecoder(maxSubnegotiation: maxSubnegotiation)
        var events: [TelnetDecoder.Event] = []
        var offset = 0
        while offset < stream.count {
            let size = Int(rng.next() % 9)
            events += split.feed(stream[offset..<min(stream.count, offset + size)])
            offset += size
            try require(split.heldBytes <= maxSubnegotiation, .telnet, "\(split.heldBytes) bytes held for a subnegotiation, limit \(maxSubnegotiation)")
        }
        try require(merged(events) == reference, .telnet, "random reads give \(merged(events)), the whole stream \(reference)")

        // Data encoded for the wire reads back as itself (after a fresh start, so no
        // CR is waiting to fold what follows).
        let data = stream.filter { $0 != 0x0D }
        var back = TelnetDecoder()
        let decoded = merged(back.feed(TelnetEncoder.data(data)))
        try require(decoded == (data.isEmpty ? [] : [.data(data)]), .telnet, "encoded data \"\(data.escaped)\" reads back as \(decoded)")

        // The whole session: the size stays in its limits, replies stay small.
        var session = TelnetSession(now: 0)
        var replies = 0
        offset = 0
        var now: Int64 = 0
        while offset < stream.count {
            let size = Int(rng.next() % 9) + 1
            let r = session.receive(stream[offset..<min(stream.count, offset + size)], now: now)
            replies += r.replies.count
            offset += size
            now += Int64(rng.next() % 1000)
            session.tick(now: now)
        }
        let s = session.size
        try require(TelnetSession.sizeLimits.rows.contains(s.rows) && TelnetSession.sizeLimits.columns.contains(s.columns), .telnet,
                    "window size \(s) outside the limits")
        // One DO or WILL (3 bytes) may be answered with a refusal and a TTYPE SEND (9 bytes).
        try require(replies <= 3 * stream.count + 16, .telnet, "\(replies) reply bytes for \(stream.count) bytes sent")
    }

    /// Consecutive data events joined (where a read ended is not an event).
    static func merged(_ events: [TelnetDecoder.Event]) -> [TelnetDecoder.Event] {
        var out: [TelnetDecoder.Event] = []
        for e in events {
            if case .data(let b) = e, case .data(let a)? = out.last {
                out[out.count - 1] = .data(a + b)
            } else {
                out.append(e)
            }
        }
        return out
    }

    /// Starting inputs: a netkit telnet's opening answers, a resize, keys and mouse,
    /// and the broken shapes the gateway must survive.
    static var seeds: [[UInt8]] {
        let iac = TelnetByte.iac
        let answers: [UInt8] = [iac, TelnetByte.do, 1, iac, TelnetByte.do, 3, iac, TelnetByte.will, 3, iac, TelnetByte.will, 31,
                                iac, TelnetByte.sb, 31, 0, 120, 0, 40, iac, TelnetByte.se, iac, TelnetByte.will, 24,
                                iac, TelnetByte.sb, 24, 0] + Array("XTERM-256COLOR".utf8) + [iac, TelnetByte.se]
        return [
            [0] + answers + Array("alice\r\0\t\u{1B}[<0;10;5M\u{1B}[<0;12;6m\r\n".utf8),
            [1] + [iac, TelnetByte.sb, 31, 0, 0, 0, 0, iac, TelnetByte.se, iac, TelnetByte.sb, 31, 0x27, 0x10, iac, iac, 0xFF, iac, TelnetByte.se],
            [2] + [iac, TelnetByte.sb, 24, 0] + [UInt8](repeating: 0x41, count: 40) + [iac, TelnetByte.will, 1],
            [3] + [UInt8](repeating: iac, count: 33) + [TelnetByte.ip, iac, TelnetByte.nop, iac, TelnetByte.ayt],
            [4] + Array("cooked line\n".utf8) + [iac, TelnetByte.dont, 1, iac, TelnetByte.wont, 3, iac, TelnetByte.do, 39, iac, TelnetByte.will, 34],
        ]
    }
}
