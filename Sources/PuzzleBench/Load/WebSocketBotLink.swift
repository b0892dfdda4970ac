import PuzzleProtocol
import PuzzleSystem
import PuzzleWeb

/// A bench bot's WebSocket, as a browser speaks it to the server: the HTTP
/// Upgrade at `/ws`, then each request line one masked text message and each
/// server line one text message (PROTOCOL.md, "Browsers").
///
/// Byte work only, no socket calls but `flush`'s sends: `BotConnections`
/// reads and hands the bytes to `receive`, which calls back with each line's
/// payload in place in the read buffer (no copy, as for a TCP bot).
final class WebSocketBotLink {
    enum Stage: Equatable {
        /// The upgrade request is out (or queued); its `101` has not come.
        case upgrading
        /// Upgraded: frames both ways.
        case open
    }

    /// Why a server's bytes cannot be read as a WebSocket.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @exclusivity(unchecked) private(set) var stage = Stage.upgrading
    /// The `Sec-WebSocket-Accept` the `101` must carry.
    let expectedAccept: String
    /// Bytes for the socket: the upgrade request, then masked frames.
    @exclusivity(unchecked) private var wire: [UInt8] = []
    @exclusivity(unchecked) private var wireSent = 0
    /// Masking keys: xorshift32, seeded per bot. RFC 6455 asks a browser for
    /// unpredictable keys (against proxy cache poisoning); a load generator
    /// on loopback needs only fresh ones, cheaply.
    @exclusivity(unchecked) private var keyState: UInt32

    /// Queues the upgrade request for `host:port` (sent by the first `flush`).
    init(host: String, port: UInt16, seed: UInt64) {
        var s = UInt32(truncatingIfNeeded: seed &* 0x9E37_79B9_7F4A_7C15 >> 16)
        if s == 0 { s = 0x1234_5678 }
        keyState = s
        var keyBytes: [UInt8] = []
        for _ in 0..<4 { withUnsafeBytes(of: Self.next(&keyState)) { keyBytes += $0 } }
        let key = Base64.encode(keyBytes)
        expectedAccept = WebSocketHandshake.accept(key: key)
        let hostField = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        wire.append(text: "GET /ws HTTP/1.1\r\nHost: \(hostField)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n")
    }

    @inline(__always)
    private static func next(_ s: inout UInt32) -> UInt32 {
        s ^= s << 13
        s ^= s >> 17
        s ^= s << 5
        return s
    }

    /// Output still to send: the wire's unsent bytes, and once open the lines
    /// not framed yet (`lines`, the bot's queued request lines). Lines queued
    /// before the `101` wait for it (RFC 6455 §4.1: no data before the
    /// handshake completes), so they do not count as unsent until then.
    func hasUnsentOutput(lines: [UInt8]) -> Bool {
        wireSent < wire.count || (stage == .open && !lines.isEmpty)
    }

    /// Frames the complete request lines queued in `lines` (removing them)
    /// once open, and writes what the socket takes. False when the send failed.
    func flush(lines: inout [UInt8], to socket: Socket) -> Bool {
        if stage == .open && !lines.isEmpty {
            let used = lines.withUnsafeBytes { frame(lines: $0) }
            if used == lines.count { lines.removeAll(keepingCapacity: true) } else { lines.removeFirst(used) }
        }
        while wireSent < wire.count {
            let result: IOResult
            do {
                result = try wire.withUnsafeBytes { (all) throws(Errno) -> IOResult in
                    try socket.send(UnsafeRawBufferPointer(rebasing: all[wireSent...]))
                }
            } catch {
                return false
            }
            switch result {
            case .processed(let n): wireSent += n
            case .wouldBlock: return true
            }
        }
        wire.removeAll(keepingCapacity: true)
        wireSent = 0
        return true
    }

    /// Appends each LF-terminated line of `lines` to the wire as one masked
    /// text frame (without its LF). Returns the bytes used (whole lines).
    func frame(lines: UnsafeRawBufferPointer) -> Int {
        var start = 0
        while let lf = ByteSearch.firstIndex(of: 0x0A, in: lines, from: start) {
            appendMasked(.text, UnsafeRawBufferPointer(rebasing: lines[start..<lf]))
            start = lf + 1
        }
        return start
    }

    private func appendMasked(_ opcode: WebSocketOpcode, _ payload: UnsafeRawBufferPointer) {
        let n = payload.count
        wire.append(0x80 | opcode.rawValue)
        if n < 126 {
            wire.append(0x80 | UInt8(n))
        } else if n <= 0xFFFF {
            wire.append(0x80 | 126)
            wire.append(UInt8(n >> 8))
            wire.append(UInt8(n & 0xFF))
        } else {
            wire.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { wire.append(UInt8(truncatingIfNeeded: UInt64(n) >> UInt64(shift))) }
        }
        let key = Self.next(&keyState)
        let k = [UInt8(truncatingIfNeeded: key), UInt8(truncatingIfNeeded: key >> 8), UInt8(truncatingIfNeeded: key >> 16), UInt8(truncatingIfNeeded: key >> 24)]
        wire.append(contentsOf: k)
        for i in 0..<n { wire.append(payload[i] ^ k[i & 3]) }
    }

    /// Reads `bytes` as the server's: first the `101` response, then frames.
    /// Hands each text message's payload (a line without its LF) to `line`,
    /// in place; answers pings. Returns the bytes used: the rest (an
    /// incomplete response or frame) is for the caller to carry to the next
    /// read. `opened` is set when this call completed the upgrade.
    func receive(_ bytes: UnsafeRawBufferPointer, opened: inout Bool, line: (UnsafeRawBufferPointer) -> Bool) throws(Failure) -> Int {
        var p = 0
        if stage == .upgrading {
            guard let end = Self.headEnd(bytes) else { return 0 }
            try checkUpgrade(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self))
            stage = .open
            opened = true
            p = end
        }
        let n = bytes.count
        while n - p >= 2 {
            let b0 = bytes[p], b1 = bytes[p + 1]
            guard b1 & 0x80 == 0 else { throw Failure(description: "a masked frame from the server") }
            var length = Int(b1 & 0x7F)
            var header = 2
            if length == 126 {
                guard n - p >= 4 else { break }
                length = Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
                header = 4
            } else if length == 127 {
                guard n - p >= 10 else { break }
                length = 0
                for i in 2..<10 { length = length << 8 | Int(bytes[p + i]) }
                header = 10
            }
            guard n - p - header >= length else { break }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(p + header)..<(p + header + length)])
            p += header + length
            switch b0 {
            case 0x81:
                if !line(payload) { return p }
            case 0x89:
                appendMasked(.pong, payload)
            case 0x8A:
                break
            case 0x88:
                throw Failure(description: "the server closed the WebSocket")
            default:
                throw Failure(description: "an unexpected frame (first byte \(b0)): the server sends each line as one text frame")
            }
        }
        return p
    }

    /// Where the response head ends (after its blank line), if it has.
    private static func headEnd(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var from = 0
        while let lf = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: from) {
            if lf >= 3 && bytes[lf - 1] == 0x0D && bytes[lf - 2] == 0x0A && bytes[lf - 3] == 0x0D { return lf + 1 }
            from = lf + 1
        }
        return nil
    }

    private func checkUpgrade(_ head: String) throws(Failure) {
        let lines = head.split(separator: "\r\n")
        guard let status = lines.first, status.hasPrefix("HTTP/1.1 101") else {
            throw Failure(description: "upgrade refused: \(lines.first ?? "")")
        }
        let accept = lines.dropFirst().first { $0.lowercased().hasPrefix("sec-websocket-accept:") }
        guard let accept, accept.dropFirst("sec-websocket-accept:".count).split(separator: " ").first.map(String.init) == expectedAccept else {
            throw Failure(description: "upgrade answered without the right Sec-WebSocket-Accept")
        }
    }
}
