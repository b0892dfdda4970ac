import PuzzleCore
import PuzzleProtocol

/// HELLO: who a session speaks for. Version 1 gets a new player each time;
/// version 2 gets a resume token with it, and a known token brings back its
/// player (id and name). Owns the minting of ids and tokens (through the
/// durable `PlayerRegistry`).
///
/// Not thread-safe: owned by the server's event loop.
final class Greeter {
    /// Version 2's resume tokens, kept across restarts.
    let registry: PlayerRegistry
    private let logger: Logger
    private let out: SessionOutbox
    /// Where fresh tokens come from (the system's generator; tests pass their own).
    private let makeToken: () -> String

    init(registry: PlayerRegistry, logger: Logger, out: SessionOutbox, makeToken: @escaping () -> String = Greeter.randomToken) {
        self.registry = registry
        self.logger = logger
        self.out = out
        self.makeToken = makeToken
    }

    /// A HELLO from a session not greeted yet, its version already checked.
    func greet(_ session: PlayerSession, version: Int, name: String, token: String?) {
        if let token {
            guard let entry = registry.byToken[token] else { return out.refuse(.badToken) }
            // The person is back: a connection still speaking for it (a dead
            // link not noticed yet) is closed; its holds wait for this one to
            // join the room again, as after any dropped link.
            out.add(.supersede(entry.id))
            session.greet(entry.id, name: entry.name, version: version)
            return out.send(.hello(version: version, player: entry.id, name: entry.name, token: token))
        }
        // Reserved on disk before it is handed out: ids are never reused,
        // also across restarts (PROTOCOL.md, *Players are kept*).
        let id: PlayerID
        do {
            id = try registry.issueID()
        } catch {
            logger.error("cannot record a player id: \(error)")
            return out.refuse(.storage("the server could not store the player (\(RoomStoreError.reason(error)))"))
        }
        var issued: String?
        if version >= 2 {
            let fresh = makeToken()
            do {
                try registry.register(token: fresh, PlayerRegistry.Entry(id: id, name: name))
            } catch {
                logger.error("cannot record a resume token: \(error)")
                return out.refuse(.storage("the server could not store the player (\(RoomStoreError.reason(error)))"))
            }
            issued = fresh
        }
        session.greet(id, name: name, version: version)
        out.send(.hello(version: version, player: id, name: name, token: issued))
    }

    /// 128 random bits as 32 hex digits, from the system's generator.
    static func randomToken() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(UInt32.random(in: 0...UInt32.max, using: &rng), radix: 16) }
            .map { String(repeating: "0", count: 8 - $0.count) + $0 }.joined()
    }
}
