/// The frame opcodes of RFC 6455 §5.2; any other value fails the connection.
public enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Close, ping and pong: at most 125 bytes, never fragmented.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}

/// One WebSocket frame, payload unmasked.
public struct WebSocketFrame: Sendable, Equatable {
    public var fin: Bool
    public var opcode: WebSocketOpcode
    public var payload: [UInt8]

    public init(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8] = []) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    /// The frame's bytes. Servers send frames unmasked (`mask` nil); a client
    /// masks every frame with a fresh 4-byte key (RFC 6455 §5.3).
    public func encoded(mask: (UInt8, UInt8, UInt8, UInt8)? = nil) -> [UInt8] {
        var out: [UInt8] = []
        Self.appendHeader(fin: fin, opcode: opcode, length: payload.count, masked: mask != nil, to: &out)
        if let (a, b, c, d) = mask {
            let key = [a, b, c, d]
            out += key
            for (i, byte) in payload.enumerated() { out.append(byte ^ key[i & 3]) }
        } else {
            out += payload
        }
        return out
    }

    /// Appends a frame header with the shortest length encoding.
    public static func appendHeader(fin: Bool, opcode: WebSocketOpcode, length: Int, masked: Bool = false, to out: inout [UInt8]) {
        out.append((fin ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = masked ? 0x80 : 0
        if length < 126 {
            out.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            out += [maskBit | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            out.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: UInt64(length) >> UInt64(shift))) }
        }
    }

    /// A close frame with `code` and `reason` (the reason cut to fit 125 bytes
    /// on a character boundary).
    public static func close(_ code: WebSocketCloseCode, reason: String = "") -> WebSocketFrame {
        var payload = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        var reasonBytes: [UInt8] = []
        for ch in reason.unicodeScalars {
            let bytes = Array(String(ch).utf8)
            if reasonBytes.count + bytes.count > 123 { break }
            reasonBytes += bytes
        }
        payload += reasonBytes
        return WebSocketFrame(opcode: .close, payload: payload)
    }
}

/// A close frame's status code (RFC 6455 §7.4).
public struct WebSocketCloseCode: RawRepresentable, Sendable, Equatable, Hashable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let normal = WebSocketCloseCode(rawValue: 1000)
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// Whether a peer may send this code in a close frame: the defined codes
    /// other than those reserved for local use (1004-1006, 1015), and the
    /// registered and private ranges 3000-4999.
    public var isValidOnTheWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1011, 3000...4999: true
        default: false
        }
    }
}

/// Why the server fails a WebSocket connection; each maps to the close code
/// it is answered with.
public enum WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Framing the protocol forbids: unmasked, reserved bits, unknown
    /// opcode, bad control frame, broken fragmentation, bad close payload.
    case protocolError(String)
    /// A text message or close reason that is not UTF-8.
    case invalidUTF8
    /// A frame or message over the size limit.
    case tooBig(limit: Int)
    /// A binary message: the game speaks text lines only.
    case unsupportedData

    public var closeCode: WebSocketCloseCode {
        switch self {
        case .protocolError: .protocolError
        case .invalidUTF8: .invalidPayload
        case .tooBig: .messageTooBig
        case .unsupportedData: .unsupportedData
        }
    }

    public var description: String {
        switch self {
        case .protocolError(let why): "protocol error: \(why)"
        case .invalidUTF8: "text is not valid UTF-8"
        case .tooBig(let limit): "message larger than \(limit) bytes"
        case .unsupportedData: "binary messages are not accepted (the game speaks text lines)"
        }
    }
}
