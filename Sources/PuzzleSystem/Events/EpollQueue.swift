#if canImport(Glibc)
import Glibc
#endif
import CSystem

/// A readiness notifier over Linux epoll, **level-triggered**.
///
/// Not thread-safe: one event-loop thread owns it. To wake it from elsewhere,
/// register a `Waker`.
///
/// Level-triggered means a descriptor is reported on every `wait` for as long
/// as it stays ready, so a loop that reads only part of the available data (to
/// be fair between connections) loses nothing. The price is that interest in
/// `.writable` must be dropped (via `modify`) once the output queue is empty,
/// or every `wait` returns at once. With `.readable` interest EPOLLRDHUP is
/// requested too, so a peer's half-close shows up as `hangup`; drop `.readable`
/// after seeing it. (EPOLLHUP and EPOLLERR are always reported by the kernel.)
public final class EpollQueue {
    /// The epoll descriptor itself.
    public let descriptor: FileDescriptor
    private let buffer: UnsafeMutableBufferPointer<epoll_event>
    private var isOpen = true

    /// - Parameter maxEventsPerWait: size of the reused event buffer; more
    ///   ready descriptors are simply reported by the next `wait`.
    public init(maxEventsPerWait: Int = 256) throws(Errno) {
        precondition(maxEventsPerWait > 0, "maxEventsPerWait must be positive")
        let fd = try valueOrThrow { Syscall.epoll_create1(Int32(EPOLL_CLOEXEC)) }
        descriptor = FileDescriptor(rawValue: fd)
        buffer = .allocate(capacity: maxEventsPerWait)
        buffer.initialize(repeating: epoll_event())
    }

    deinit {
        close()
        buffer.deallocate()
    }

    public func register(_ descriptor: FileDescriptor, interest: Interest, token: UInt64) throws(Errno) {
        try control(EPOLL_CTL_ADD, descriptor, interest: interest, token: token)
    }

    public func modify(_ descriptor: FileDescriptor, interest: Interest, token: UInt64) throws(Errno) {
        try control(EPOLL_CTL_MOD, descriptor, interest: interest, token: token)
    }

    public func deregister(_ descriptor: FileDescriptor) throws(Errno) {
        _ = try valueOrThrow { Syscall.epoll_ctl(self.descriptor.rawValue, EPOLL_CTL_DEL, descriptor.rawValue, nil) }
    }

    /// Waits for readiness, filling the internal buffer (no allocation).
    ///
    /// A signal interrupting the wait (EINTR) yields an empty result instead
    /// of a retry: the caller's loop then recomputes its timers, which a blind
    /// retry with the original timeout would get wrong.
    public func wait(timeoutMillis: Int32) throws(Errno) -> Events {
        precondition(isOpen, "wait on a closed EpollQueue")
        let count = Syscall.epoll_wait(descriptor.rawValue, buffer.baseAddress!, Int32(clamping: buffer.count), timeoutMillis)
        if count == -1 {
            let error = Errno.current
            if error == .interrupted { return Events(base: UnsafeBufferPointer(rebasing: buffer[..<0])) }
            throw error
        }
        return Events(base: UnsafeBufferPointer(rebasing: buffer[..<Int(count)]))
    }

    public func close() {
        guard isOpen else { return }
        isOpen = false
        try? descriptor.close()
    }

    private func control(_ operation: Int32, _ target: FileDescriptor, interest: Interest, token: UInt64) throws(Errno) {
        var event = epoll_event()
        var flags: UInt32 = 0
        // RDHUP only with read interest: a caller that stopped reading after a
        // half-close must not be woken for it again and again (level-triggered).
        if interest.contains(.readable) { flags |= csystem_epoll_in() | csystem_epoll_rdhup() }
        if interest.contains(.writable) { flags |= csystem_epoll_out() }
        event.events = flags
        event.data.u64 = token
        _ = try valueOrThrow { Syscall.epoll_ctl(descriptor.rawValue, operation, target.rawValue, &event) }
    }
}

extension EpollQueue {
    /// A view of the events from the last `wait`; do not keep it past the next one.
    public struct Events: RandomAccessCollection {
        let base: UnsafeBufferPointer<epoll_event>

        public var startIndex: Int { 0 }
        public var endIndex: Int { base.count }

        public subscript(position: Int) -> ReadinessEvent {
            let raw = base[position]
            let flags = raw.events
            return ReadinessEvent(
                token: raw.data.u64,
                readable: flags & csystem_epoll_in() != 0,
                writable: flags & csystem_epoll_out() != 0,
                hangup: flags & (csystem_epoll_hup() | csystem_epoll_rdhup()) != 0,
                error: flags & csystem_epoll_err() != 0)
        }
    }
}
