import PuzzleLink
import Foundation
import Testing
import PuzzleSystem
import PuzzleTestSupport
@testable import PuzzleServer

/// QUIT ends a connection gracefully: every reply due before it arrives, then
/// an orderly end of stream, never a reset, whatever the client sent after it.
@Suite struct ServerQuitTests {
    /// Reads `socket` until the server ends the stream; returns everything read
    /// and the error that ended the read instead of a clean EOF, if any.
    private func readToEnd(_ socket: Socket, timeout: Double) throws -> (bytes: [UInt8], error: Errno?) {
        let queue = try EpollQueue()
        try queue.register(socket.descriptor, interest: .readable, token: 1)
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            do {
                switch try socket.receive(appendingTo: &bytes) {
                case .processed(0): return (bytes, nil)
                case .processed: continue
                case .wouldBlock: break
                }
            } catch {
                return (bytes, error)
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw LineClient.Timeout(description: "no end of stream within \(timeout) s after \(bytes.count) bytes") }
            _ = try queue.wait(timeoutMillis: Int32(min(left, 1) * 1000) + 1)
        }
    }

    @Test func pipelinedRequestsThenQuitThenMoreBytesFromAHalfClosedClient() throws {
        let server = try TestServer()
        let client = try LineClient(port: server.port)
        // More requests than one loop turn handles, then QUIT, then far more
        // input than one read takes (it must be drained, not left unread).
        let count = 2000
        var input = Array((0..<count).map { "PING \($0)\n" }.joined().utf8)
        input += Array("QUIT\nPING after quit\n".utf8)
        let junk = Array((String(repeating: "x", count: 63) + "\n").utf8)
        for _ in 0..<(512 * 1024 / junk.count) { input += junk }
        try client.sendRaw(input, deadline: 30)
        try client.socket.shutdown(.write)

        let (bytes, error) = try readToEnd(client.socket, timeout: 30)
        #expect(error == nil, "the stream ended with \(String(describing: error)), not an orderly close")
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let expected = (0..<count).map { "PONG \($0)" } + ["OK bye", ""]
        #expect(lines.count == expected.count, "\(lines.count) lines, last: \(lines.suffix(3))")
        #expect(lines == expected)
    }
}
