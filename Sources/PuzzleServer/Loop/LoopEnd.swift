/// Why the event loop ends, once it is to end. A shutdown was asked for
/// (`stop()`, SIGINT, SIGTERM): the loop says goodbye to everyone and keeps
/// every room. Or moves could not be made durable (`ServerFailure`): nothing
/// more may be sent, and `run()` throws it. A failure is never turned back
/// into a clean shutdown by a later request to stop.
enum LoopEnd {
    case shutdown
    case failure(ServerFailure)

    /// The failure the loop ends on, if it is one.
    var failure: ServerFailure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
