import PuzzleCore
import PuzzleProtocol

/// Clients decode every `EV` line and the journal is made of them, so a line
/// that decodes must encode to a line that decodes to the very same event, and
/// encoding that again must give the same bytes (one canonical form).
enum EventCheck {
    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        // Split as receivers do, on the LF byte: as Characters, "\r\n" is one
        // grapheme and would not split at "\n".
        for bytes in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let line = Substring(String(decoding: bytes, as: UTF8.self))
            // The clock matters only to `hint`; near the top of its range, durations overflow.
            for now: Int64 in [0, 1 << 40, Int64.max - 5_000] {
                try checkLine(line, now: now)
            }
        }
    }

    static func checkLine(_ line: Substring, now: Int64) throws(FuzzFailure) {
        guard let decoded = EventCodec.decode(line, now: now) else { return }
        let encoded: [UInt8]
        switch decoded {
        case .room(let event):
            var out: [UInt8] = []
            EventCodec.encode(event, into: &out)
            encoded = out
        case .say(let seq, let player, let text):
            encoded = EventCodec.encodeSay(seq: seq, player: player, text: text)
        case .watching(let seq, let player, let name):
            encoded = EventCodec.encodeWatching(seq: seq, player: player, name: name)
        case .unwatching(let seq, let player):
            encoded = EventCodec.encodeWatching(seq: seq, player: player, name: nil)
        }
        try require(encoded.last == UInt8(ascii: "\n") && !encoded.dropLast().contains(UInt8(ascii: "\n")), .event,
                    "\(decoded) encodes to \"\(encoded.escaped)\", not one line")
        let line2 = String(decoding: encoded.dropLast(), as: UTF8.self)
        let again = EventCodec.decode(line2[...], now: now)
        try require(again == decoded, .event, "\"\(line)\" decodes to \(decoded), written \"\(line2)\", which decodes to \(String(describing: again))")
    }
}
