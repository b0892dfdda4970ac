extension FileDescriptor {
    /// Reads at most `buffer.count` bytes into `buffer`.
    ///
    /// - Returns: `.processed(n)` with `n == 0` at end of file, or `.wouldBlock`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> IOResult {
        try ioResult { Syscall.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads at most `maxBytes` and appends them to `bytes`.
    ///
    /// `bytes` is left unchanged on `.wouldBlock`, end of file, or error.
    public func read(appendingTo bytes: inout [UInt8], maxBytes: Int = 64 * 1024) throws(Errno) -> IOResult {
        try FileDescriptor.appending(to: &bytes, maxBytes: maxBytes) { (buffer) throws(Errno) in
            try read(into: buffer)
        }
    }

    /// Writes as much of `bytes` as the descriptor accepts now.
    ///
    /// On a socket or pipe whose reader is gone this raises SIGPIPE unless
    /// `Signals.ignoreBrokenPipe()` was called; `Socket.send` never does.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> IOResult {
        try ioResult { Syscall.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Writes as much of `bytes` as the descriptor accepts now.
    public func write(_ bytes: [UInt8]) throws(Errno) -> IOResult {
        // Array's closure APIs are untyped `rethrows`; carry the error out as a value.
        try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try write(buffer) } }.get()
    }

    /// Grows `bytes` by `maxBytes`, lets `fill` write into the new tail, then
    /// trims it back to what was actually filled.
    static func appending(to bytes: inout [UInt8], maxBytes: Int,
                          _ fill: (UnsafeMutableRawBufferPointer) throws(Errno) -> IOResult) throws(Errno) -> IOResult {
        precondition(maxBytes > 0, "maxBytes must be positive")
        let oldCount = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: maxBytes))
        let result: Result<IOResult, Errno> = bytes.withUnsafeMutableBytes { whole in
            let tail = UnsafeMutableRawBufferPointer(rebasing: whole[oldCount...])
            do throws(Errno) { return .success(try fill(tail)) } catch { return .failure(error) }
        }
        let filled = (try? result.get())?.byteCount ?? 0
        bytes.removeLast(maxBytes - filled)
        return try result.get()
    }
}
