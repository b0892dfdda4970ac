import Foundation
import PuzzleSystem
@testable import PuzzleClient

struct PlayTimeout: Error, CustomStringConvertible {
    var description: String
}

/// One plain-mode client running in-process on its own thread: commands go in
/// through a socket pair (its input), output lines are collected and can be
/// waited for with a deadline.
final class PlainSession: @unchecked Sendable {
    let name: String
    private let input: Socket
    private let runnerSide: Socket
    private let lock = NSCondition()
    private var lines: [String] = []
    private var status: Int32?
    private var inputClosed = false

    /// `stateDirectory`: where resume tokens are kept (none by default: every session is a new player).
    init(port: Int, name: String, room: String?, strict: Bool = false, stateDirectory: String? = nil) throws {
        self.name = name
        (input, runnerSide) = try Socket.pair()
        var o = PlayOptions()
        o.port = UInt16(port)
        o.name = name
        o.room = room
        o.strict = strict
        o.stateDirectory = stateDirectory
        let runnerInput = runnerSide.descriptor
        let options = o
        let thread = Thread { [self] in
            // The runner (and the token file it holds locked) is gone before
            // the exit is told: a client started next finds the file free, as
            // after a process exits.
            let s = {
                PlainRunner(options: options, input: runnerInput) { line in
                    self.lock.lock()
                    self.lines.append(line)
                    self.lock.broadcast()
                    self.lock.unlock()
                }.run()
            }()
            lock.lock()
            status = s
            lock.broadcast()
            lock.unlock()
        }
        thread.start()
    }

    deinit {
        closeInput()
        _ = try? waitForExit(timeout: 10)
        try? runnerSide.close()
    }

    /// Types a command line.
    func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let r = try bytes[offset...].withUnsafeBytes { b in Result { () throws(Errno) in try input.send(b) } }.get()
            offset += r.byteCount
        }
    }

    /// Ends the input, as end of file on stdin.
    func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        try? input.close()
    }

    var output: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    /// Waits for an output line (after index `from`) matching `match`; returns its index and text.
    @discardableResult
    func waitFor(from: Int = 0, timeout: Double = 20, _ what: String, _ match: (String) -> Bool) throws -> (index: Int, line: String) {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        var i = from
        while true {
            while i < lines.count {
                if match(lines[i]) { return (i, lines[i]) }
                i += 1
            }
            if status != nil || !lock.wait(until: deadline) {
                throw PlayTimeout(description: "\(name): no line \(what); output:\n" + lines.suffix(30).joined(separator: "\n"))
            }
        }
    }

    /// Waits for a line equal to `text` (or starting with it, with `prefix`).
    @discardableResult
    func waitFor(_ text: String, prefix: Bool = false, from: Int = 0) throws -> (index: Int, line: String) {
        try waitFor(from: from, "'\(text)'") { prefix ? $0.hasPrefix(text) : $0 == text }
    }

    /// Waits for the runner to return; its exit status.
    func waitForExit(timeout: Double = 20) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while status == nil {
            if !lock.wait(until: deadline) { throw PlayTimeout(description: "\(name): runner did not exit") }
        }
        return status!
    }
}
