import Glibc

/// Everything the signal handler and the `atexit` hook need, kept outside Swift objects so
/// that restoring the terminal from a handler only reads plain memory and calls
/// async-signal-safe functions (`write`, `tcsetattr`, `sigaction`, `raise`).
struct TerminalRestoreState {
    /// Non-zero while `saved` must be put back on `fd`; cleared by whoever restores first.
    var armed: sig_atomic_t = 0
    var fd: Int32 = -1
    var saved = termios()
    /// Bytes written before the attributes are restored (show cursor, leave alternate screen...).
    var outputCount = 0
    static let outputCapacity = 128
}

// nonisolated(unsafe): the signal handler cannot take locks or touch actors, so this state is
// plain memory. Only the thread calling enterRaw/restore writes it, and it does so with the
// handled signals blocked; the handler reads it only after `armed` was set by that thread.
// The pointers are allocated once and never freed, so the handler never sees a dangling one.
nonisolated(unsafe) let terminalRestoreState: UnsafeMutablePointer<TerminalRestoreState> = {
    let state = UnsafeMutablePointer<TerminalRestoreState>.allocate(capacity: 1)
    state.initialize(to: TerminalRestoreState())
    return state
}()

// nonisolated(unsafe): see terminalRestoreState; a fixed buffer so the handler never allocates.
nonisolated(unsafe) let terminalRestoreOutput: UnsafeMutablePointer<UInt8> = {
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: TerminalRestoreState.outputCapacity)
    buffer.initialize(repeating: 0, count: TerminalRestoreState.outputCapacity)
    return buffer
}()

// nonisolated(unsafe): previous dispositions, touched only by the enterRaw/restore thread.
nonisolated(unsafe) var terminalPreviousActions: [(Int32, sigaction)] = []
// nonisolated(unsafe): set once by the enterRaw thread; the atexit hook is process-wide.
nonisolated(unsafe) var terminalAtExitRegistered = false

extension TerminalMode {
    /// The signals after which the terminal is restored before the process dies.
    static let restoringSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// A crash (a Swift trap is SIGILL or SIGTRAP) also gives the terminal back, mouse
    /// reporting off, before the process dies of it. Not blocked around updates: a
    /// synchronous fault cannot wait.
    static let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// Writes the saved restore output and puts the saved attributes back, once.
    ///
    /// Async-signal-safe: called from the signal handler and from `atexit`.
    static func emergencyRestore() {
        let state = terminalRestoreState
        guard state.pointee.armed != 0 else { return }
        state.pointee.armed = 0
        let savedErrno = errno
        var offset = 0
        var attempts = 0
        // Bounded: a stuck or non-blocking terminal must not hang a dying process.
        while offset < state.pointee.outputCount && attempts < 16 {
            attempts += 1
            let n = Syscall.write(state.pointee.fd, terminalRestoreOutput + offset, state.pointee.outputCount - offset)
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        _ = Syscall.tcsetattr(state.pointee.fd, TCSANOW, &state.pointee.saved)
        errno = savedErrno
    }

    /// Installs the restoring handler for `restoringSignals`, remembering the old dispositions.
    static func installSignalHandlers() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = terminalSignalHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        terminalPreviousActions = []
        for signal in restoringSignals + crashSignals {
            var previous = sigaction()
            if Syscall.signalAction(signal, &action, &previous) == 0 {
                terminalPreviousActions.append((signal, previous))
            }
        }
        if !terminalAtExitRegistered {
            terminalAtExitRegistered = true
            _ = atexit { TerminalMode.emergencyRestore() }
        }
    }

    /// Puts back the dispositions `installSignalHandlers` replaced.
    static func uninstallSignalHandlers() {
        for (signal, previous) in terminalPreviousActions {
            var action = previous
            _ = Syscall.signalAction(signal, &action, nil)
        }
        terminalPreviousActions = []
    }

    /// Runs `body` with `restoringSignals` blocked so a handler never sees half-updated state.
    static func withRestoringSignalsBlocked<T>(_ body: () throws(TerminalError) -> T) throws(TerminalError) -> T {
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        for signal in restoringSignals { sigaddset(&blocked, signal) }
        _ = Syscall.pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { _ = Syscall.pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }
}

/// Restores the terminal, then dies of the same signal with its default disposition so the
/// parent sees the real cause. The signal stays blocked while the handler runs, so the re-raised
/// one is delivered as soon as the handler returns.
private func terminalSignalHandler(_ signal: Int32) {
    TerminalMode.emergencyRestore()
    var fallback = sigaction()
    fallback.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&fallback.sa_mask)
    _ = Syscall.signalAction(signal, &fallback, nil)
    _ = Syscall.raise(signal)
}
