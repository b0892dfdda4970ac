import Glibc
import Testing
@testable import PuzzleSystem

/// A pseudo-terminal pair opened without becoming the controlling terminal.
struct TerminalTestPTY {
    let master: Int32
    let slave: Int32

    init() throws {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw TerminalError.system(call: "open /dev/ptmx", errno: Errno(rawValue: errno)) }
        // TIOCSPTLCK / TIOCGPTN: Swift cannot import these _IOW/_IOR macros (posix_openpt,
        // unlockpt and ptsname are not exported by the Glibc module either). Values are the
        // asm-generic ones used by x86_64 and aarch64.
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, UInt(0x4004_5431), &unlock) == 0, ioctl(master, UInt(0x8004_5430), &number) == 0 else {
            Glibc.close(master)
            throw TerminalError.system(call: "ioctl ptmx", errno: Errno(rawValue: errno))
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            Glibc.close(master)
            throw TerminalError.system(call: "open pts", errno: Errno(rawValue: errno))
        }
    }

    func closeBoth() {
        Glibc.close(slave)
        Glibc.close(master)
    }

    func attributes() -> termios {
        var attributes = termios()
        _ = tcgetattr(slave, &attributes)
        return attributes
    }

    func setWindowSize(rows: UInt16, cols: UInt16) {
        var size = winsize(ws_row: rows, ws_col: cols, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }
}

/// Reads from `fd` until `count` bytes arrived or 10 s passed.
func terminalTestRead(_ fd: Int32, count: Int, timeoutMilliseconds: Int32 = 10_000) -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var remaining = timeoutMilliseconds
    while result.count < count && remaining > 0 {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let started = terminalTestNow()
        let ready = poll(&descriptor, 1, remaining)
        remaining -= Int32(terminalTestNow() - started)
        guard ready > 0 else { continue }
        let n = read(fd, &buffer, min(buffer.count, count - result.count))
        if n <= 0 { break }
        result += buffer[0..<n]
    }
    return result
}

func terminalTestNow() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
}

func sameAttributes(_ a: termios, _ b: termios) -> Bool {
    var a = a
    var b = b
    return memcmp(&a, &b, MemoryLayout<termios>.size) == 0
}

/// Raises `signal` in the calling thread with it unblocked for the moment. Test threads are
/// dispatch workers, which block nearly every signal; a blocked signal would stay pending.
func raiseUnblocked(_ signal: Int32) -> Int32 {
    var set = sigset_t()
    var previous = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    _ = pthread_sigmask(SIG_UNBLOCK, &set, &previous)
    defer { _ = pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return raise(signal)
}

func currentHandlerBits(_ signal: Int32) -> Int {
    var action = sigaction()
    _ = sigaction(signal, nil, &action)
    return unsafeBitCast(action.__sigaction_handler, to: Int.self)
}

/// Raw mode is process-wide, so these run one at a time.
@Suite(.serialized) struct TerminalModeTests {
    @Test func isTerminalTellsTTYsFromPipes() throws {
        let pty = try TerminalTestPTY()
        defer { pty.closeBoth() }
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(TerminalMode.isTerminal(pty.slave))
        #expect(!TerminalMode.isTerminal(fds[0]))
    }

    @Test func windowSizeReadsTheTerminal() throws {
        let pty = try TerminalTestPTY()
        defer { pty.closeBoth() }
        #expect(TerminalMode.windowSize(pty.slave) == nil)  // a fresh pty is 0×0: unknown
        pty.setWindowSize(rows: 24, cols: 80)
        let size = TerminalMode.windowSize(pty.slave)
        #expect(size?.rows == 24)
        #expect(size?.cols == 80)
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(TerminalMode.windowSize(fds[0]) == nil)
    }

    @Test func refusesNonTerminals() {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(throws: TerminalError.notATerminal(fd: fds[0])) {
            _ = try TerminalMode.enterRaw(fd: fds[0])
        }
    }

    @Test func enterRawThenRestoreExactly() throws {
        let pty = try TerminalTestPTY()
        defer { pty.closeBoth() }
        let original = pty.attributes()
        let mode = try TerminalMode.enterRaw(fd: pty.slave, restoreOutput: Array("bye".utf8))
        #expect(mode.isActive)

        let raw = pty.attributes()
        #expect(raw.c_lflag & tcflag_t(ECHO) == 0)
        #expect(raw.c_lflag & tcflag_t(ICANON) == 0)
        #expect(raw.c_lflag & tcflag_t(ISIG) == 0)
        #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
        #expect(raw.c_oflag & tcflag_t(OPOST) != 0)
        let vmin = withUnsafeBytes(of: raw.c_cc) { $0[Int(VMIN)] }
        #expect(vmin == 1)
        #expect(!sameAttributes(original, raw))

        #expect(throws: TerminalError.alreadyActive) {
            _ = try TerminalMode.enterRaw(fd: pty.slave)
        }

        mode.restore()
        #expect(!mode.isActive)
        #expect(sameAttributes(original, pty.attributes()))
        #expect(terminalTestRead(pty.master, count: 3) == Array("bye".utf8))
        mode.restore()  // second call is a no-op
        #expect(sameAttributes(original, pty.attributes()))
    }

    @Test func rawInputArrivesUnbufferedAndUnechoed() throws {
        let pty = try TerminalTestPTY()
        defer { pty.closeBoth() }
        let mode = try TerminalMode.enterRaw(fd: pty.slave)
        defer { mode.restore() }

        // Ctrl-C and a CR with no newline after: canonical mode or ISIG would hold or eat them.
        var input: [UInt8] = [0x03, 0x61, 0x0D]
        #expect(write(pty.master, &input, input.count) == 3)
        #expect(terminalTestRead(pty.slave, count: 3) == [0x03, 0x61, 0x0D])

        // Output processing stays on ("\n" becomes "\r\n"), and nothing was echoed before it.
        var output: [UInt8] = [0x5A, 0x0A]
        #expect(write(pty.slave, &output, output.count) == 2)
        #expect(terminalTestRead(pty.master, count: 3) == [0x5A, 0x0D, 0x0A])
    }

    @Test func signalHandlersAreInstalledAndPutBack() throws {
        let pty = try TerminalTestPTY()
        defer { pty.closeBoth() }
        let signals = TerminalMode.restoringSignals + TerminalMode.crashSignals
        let before = signals.map(currentHandlerBits)
        let mode = try TerminalMode.enterRaw(fd: pty.slave)
        let during = signals.map(currentHandlerBits)
        mode.restore()
        let after = signals.map(currentHandlerBits)
        #expect(zip(before, during).allSatisfy { $0 != $1 })
        #expect(before == after)
    }

    @Test func emergencyRestorePutsBackAttributesAndWritesOutput() throws {
        let pty = try TerminalTestPTY()
        defer { pty.closeBoth() }
        let original = pty.attributes()
        let mode = try TerminalMode.enterRaw(fd: pty.slave, restoreOutput: [0x1B, 0x5B, 0x3F, 0x32, 0x35, 0x68])
        TerminalMode.emergencyRestore()
        #expect(!mode.isActive)
        #expect(sameAttributes(original, pty.attributes()))
        #expect(terminalTestRead(pty.master, count: 6) == [0x1B, 0x5B, 0x3F, 0x32, 0x35, 0x68])
        mode.restore()  // puts the signal dispositions back; the terminal is already restored
        #expect(sameAttributes(original, pty.attributes()))
    }

    /// SIGTERM, and the crash signals (a Swift trap, an abort, a bad access).
    @Test(arguments: [SIGTERM, SIGTRAP, SIGILL, SIGABRT, SIGSEGV])
    func fatalSignalRestoresTheTerminalAndStillKills(_ signal: Int32) throws {
        let pty = try TerminalTestPTY()
        defer { pty.closeBoth() }
        let original = pty.attributes()
        let mode = try TerminalMode.enterRaw(fd: pty.slave, restoreOutput: Array("restored".utf8))
        defer { mode.restore() }

        // The child only unblocks and raises: everything else was set up before fork, so it runs
        // no code that is unsafe after forking a multithreaded process.
        let child = fork()
        if child == 0 {
            _ = raiseUnblocked(signal)
            _exit(99)
        }
        #expect(child > 0)
        var status: Int32 = 0
        let deadline = terminalTestNow() + 10_000
        var reaped: pid_t = 0
        while reaped == 0 && terminalTestNow() < deadline {
            reaped = waitpid(child, &status, WNOHANG)
            if reaped == 0 {
                var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
                nanosleep(&pause, nil)
            }
        }
        #expect(reaped == child)
        let terminatingSignal = status & 0x7F  // WTERMSIG; 0 would mean a normal exit
        #expect(terminatingSignal == signal)
        #expect(sameAttributes(original, pty.attributes()))
        #expect(terminalTestRead(pty.master, count: 8) == Array("restored".utf8))
    }
}
