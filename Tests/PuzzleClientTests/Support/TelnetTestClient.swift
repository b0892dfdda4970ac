import Foundation
import PuzzleSystem
import PuzzleTelnet

/// A raw telnet client for the tests: a TCP socket to the gateway, telnet decoded by hand
/// (the same `TelnetDecoder` the gateway uses), answering the gateway's negotiation as a
/// telnet client would (or not at all), and the data bytes run through a `TerminalModel`
/// to read what the player sees. Every wait has a deadline.
final class TelnetTestClient {
    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    let socket: Socket
    private let queue: EpollQueue
    private var decoder = TelnetDecoder(maxSubnegotiation: 4096)
    /// Whether it answers the negotiation (false: a bare `nc`).
    let negotiates: Bool
    /// The terminal type it reports when asked.
    let terminalType: String
    private(set) var width: Int
    private(set) var height: Int
    /// Every byte received, telnet commands included.
    private(set) var raw: [UInt8] = []
    /// The data bytes (what a terminal would draw) since the last `resize`.
    private(set) var data: [UInt8] = []
    /// All data bytes since connecting.
    private(set) var allData: [UInt8] = []
    /// The commands and negotiations received, in order.
    private(set) var commands: [TelnetDecoder.Event] = []
    /// The gateway closed the connection.
    private(set) var closed = false
    private var model: TerminalModel
    private var modelBytes = 0

    init(port: Int, width: Int = 80, height: Int = 24, terminalType: String = "xterm-256color", negotiates: Bool = true) throws {
        socket = try Socket.connect(host: "127.0.0.1", port: UInt16(port), timeoutMillis: 5000)
        queue = try EpollQueue(maxEventsPerWait: 4)
        try queue.register(socket.descriptor, interest: .readable, token: 1)
        self.negotiates = negotiates
        self.terminalType = terminalType
        self.width = width
        self.height = height
        model = TerminalModel(width: width, height: height)
    }

    deinit {
        queue.close()
        try? socket.close()
    }

    /// Sends bytes as they are (telnet commands, floods).
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        let deadline = Date().addingTimeInterval(10)
        while offset < bytes.count {
            let r = try bytes[offset...].withUnsafeBytes { b in Result { () throws(Errno) in try socket.send(b) } }.get()
            if case .processed(let n) = r { offset += n } else {
                guard Date() < deadline else { throw Timeout(description: "the gateway does not read") }
                pump(timeout: 0.01)
            }
        }
    }

    /// Types text: keys as a terminal sends them ("\r" is Enter), 0xFF doubled.
    func type(_ text: String) throws { try send(TelnetEncoder.data(Array(text.utf8))) }

    /// Reports a new window size (NAWS) and starts a fresh screen of that size (the
    /// gateway redraws the whole screen).
    func resize(width: Int, height: Int) throws {
        self.width = width
        self.height = height
        data = []
        model = TerminalModel(width: width, height: height)
        modelBytes = 0
        try send(Self.naws(width, height))
    }

    static func naws(_ width: Int, _ height: Int) -> [UInt8] {
        TelnetEncoder.subnegotiation(TelnetOption.windowSize, [UInt8(width >> 8 & 0xFF), UInt8(width & 0xFF), UInt8(height >> 8 & 0xFF), UInt8(height & 0xFF)])
    }

    /// Reads what arrives within `timeout` seconds (returns at the first read).
    func pump(timeout: Double) {
        guard !closed, let events = try? queue.wait(timeoutMillis: Int32(timeout * 1000)), !events.isEmpty else { return }
        var bytes: [UInt8] = []
        for _ in 0..<64 {
            guard let r = try? socket.receive(appendingTo: &bytes, maxBytes: 64 * 1024) else {
                closed = true
                break
            }
            guard case .processed(let n) = r else { break }
            if n == 0 {
                closed = true
                break
            }
        }
        raw += bytes
        for event in decoder.feed(bytes) {
            switch event {
            case .data(let d):
                data += d
                allData += d
            default:
                commands.append(event)
                if negotiates { try? answer(event) }
            }
        }
    }

    /// What netkit telnet answers: yes to everything the gateway offers or asks.
    private func answer(_ event: TelnetDecoder.Event) throws {
        let iac = TelnetByte.iac
        switch event {
        case .negotiation(let verb, let option):
            switch verb {
            case TelnetByte.will: try send([iac, TelnetByte.do, option])
            case TelnetByte.do:
                try send([iac, TelnetByte.will, option])
                if option == TelnetOption.windowSize { try send(Self.naws(width, height)) }
            default: break
            }
        case .subnegotiation(TelnetOption.terminalType, [TelnetOption.ttypeSend]):
            try send(TelnetEncoder.subnegotiation(TelnetOption.terminalType, [TelnetOption.ttypeIs] + Array(terminalType.utf8)))
        default: break
        }
    }

    /// The screen as the data so far draws it.
    var screen: TerminalModel {
        if modelBytes != data.count {
            // Fed whole: a UTF-8 character cut between reads must not be split.
            model = TerminalModel(width: width, height: height)
            model.feed(data)
            modelBytes = data.count
        }
        return model
    }

    /// The screen's rows as one text.
    var screenText: String { screen.rows.joined(separator: "\n") }

    /// Reads until `condition` holds; throws after `timeout` seconds.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 20, _ condition: (TelnetTestClient) -> Bool) throws -> TelnetTestClient {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(self) {
            guard Date() < deadline else {
                throw Timeout(description: "waited \(timeout) s for \(what); screen:\n\(screenText)")
            }
            if closed { throw Timeout(description: "closed while waiting for \(what); screen:\n\(screenText)\nlast data: \(String(decoding: allData.suffix(200), as: UTF8.self))") }
            pump(timeout: 0.05)
        }
        return self
    }

    /// Waits for `text` on the screen.
    @discardableResult
    func waitForScreen(_ text: String, timeout: Double = 20) throws -> TelnetTestClient {
        try waitFor("'\(text)' on the screen", timeout: timeout) { $0.screenText.contains(text) }
    }

    /// Waits for the gateway to close the connection.
    func waitForClose(timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !closed {
            guard Date() < deadline else { throw Timeout(description: "the gateway did not close the connection") }
            pump(timeout: 0.05)
        }
    }
}
