import PuzzleCore
import PuzzleProtocol

/// The effects the router's parts decide for the request being routed, in
/// order (see `SessionEffect`), shared by the parts so each adds its own.
/// Refusals are counted here, the one place every `ERR` passes.
///
/// Not thread-safe: owned by the server's event loop.
final class SessionOutbox {
    private(set) var effects: [SessionEffect] = []
    private let stats: ServerStats

    init(stats: ServerStats) {
        self.stats = stats
    }

    /// A new request: nothing decided yet (the buffer is kept).
    func reset() {
        effects.removeAll(keepingCapacity: true)
    }

    func add(_ effect: SessionEffect) {
        effects.append(effect)
    }

    /// A reply for the session; a refusal counts as every refusal does.
    func send(_ reply: Reply) {
        if case .error = reply { stats.errorsSent += 1 }
        effects.append(.reply(reply))
    }

    /// An `ERR` reply.
    func refuse(_ error: ProtocolError) {
        send(.error(error))
    }

    func send(_ record: StateRecord) {
        effects.append(.record(record))
    }

    /// Whole lines for this session only; nothing for an empty run.
    func send(lines bytes: [UInt8]) {
        if !bytes.isEmpty { effects.append(.lines(bytes)) }
    }
}
