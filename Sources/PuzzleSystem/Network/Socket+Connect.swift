#if canImport(Glibc)
import Glibc
#endif

extension Socket {
    /// Connects to `host:port` and returns the connected, non-blocking socket.
    ///
    /// The connect itself runs non-blocking and this call waits for it with
    /// poll(2), so the timeout is honoured exactly and the socket never has
    /// to be switched from blocking mode afterwards.
    ///
    /// - Parameters:
    ///   - host: numeric IPv4/IPv6 address or "localhost" (127.0.0.1).
    ///   - timeoutMillis: give up after this long with `Errno.timedOut`; nil waits
    ///     as long as the kernel does.
    /// - Throws: `.connectionRefused`, `.timedOut`, `.invalidArgument` (bad host), ...
    public static func connect(host: String, port: UInt16, timeoutMillis: Int32? = nil) throws(Errno) -> Socket {
        let endpoint = try IPEndpoint(host: host, port: port)
        let socket = try open(family: endpoint.family)
        do throws(Errno) {
            let started = endpoint.withSockAddr { address, length in
                // Not retried: after EINTR the connect carries on in the
                // background, and a second call would only say EALREADY.
                Syscall.connect(socket.descriptor.rawValue, address, length) == 0 ? nil : Errno.current
            }
            switch started {
            case nil:
                return socket
            case let error? where error == .inProgress || error == .interrupted:
                try socket.awaitConnected(timeoutMillis: timeoutMillis)
                return socket
            case let error?:
                throw error
            }
        } catch {
            try? socket.close()
            throw error
        }
    }

    /// Waits for an in-progress connect to finish and reports its outcome.
    private func awaitConnected(timeoutMillis: Int32?) throws(Errno) {
        let deadline = timeoutMillis.map { MonotonicClock.nowMilliseconds + Int64($0) }
        while true {
            var remaining: Int32 = -1
            if let deadline {
                remaining = Int32(clamping: max(0, deadline - MonotonicClock.nowMilliseconds))
            }
            var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLOUT), revents: 0)
            let ready = Syscall.poll(&entry, 1, remaining)
            if ready == -1 {
                let error = Errno.current
                if error == .interrupted { continue }  // recompute the remaining time
                throw error
            }
            if ready == 0 {
                if remaining == 0 { throw .timedOut }
                continue
            }
            if let error = try pendingError() { throw error }
            return
        }
    }
}
