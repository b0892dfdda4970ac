#if canImport(Glibc)
import Glibc
#endif

extension Socket {
    /// Upper bound on buffers handed to one sendmsg; the rest go next call.
    /// Far below IOV_MAX (1024), and enough to fill any socket buffer.
    public static let maxBuffersPerSend = 64

    /// Gathered write: sends `buffers` back to back with one sendmsg(2),
    /// skipping the first `firstBufferOffset` bytes of the first buffer (the
    /// part an earlier partial send already wrote).
    ///
    /// Uses MSG_NOSIGNAL, so a closed peer is `Errno.brokenPipe`, never SIGPIPE.
    /// At most `maxBuffersPerSend` buffers are attempted per call.
    ///
    /// - Returns: `.processed(n)` with the total bytes written (possibly
    ///   fewer than offered), or `.wouldBlock` when the send buffer is full.
    public func send<Buffers: Collection<[UInt8]>>(_ buffers: Buffers, firstBufferOffset: Int = 0) throws(Errno) -> IOResult {
        precondition(firstBufferOffset >= 0, "negative offset")
        let slots = Swift.min(buffers.count, Socket.maxBuffersPerSend)
        return try withUnsafeTemporaryAllocation(of: iovec.self, capacity: Swift.max(slots, 1)) { iovecs throws(Errno) in
            try gather(buffers, at: buffers.startIndex, offset: firstBufferOffset, into: iovecs, filled: 0)
        }
    }

    /// Gathered write of raw buffers with one sendmsg(2) (MSG_NOSIGNAL), at
    /// most `maxBuffersPerSend` of them: for callers that keep their bytes in
    /// storage of their own and must not copy them into arrays first.
    public func send(buffers: UnsafeBufferPointer<UnsafeRawBufferPointer>) throws(Errno) -> IOResult {
        let slots = Swift.max(1, Swift.min(buffers.count, Socket.maxBuffersPerSend))
        return try withUnsafeTemporaryAllocation(of: iovec.self, capacity: slots) { iovecs throws(Errno) in
            var filled = 0
            for buffer in buffers where !buffer.isEmpty && filled < slots {
                iovecs[filled] = iovec(iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress), iov_len: buffer.count)
                filled += 1
            }
            return try send(iovecs: UnsafeBufferPointer(rebasing: iovecs[..<filled]))
        }
    }

    /// Sends as much of `bytes` as fits now (MSG_NOSIGNAL).
    public func send(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> IOResult {
        var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
        return try withUnsafeMutablePointer(to: &vector) { pointer throws(Errno) in
            try send(iovecs: UnsafeBufferPointer(start: pointer, count: 1))
        }
    }

    /// Sends as much of `bytes` as fits now (MSG_NOSIGNAL).
    public func send(_ bytes: [UInt8]) throws(Errno) -> IOResult {
        try send(CollectionOfOne(bytes))
    }

    /// Receives at most `buffer.count` bytes.
    ///
    /// - Returns: `.processed(0)` when the peer has closed its side.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> IOResult {
        try ioResult { Syscall.recv(descriptor.rawValue, buffer.baseAddress, buffer.count, 0) }
    }

    /// Receives at most `maxBytes` and appends them to `bytes`.
    public func receive(appendingTo bytes: inout [UInt8], maxBytes: Int = 64 * 1024) throws(Errno) -> IOResult {
        try FileDescriptor.appending(to: &bytes, maxBytes: maxBytes) { (buffer) throws(Errno) in
            try receive(into: buffer)
        }
    }

    /// One sendmsg over prepared iovecs.
    func send(iovecs: UnsafeBufferPointer<iovec>) throws(Errno) -> IOResult {
        var message = msghdr()
        message.msg_iov = UnsafeMutablePointer(mutating: iovecs.baseAddress)
        message.msg_iovlen = iovecs.count
        return try ioResult { Syscall.sendmsg(descriptor.rawValue, &message, Int32(MSG_NOSIGNAL)) }
    }

    /// Pins each array's storage with nested withUnsafeBytes (the pointers are
    /// only valid inside), recording an iovec per level, and sends at the bottom.
    private func gather<Buffers: Collection<[UInt8]>>(
        _ buffers: Buffers, at index: Buffers.Index, offset: Int,
        into iovecs: UnsafeMutableBufferPointer<iovec>, filled: Int
    ) throws(Errno) -> IOResult {
        if index == buffers.endIndex || filled == Socket.maxBuffersPerSend {
            return try send(iovecs: UnsafeBufferPointer(rebasing: iovecs[..<filled]))
        }
        let next = buffers.index(after: index)
        let result: Result<IOResult, Errno> = buffers[index].withUnsafeBytes { whole in
            precondition(offset <= whole.count, "offset beyond first buffer")
            let part = UnsafeRawBufferPointer(rebasing: whole[offset...])
            var used = filled
            if !part.isEmpty {
                iovecs[used] = iovec(iov_base: UnsafeMutableRawPointer(mutating: part.baseAddress), iov_len: part.count)
                used += 1
            }
            return Result { () throws(Errno) in try gather(buffers, at: next, offset: 0, into: iovecs, filled: used) }
        }
        return try result.get()
    }
}
