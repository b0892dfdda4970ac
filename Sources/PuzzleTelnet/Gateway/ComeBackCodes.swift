import Foundation

/// How a telnet player whose link dropped comes back as themselves: each player the
/// gateway greets is shown a short code (`#` and six letters and digits, ~31 bits); typed
/// at the name prompt of a new telnet session, it stands for that player's resume token, so
/// the server brings back the same player (id, name, colour, the piece held within the
/// server's stay) and nobody else can take the name with it.
///
/// The token itself never leaves the gateway (a telnet screen is easy to read over a
/// shoulder, and a code is shorter to type). Codes live as long as the gateway (a restart
/// forgets them) and at most `capacity` at once (the oldest go first); a wrong code counts
/// against the session (`TelnetDriver` ends it after `maxWrongCodes`).
///
/// Thread-safe: every telnet session's thread asks it.
public final class ComeBackCodes: @unchecked Sendable {
    /// What a code stands for.
    public struct Entry: Hashable, Sendable {
        public var name: String
        public var token: String
        /// The room the player was last in, to go back to.
        public var room: String?
    }

    /// No 0/O, 1/I/L: read off a screen and typed again without doubt.
    static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    static let length = 6

    public let capacity: Int
    private let lock = NSLock()
    private var byCode: [String: Entry] = [:]
    private var codeByToken: [String: String] = [:]
    private var order: [String] = []

    public init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The code for the player holding `token` (the same one each time), its room noted.
    public func code(name: String, token: String, room: String?) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let code = codeByToken[token] {
            byCode[code]?.room = room
            byCode[code]?.name = name
            return code
        }
        var code: String
        var rng = SystemRandomNumberGenerator()
        repeat {
            code = "#" + String((0..<Self.length).map { _ in Self.alphabet.randomElement(using: &rng)! })
        } while byCode[code] != nil
        byCode[code] = Entry(name: name, token: token, room: room)
        codeByToken[token] = code
        order.append(code)
        if order.count > capacity {
            let oldest = order.removeFirst()
            if let gone = byCode.removeValue(forKey: oldest) { codeByToken[gone.token] = nil }
        }
        return code
    }

    /// What `typed` stands for (case and a missing `#` do not matter), or nil.
    public func entry(for typed: String) -> Entry? {
        var code = typed.uppercased()
        if !code.hasPrefix("#") { code = "#" + code }
        lock.lock()
        defer { lock.unlock() }
        return byCode[code]
    }

    /// How many codes are kept.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return byCode.count
    }
}
