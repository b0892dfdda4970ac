import PuzzleLink
import PuzzleProtocol

extension LineClient {
    /// Sends `request` and reads its reply with `ReplyCodec`: the reply and
    /// the `S` lines before it, or a `BenchFailure` when the server refuses
    /// it, says goodbye, or answers with no reply this version writes.
    @discardableResult
    func answer(_ request: Request, timeout: Double = 10) throws -> (reply: Reply, state: [String]) {
        let (line, state) = try self.request(request, timeout: timeout)
        return (try Self.success(line, to: request.verb), state)
    }

    /// `line` read as a reply that is no refusal, else a `BenchFailure` naming `what`.
    static func success(_ line: String, to what: String) throws -> Reply {
        guard let reply = ReplyCodec.decode(line[...]) else {
            if let bye = WireGoodbye.decode(line[...]) { throw BenchFailure("\(what): the server said BYE \(bye)") }
            throw BenchFailure("\(what): no reply but \(line.prefix(120))")
        }
        if case .error(let error) = reply { throw BenchFailure("\(what) refused: \(error)") }
        return reply
    }
}
