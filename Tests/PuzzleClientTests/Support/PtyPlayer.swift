import Foundation
import PuzzleSystem
import PuzzleTestSupport

/// The real `puzzle play` on a pseudo-terminal (util-linux `script` provides
/// it): keys go in as bytes, the screen's bytes are collected and can be
/// waited for with a deadline. Its resume tokens are kept under `stateHome`
/// (`XDG_STATE_HOME`, and its pictures under `XDG_CACHE_HOME`), a directory
/// of the test's, never the user's.
final class PtyPlayer: @unchecked Sendable {
    let process: Process
    private let input: Pipe
    private let lock = NSCondition()
    private var bytes: [UInt8] = []

    /// Whether util-linux `script` is there to give the client a terminal.
    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

    init(port: Int, name: String, arguments: [String] = [], stateHome: String = TestServer.temporaryDirectory()) throws {
        let exe = try PuzzleExecutable.url()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = ([exe.path, "play", "127.0.0.1:\(port)", "--name", name] + arguments).joined(separator: " ")
        // -q quiet, -f flush at once, -e the child's exit status, -c the command.
        process.arguments = ["-qfec", command, "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm-256color"
        env["COLORTERM"] = "truecolor"
        env["XDG_STATE_HOME"] = stateHome
        // Pictures kept between runs go there too, never to the user's cache.
        env["XDG_CACHE_HOME"] = stateHome
        env.removeValue(forKey: "NO_COLOR")
        process.environment = env
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard !data.isEmpty, let self else { return }
            self.lock.lock()
            self.bytes += data
            self.lock.broadcast()
            self.lock.unlock()
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Types `text` (raw bytes: "\r" is Enter, "\t" Tab, "\u{12}" Ctrl-R).
    func type(_ text: String) {
        write(Data(text.utf8))
    }

    /// Sends raw bytes to the terminal (mouse reports, partial sequences).
    func write(_ data: Data) {
        input.fileHandleForWriting.write(data)
    }

    /// Everything the client wrote so far.
    var text: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The screen the bytes so far give on a `width`×`height` terminal.
    func screen(width: Int = 80, height: Int = 24) -> TerminalModel {
        lock.lock(); defer { lock.unlock() }
        var model = TerminalModel(width: width, height: height)
        model.feed(bytes)
        return model
    }

    /// Waits until the screen (`width`×`height`) satisfies `condition`, up to
    /// `timeout` seconds; returns whether it did, and the last screen either way.
    @discardableResult
    func waitForScreen(width: Int = 80, height: Int = 24, timeout: Double = 20,
                       until condition: (TerminalModel) -> Bool) -> (Bool, TerminalModel) {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock(); defer { lock.unlock() }
        while true {
            var model = TerminalModel(width: width, height: height)
            model.feed(bytes)
            if condition(model) { return (true, model) }
            if !lock.wait(until: deadline) { return (false, model) }
        }
    }

    /// Types `line` until `seen` finds it arrived (a line typed before the
    /// client has joined is refused, so it is typed again); false after 40 tries.
    func typeUntilSeen(_ line: String, seen: () -> Bool) -> Bool {
        for _ in 0..<40 {
            type(line)
            if seen() { return true }
        }
        return false
    }

    /// Waits until the output contains `needle`, up to `timeout` seconds.
    func wait(for needle: String, timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock(); defer { lock.unlock() }
        while !String(decoding: bytes, as: UTF8.self).contains(needle) {
            if !lock.wait(until: deadline) { return false }
        }
        return true
    }

    /// Kills the client and the `script` around it at once (SIGKILL: no goodbye
    /// reaches the server, as when a terminal is closed or the machine dies).
    func kill() {
        let pid = process.processIdentifier
        // The client is script's child: kill the whole process group script made.
        if let children = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) {
            for child in children.split(separator: " ").compactMap({ Int32($0) }) { try? Signals.send(.kill, to: child) }
        }
        try? Signals.send(.kill, to: pid)
        process.waitUntilExit()
    }

    /// Waits for the client to exit, up to `timeout` seconds.
    func waitForExit(timeout: Double = 20) -> Bool {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { [process] in process.waitUntilExit(); done.signal() }
        return done.wait(timeout: .now() + timeout) == .success
    }
}
