/// A goodbye line, `BYE <code> <text>`: the server is about to close the
/// connection, and why. The server writes every one through `encode` (its
/// texts are here, once); clients read them through `decode`, by code.
public struct WireGoodbye: Hashable, Sendable, CustomStringConvertible {
    public var code: GoodbyeCode
    /// Words for a person; clients decide by `code`.
    public var message: String

    public init(_ code: GoodbyeCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `BYE FULL <why>`: refused at accept.
    public static func full(_ why: String) -> WireGoodbye { .init(.full, why) }
    public static func idle(seconds: Int) -> WireGoodbye { .init(.idle, "no request for \(seconds) s") }
    public static let shutdown = WireGoodbye(.shutdown, "server is shutting down")
    public static let resumed = WireGoodbye(.resumed, "signed in again from another connection")
    /// `BYE SLOW <why>`: sent past the reader's full queue, then an abortive close.
    public static func slow(_ why: String) -> WireGoodbye { .init(.slow, why) }

    /// Appends the line, with its LF terminator.
    public func encode(into out: inout [UInt8]) {
        out.append(ascii: "BYE ")
        out.append(text: code.rawValue)
        out.append(UInt8(ascii: " "))
        out.append(text: message)
        out.append(UInt8(ascii: "\n"))
    }

    /// The line, without its terminator (for logs and tests).
    public var line: String { "BYE \(code.rawValue) \(message)" }

    public var description: String { "\(code) \(message)" }

    /// Reads a goodbye line (without its terminator): `BYE`, then its code and
    /// text when there are (any code reads; a bare `BYE` has an empty one).
    /// Nil for any other line.
    public static func decode(_ line: Substring) -> WireGoodbye? {
        guard line == "BYE" || line.hasPrefix("BYE ") else { return nil }
        let rest = line.dropFirst(3).dropFirst()
        let code = rest.prefix { $0 != " " }
        let message = rest.dropFirst(code.count).drop { $0 == " " }
        return WireGoodbye(GoodbyeCode(rawValue: String(code)), String(message))
    }
}
