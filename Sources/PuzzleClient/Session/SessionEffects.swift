import PuzzleProtocol

/// What a part of the session that owns its state (the upload, the replay
/// fetch) asks the session to do: lines to tell the player, requests to send.
/// The session applies them (`ClientSession.apply`): it alone writes its
/// output and keeps the requests in flight, so each part is a value that a
/// test drives by itself.
struct SessionEffects: Sendable {
    /// A request to send, as `ClientSession.send` takes it.
    struct Send: Hashable, Sendable {
        var request: Request
        var fromUser: Bool
        var successNote: String?
    }

    /// Lines to tell, in order.
    private(set) var lines: [OutputLine] = []
    /// Requests to send, in order.
    private(set) var requests: [Send] = []
    /// A command of the player's failed (it counts in `failedCommands`).
    private(set) var failed = false

    mutating func say(_ kind: OutputLine.Kind, _ text: String, about: OutputLine.Subject? = nil) {
        lines.append(OutputLine(kind: kind, text: text, about: about))
    }

    mutating func send(_ request: Request, fromUser: Bool, successNote: String? = nil) {
        requests.append(Send(request: request, fromUser: fromUser, successNote: successNote))
    }

    /// A command that cannot be done: said as an error, and counted.
    mutating func refuse(_ message: String) {
        failed = true
        say(.error, "error: \(message)")
    }
}
