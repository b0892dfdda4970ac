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
        // Read into scratch space first and append only what arrived: growing the
        // array by maxBytes of zeros on every call costs more than the read itself.
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: maxBytes, alignment: 1)
        defer { scratch.deallocate() }
        let result = try fill(scratch)
        if case .processed(let n) = result, n > 0 {
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<n]))
        }
        return result
    }
}
