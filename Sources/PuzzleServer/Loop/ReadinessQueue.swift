import PuzzleSystem

/// What the event loop asks of epoll. The server runs on `EpollQueue`; tests
/// wrap it to make a registration fail, which must close that connection with
/// a logged reason: with level-triggered epoll a registration that did not
/// take is a stall (input never read, output never sent) or a spin.
public protocol ReadinessQueue: AnyObject {
    func register(_ descriptor: FileDescriptor, interest: Interest, token: UInt64) throws(Errno)
    func modify(_ descriptor: FileDescriptor, interest: Interest, token: UInt64) throws(Errno)
    func deregister(_ descriptor: FileDescriptor) throws(Errno)
    func wait(timeoutMillis: Int32) throws(Errno) -> EpollQueue.Events
}

extension EpollQueue: ReadinessQueue {}
