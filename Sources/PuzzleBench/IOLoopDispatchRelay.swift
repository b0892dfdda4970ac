import Foundation
import PuzzleSystem

/// The relay on Dispatch: one serial queue, a `DispatchSourceRead` per
/// connection, and a `DispatchSourceWrite` resumed only while that member's
/// output is backed up.
///
/// Batching is the best Dispatch offers without a loop of our own: a read
/// handler appends its lines to the pending broadcast and schedules one
/// `queue.async` flush if none is pending, so handlers that run back to back
/// share one publish and one gathered send per member.
///
/// `@unchecked Sendable`: all mutable state is touched only on `queue`.
final class IOLoopDispatchRelay: IOLoopRelay, @unchecked Sendable {
    let port: UInt16
    private let listener: Socket
    private let queue = DispatchQueue(label: "io-compare dispatch")
    private let room = IOLoopRoom()
    private var acceptSource: DispatchSourceRead?
    private var readSources: [DispatchSourceRead?] = []
    private var writeSources: [DispatchSourceWrite?] = []
    /// Whether a member's write source is resumed (it is suspended otherwise).
    private var writing: [Bool] = []
    private var flushScheduled = false
    let accepted = DispatchSemaphore(value: 0)
    /// Entered per live source, left by its cancel handler: the descriptors are
    /// closed only once Dispatch has let go of them.
    private let sourcesDone = DispatchGroup()

    private init() throws(Errno) {
        listener = try Socket.listen(host: "127.0.0.1", port: 0)
        port = try listener.localPort
    }

    static func start() throws(Errno) -> IOLoopDispatchRelay {
        let relay = try IOLoopDispatchRelay()
        relay.queue.sync { relay.startAccepting() }
        return relay
    }

    func stop() -> Int {
        let sockets: [Socket] = queue.sync {
            acceptSource?.cancel()
            for index in room.members.indices { cancelSources(index) }
            return room.members.map(\.socket)
        }
        sourcesDone.wait()
        for socket in sockets { try? socket.close() }
        try? listener.close()
        return queue.sync { room.linesRelayed }
    }

    private func startAccepting() {
        let source = DispatchSource.makeReadSource(fileDescriptor: listener.descriptor.rawValue, queue: queue)
        source.setEventHandler { [unowned self] in acceptAll() }
        sourcesDone.enter()
        source.setCancelHandler { [sourcesDone] in sourcesDone.leave() }
        acceptSource = source
        source.resume()
    }

    private func acceptAll() {
        while case .accepted(let socket, _)? = try? listener.accept() {
            let index = room.add(socket)
            let source = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor.rawValue, queue: queue)
            source.setEventHandler { [unowned self] in readable(index) }
            sourcesDone.enter()
            source.setCancelHandler { [sourcesDone] in sourcesDone.leave() }
            readSources.append(source)
            writeSources.append(nil)
            writing.append(false)
            source.resume()
            accepted.signal()
        }
    }

    private func readable(_ index: Int) {
        switch room.read(member: index) {
        case .closed:
            close(index)
        case .wouldBlock:
            break
        case .data:
            if !flushScheduled {
                flushScheduled = true
                queue.async { [unowned self] in flushAll() }
            }
        }
    }

    private func flushAll() {
        flushScheduled = false
        guard room.publish() else { return }
        for index in room.members.indices where room.members[index].open && !writing[index] {
            flush(index)
        }
    }

    private func flush(_ index: Int) {
        switch room.flush(member: index) {
        case .closed:
            close(index)
        case .backedUp where !writing[index]:
            writing[index] = true
            writeSource(index).resume()
        case .drained where writing[index]:
            writing[index] = false
            writeSources[index]?.suspend()
        default:
            break
        }
    }

    /// The member's write source, created (suspended) on first need.
    private func writeSource(_ index: Int) -> DispatchSourceWrite {
        if let source = writeSources[index] { return source }
        let source = DispatchSource.makeWriteSource(fileDescriptor: room.members[index].socket.descriptor.rawValue, queue: queue)
        source.setEventHandler { [unowned self] in flush(index) }
        sourcesDone.enter()
        source.setCancelHandler { [sourcesDone] in sourcesDone.leave() }
        writeSources[index] = source
        return source
    }

    private func close(_ index: Int) {
        guard room.members[index].open else { return }
        room.markClosed(member: index)
        // The socket is closed by `stop()` after the cancel handlers ran.
        cancelSources(index)
    }

    private func cancelSources(_ index: Int) {
        if let source = readSources[index] {
            source.cancel()
            readSources[index] = nil
        }
        if let source = writeSources[index] {
            source.cancel()
            // A cancelled source runs its cancel handler only once resumed,
            // and releasing a suspended source traps.
            if !writing[index] { source.resume() }
            writing[index] = false
            writeSources[index] = nil
        }
    }
}
