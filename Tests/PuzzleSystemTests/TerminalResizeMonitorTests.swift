import Glibc
import Testing
@testable import PuzzleSystem

// Synchronous on purpose: raise(3) delivers to the calling thread, whose handler has run by the
// time raiseUnblocked returns.
@Suite(.serialized) struct TerminalResizeMonitorTests {
    @Test func resizeSignalMakesThePipeReadable() throws {
        let fd = try TerminalResizeMonitor.install()
        defer { TerminalResizeMonitor.uninstall() }
        #expect(TerminalResizeMonitor.readFileDescriptor == fd)
        #expect(try TerminalResizeMonitor.install() == fd)
        _ = TerminalResizeMonitor.consumePending()
        #expect(!TerminalResizeMonitor.consumePending())

        #expect(raiseUnblocked(SIGWINCH) == 0)
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 10_000) == 1)
        #expect(TerminalResizeMonitor.consumePending())
        #expect(!TerminalResizeMonitor.consumePending())
        descriptor.revents = 0
        #expect(poll(&descriptor, 1, 0) == 0)

        // Several resizes before the loop gets round to it collapse into one notification.
        #expect(raiseUnblocked(SIGWINCH) == 0)
        #expect(raiseUnblocked(SIGWINCH) == 0)
        #expect(TerminalResizeMonitor.consumePending())
        #expect(!TerminalResizeMonitor.consumePending())
    }

    @Test func uninstallPutsBackThePreviousDisposition() throws {
        let before = currentHandlerBits(SIGWINCH)
        try TerminalResizeMonitor.install()
        #expect(currentHandlerBits(SIGWINCH) != before)
        TerminalResizeMonitor.uninstall()
        #expect(currentHandlerBits(SIGWINCH) == before)
        #expect(TerminalResizeMonitor.readFileDescriptor == nil)
        #expect(!TerminalResizeMonitor.consumePending())
    }
}
