#if canImport(Glibc)
import Glibc
#endif

extension Socket {
    /// SO_REUSEADDR: lets a restarted server bind while old connections linger in TIME_WAIT.
    public func setReuseAddress(_ on: Bool) throws(Errno) {
        try setOption(level: SOL_SOCKET, name: SO_REUSEADDR, value: on ? 1 : 0)
    }

    /// TCP_NODELAY: send small writes at once instead of coalescing (Nagle).
    public func setNoDelay(_ on: Bool = true) throws(Errno) {
        try setOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: on ? 1 : 0)
    }

    /// SO_SNDBUF. The kernel doubles the value and applies a minimum; read
    /// back the effective size with `sendBufferSize()`.
    public func setSendBufferSize(_ bytes: Int) throws(Errno) {
        try setOption(level: SOL_SOCKET, name: SO_SNDBUF, value: Int32(clamping: bytes))
    }

    /// SO_RCVBUF, with the same kernel adjustments as `setSendBufferSize`.
    public func setReceiveBufferSize(_ bytes: Int) throws(Errno) {
        try setOption(level: SOL_SOCKET, name: SO_RCVBUF, value: Int32(clamping: bytes))
    }

    /// Closes the connection abortively: SO_LINGER with a zero timeout, then
    /// close, so the kernel drops unsent bytes and sends RST instead of keeping
    /// them queued for a peer that does not read (a slow reader's backlog).
    public func abort() throws(Errno) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = try valueOrThrow {
            Syscall.setsockopt(descriptor.rawValue, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
        try close()
    }

    /// The effective SO_SNDBUF.
    public func sendBufferSize() throws(Errno) -> Int {
        Int(try option(level: SOL_SOCKET, name: SO_SNDBUF))
    }

    /// The effective SO_RCVBUF.
    func receiveBufferSize() throws(Errno) -> Int {
        Int(try option(level: SOL_SOCKET, name: SO_RCVBUF))
    }

    /// SO_ERROR: the socket's pending asynchronous error (cleared by reading), if any.
    public func pendingError() throws(Errno) -> Errno? {
        let code = try option(level: SOL_SOCKET, name: SO_ERROR)
        return code == 0 ? nil : Errno(rawValue: code)
    }

    private func setOption(level: Int32, name: Int32, value: Int32) throws(Errno) {
        var value = value
        _ = try valueOrThrow {
            Syscall.setsockopt(descriptor.rawValue, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    private func option(level: Int32, name: Int32) throws(Errno) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try valueOrThrow { Syscall.getsockopt(descriptor.rawValue, level, name, &value, &length) }
        return value
    }
}
