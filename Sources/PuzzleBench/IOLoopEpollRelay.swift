import Foundation
import PuzzleSystem

/// The relay on the puzzle server's design: one thread, a level-triggered
/// `EpollQueue`; each turn reads every ready socket once, then publishes the
/// turn's lines as one buffer and flushes every member with one gathered send.
///
/// `@unchecked Sendable`: the loop state is touched only by the loop thread;
/// other threads use the waker and the semaphores, which are thread-safe.
final class IOLoopEpollRelay: IOLoopRelay, @unchecked Sendable {
    let port: UInt16
    private let listener: Socket
    private let queue: EpollQueue
    private let waker: Waker
    private let room = IOLoopRoom()
    /// Members waiting for EPOLLOUT (interest includes .writable).
    private var waitingForWritable: [Bool] = []
    private var stopping = false
    let accepted = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    private static let wakerToken: UInt64 = .max
    private static let listenerToken: UInt64 = .max - 1

    private init() throws(Errno) {
        listener = try Socket.listen(host: "127.0.0.1", port: 0)
        port = try listener.localPort
        queue = try EpollQueue()
        waker = try Waker()
        try queue.register(waker.descriptor, interest: .readable, token: Self.wakerToken)
        try queue.register(listener.descriptor, interest: .readable, token: Self.listenerToken)
    }

    static func start() throws(Errno) -> IOLoopEpollRelay {
        let relay = try IOLoopEpollRelay()
        let thread = Thread { relay.run() }
        thread.name = "io-compare epoll"
        thread.start()
        return relay
    }

    func stop() -> Int {
        waker.wake()
        finished.wait()
        return room.linesRelayed
    }

    private func run() {
        while !stopping {
            guard let events = try? queue.wait(timeoutMillis: -1) else { break }
            for event in events {
                switch event.token {
                case Self.wakerToken: stopping = true
                case Self.listenerToken: acceptAll()
                default:
                    let index = Int(event.token)
                    if event.readable || event.hangup || event.error {
                        if room.read(member: index) == .closed { close(index) }
                    }
                    if event.writable && room.members[index].open { flush(index) }
                }
            }
            // End of the turn: the turn's lines are one buffer, and each member
            // gets one gathered send (those waiting for EPOLLOUT wait for it).
            if room.publish() {
                for index in room.members.indices where room.members[index].open && !waitingForWritable[index] {
                    flush(index)
                }
            }
        }
        for index in room.members.indices where room.members[index].open { close(index) }
        try? queue.deregister(listener.descriptor)
        try? listener.close()
        queue.close()
        try? waker.close()
        finished.signal()
    }

    private func acceptAll() {
        while case .accepted(let socket, _)? = try? listener.accept() {
            let index = room.add(socket)
            waitingForWritable.append(false)
            if (try? queue.register(socket.descriptor, interest: .readable, token: UInt64(index))) == nil {
                close(index)
            }
            accepted.signal()
        }
    }

    private func flush(_ index: Int) {
        switch room.flush(member: index) {
        case .closed:
            close(index)
        case .backedUp where !waitingForWritable[index]:
            waitingForWritable[index] = true
            try? queue.modify(room.members[index].socket.descriptor, interest: .both, token: UInt64(index))
        case .drained where waitingForWritable[index]:
            waitingForWritable[index] = false
            try? queue.modify(room.members[index].socket.descriptor, interest: .readable, token: UInt64(index))
        default:
            break
        }
    }

    private func close(_ index: Int) {
        guard room.members[index].open else { return }
        let socket = room.members[index].socket
        room.markClosed(member: index)
        try? queue.deregister(socket.descriptor)
        try? socket.close()
    }
}
