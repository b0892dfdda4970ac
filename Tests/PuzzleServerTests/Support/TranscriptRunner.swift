import PuzzleLink
import Foundation
import PuzzleTestSupport
@testable import PuzzleServer

/// Where a replayed transcript and the real server disagreed.
struct TranscriptFailure: Error, CustomStringConvertible {
    var file: String
    var line: Int
    var message: String
    var description: String { "\(file):\(line): \(message)" }
}

/// Replays a ``Transcript`` against a fresh ``TestServer`` configured from its
/// header, one step at a time, and stops at the first disagreement.
///
/// Clients connect when first named. After the last step every still-open
/// client must have no unread line (checked with a final `PING`): a transcript
/// accounts for everything the server sent.
struct TranscriptRunner {
    var transcript: Transcript
    /// How long one expected line (or close) may take to arrive.
    var timeout: Double = 10
    /// Record instead of check: every `<` and `~` step writes the lines actually
    /// read (up to the first that matches) into ``recording``, and mismatches are
    /// not failures. For writing new transcripts; never used by the checks.
    var record = false
    private(set) var recording: [String] = []

    init(_ transcript: Transcript) {
        self.transcript = transcript
    }

    /// The server configuration the header asks for, applied to `config`.
    func configure(_ config: inout ServerConfig) throws(TranscriptFailure) {
        for setting in transcript.settings {
            guard let key = ConfigKey(rawValue: setting.key) else {
                throw TranscriptFailure(file: transcript.name, line: setting.line, message: "@set: unknown config key \(setting.key)")
            }
            do {
                try key.apply(setting.value, as: setting.key, to: &config, baseDirectory: ".")
            } catch {
                throw TranscriptFailure(file: transcript.name, line: setting.line, message: "@set: \(error)")
            }
        }
    }

    /// Starts a server for the transcript and replays it.
    mutating func run() throws(TranscriptFailure) {
        var probe = ServerConfig()
        try configure(&probe)
        let server: TestServer
        do {
            let runner = self
            let seed = transcript.seed ?? 7
            let configure: (inout ServerConfig) -> Void = { config in try? runner.configure(&config) }
            server = transcript.rooms.isEmpty
                ? try TestServer(seed: seed, configure: configure)
                : try TestServer(rooms: transcript.rooms, seed: seed, configure: configure)
        } catch {
            throw TranscriptFailure(file: transcript.name, line: 1, message: "cannot start the server: \(error)")
        }
        defer { server.stop() }
        try replay(port: server.port)
    }

    /// Replays the steps against a server already listening on `port`.
    mutating func replay(port: Int) throws(TranscriptFailure) {
        var clients: [String: LineClient] = [:]
        var closedByUs: Set<String> = []
        var closedByServer: Set<String> = []
        for step in transcript.steps {
            func fail(_ message: String) -> TranscriptFailure {
                TranscriptFailure(file: transcript.name, line: step.line, message: "client \(step.client): " + message)
            }
            if closedByUs.contains(step.client) { throw fail("used after it closed its connection (\(step.client).)") }
            if closedByServer.contains(step.client) { throw fail("used after the server closed its connection (\(step.client)!)") }
            let client: LineClient
            if let known = clients[step.client] {
                client = known
            } else {
                do { client = try LineClient(port: port, name: step.client) } catch { throw fail("cannot connect: \(error)") }
                clients[step.client] = client
            }
            switch step.action {
            case .send(let bytes):
                recording.append(step.text)
                do { try client.sendRaw(bytes + [0x0A]) } catch { throw fail("cannot send `\(step.text)`: \(error)") }
            case .expect(let pattern):
                let got = try nextLine(client, wanting: pattern, fail: fail)
                if record {
                    recording.append("\(step.client)< \(got)")
                } else if !Transcript.matches(pattern, got) {
                    throw fail("expected `\(pattern)`\n        got `\(got)`")
                }
            case .skipUntil(let pattern):
                var skipped: [String] = []
                while true {
                    let got = try nextLine(client, wanting: pattern, skipped: skipped, fail: fail)
                    if record { recording.append("\(step.client)< \(got)") }
                    if Transcript.matches(pattern, got) { break }
                    skipped.append(got)
                }
            case .expectClose:
                reading: while true {
                    let got: String
                    do {
                        got = try client.nextLine(timeout: timeout)
                    } catch {
                        guard client.closed else { throw fail("expected the server to close the connection within \(timeout) s; it stayed open") }
                        break reading
                    }
                    guard record else { throw fail("expected the server to close the connection, got `\(got)`") }
                    recording.append("\(step.client)< \(got)")
                }
                recording.append(step.text)
                closedByServer.insert(step.client)
            case .close:
                recording.append(step.text)
                client.close()
                closedByUs.insert(step.client)
                clients[step.client] = nil
            }
        }
        for (name, client) in clients.sorted(by: { $0.key < $1.key }) where !closedByServer.contains(name) {
            try expectNothingMore(from: client, name: name)
        }
    }

    /// Everything the server sent must have been accounted for. A PING's PONG
    /// marks the end: any line before it was unread by the transcript.
    private mutating func expectNothingMore(from client: LineClient, name: String) throws(TranscriptFailure) {
        let last = transcript.steps.last?.line ?? 0
        func fail(_ message: String) -> TranscriptFailure {
            TranscriptFailure(file: transcript.name, line: last, message: "client \(name): " + message)
        }
        let token = "end-of-transcript"
        do { try client.send("PING \(token)") } catch { throw fail("cannot send the final PING: \(error)") }
        while true {
            let got = try nextLine(client, wanting: "PONG \(token)", fail: fail)
            if got == "PONG \(token)" { return }
            guard record else { throw fail("unexpected line after the last step: `\(got)`") }
            recording.append("\(name)< \(got)")
        }
    }

    private func nextLine(_ client: LineClient, wanting pattern: String, skipped: [String] = [],
                          fail: (String) -> TranscriptFailure) throws(TranscriptFailure) -> String {
        do {
            return try client.nextLine(timeout: timeout)
        } catch {
            let why = client.closed ? "the server closed the connection" : "nothing arrived within \(timeout) s"
            let seen = skipped.isEmpty ? "" : "; skipped: " + skipped.suffix(5).map { "`\($0.count > 100 ? $0.prefix(100) + "..." : $0)`" }.joined(separator: ", ")
            throw fail("expected `\(pattern)`, but \(why)\(seen)")
        }
    }
}
