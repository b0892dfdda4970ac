#if canImport(Glibc)
import Glibc
#endif

/// Process-wide SIGWINCH notification: the handler sets a flag and writes a byte to a pipe, so
/// an event loop can `poll` `readFileDescriptor` next to its sockets and the terminal.
public enum TerminalResizeMonitor {
    /// The read end of the notification pipe (non-blocking, close-on-exec), or nil when not
    /// installed. It becomes readable after a resize; call `consumePending()` to reset it.
    public static var readFileDescriptor: Int32? {
        let state = terminalResizeState.pointee
        return state.installed ? state.readFD : nil
    }

    /// Installs the SIGWINCH handler (once; later calls return the same descriptor).
    /// - Returns: `readFileDescriptor`.
    @discardableResult
    public static func install() throws(TerminalError) -> Int32 {
        let state = terminalResizeState
        if state.pointee.installed { return state.pointee.readFD }
        var fds: [Int32] = [-1, -1]
        _ = try TerminalError.check("pipe") { Syscall.pipe(&fds) }
        for fd in fds {
            // Non-blocking on both ends: the handler must never block, and draining must stop.
            _ = Syscall.setFlags(fd, Syscall.getFlags(fd) | O_NONBLOCK)
            _ = Syscall.setDescriptorFlags(fd, FD_CLOEXEC)
        }
        state.pointee.readFD = fds[0]
        state.pointee.writeFD = fds[1]
        state.pointee.pending = 0

        var action = sigaction()
        action.__sigaction_handler.sa_handler = terminalResizeHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        guard Syscall.signalAction(SIGWINCH, &action, &state.pointee.previous) == 0 else {
            let error = Errno.current
            _ = Syscall.close(fds[0])
            _ = Syscall.close(fds[1])
            throw .system(call: "sigaction", errno: error)
        }
        state.pointee.installed = true
        return fds[0]
    }

    /// Whether a resize happened since the last call; clears the flag and drains the pipe.
    public static func consumePending() -> Bool {
        let state = terminalResizeState
        guard state.pointee.installed else { return false }
        // Clear first: a resize arriving while draining sets it again and is not lost.
        let wasPending = state.pointee.pending != 0
        state.pointee.pending = 0
        var sink = [UInt8](repeating: 0, count: 64)
        var drained = false
        while Syscall.read(state.pointee.readFD, &sink, sink.count) > 0 { drained = true }
        return wasPending || drained
    }

    /// Restores the previous SIGWINCH disposition and closes the pipe.
    public static func uninstall() {
        let state = terminalResizeState
        guard state.pointee.installed else { return }
        _ = Syscall.signalAction(SIGWINCH, &state.pointee.previous, nil)
        state.pointee.installed = false
        _ = Syscall.close(state.pointee.readFD)
        _ = Syscall.close(state.pointee.writeFD)
        state.pointee.readFD = -1
        state.pointee.writeFD = -1
        state.pointee.pending = 0
    }
}

struct TerminalResizeState {
    var installed = false
    var pending: sig_atomic_t = 0
    var readFD: Int32 = -1
    var writeFD: Int32 = -1
    var previous = sigaction()
}

// nonisolated(unsafe): written by the signal handler, which can use neither locks nor actors;
// the handler only stores to `pending` and writes to `writeFD`, both plain memory that is
// allocated once and never freed.
nonisolated(unsafe) let terminalResizeState: UnsafeMutablePointer<TerminalResizeState> = {
    let state = UnsafeMutablePointer<TerminalResizeState>.allocate(capacity: 1)
    state.initialize(to: TerminalResizeState())
    return state
}()

private func terminalResizeHandler(_ signal: Int32) {
    let savedErrno = errno
    let state = terminalResizeState
    state.pointee.pending = 1
    var byte: UInt8 = 1
    // A full pipe already means "resized"; the failed write is fine.
    _ = Syscall.write(state.pointee.writeFD, &byte, 1)
    errno = savedErrno
}
