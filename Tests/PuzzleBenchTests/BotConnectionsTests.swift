import PuzzleSystem
import Testing
@testable import PuzzleBench

/// The bots' connections alone, against a plain TCP peer on 127.0.0.1 that
/// plays the server: lines are handed on whole however the bytes arrive,
/// queued output is written, and a closed or runaway peer is a disconnect.
@Suite struct BotConnectionsTests {
    /// Keeps the lines handed on, as text.
    final class Sink: BotLineSink {
        var lines: [String] = []
        func handle(_ bot: BenchBot, line: UnsafeRawBufferPointer) { lines.append(String(decoding: line, as: UTF8.self)) }
    }

    /// One bot connected to a listener; `peer` is the accepted side.
    final class Fixture {
        let tally = LoadTally(clock: RunClock())
        let connections: BotConnections
        let sink = Sink()
        let bot: BenchBot
        let peer: Socket

        init() throws {
            connections = try BotConnections(clock: tally.clock, tally: tally)
            let listener = try Socket.listen(host: "127.0.0.1", port: 0)
            defer { try? listener.close() }
            bot = try connections.connect(host: "127.0.0.1", port: try listener.localPort, room: 0)
            let waiting = try EpollQueue(maxEventsPerWait: 1)
            try waiting.register(listener.descriptor, interest: .readable, token: 0)
            guard try !waiting.wait(timeoutMillis: 10_000).isEmpty, case .accepted(let socket, _) = try listener.accept() else {
                throw BenchFailure("the bot's connection was not accepted")
            }
            peer = socket
        }

        deinit {
            connections.closeAll()
            try? peer.close()
        }

        /// The peer writes all of `text`.
        func send(_ text: String) throws {
            var bytes = Array(text.utf8)[...]
            let deadline = MonotonicClock.nowNanoseconds + 10_000_000_000
            while !bytes.isEmpty && bot.connected && MonotonicClock.nowNanoseconds < deadline {
                if case .processed(let n) = try peer.send(Array(bytes)) { bytes = bytes.dropFirst(n) }
                // The bot's side reads while the peer's buffer is full.
                try connections.turn(timeoutMillis: 1, lines: sink)
            }
        }

        /// Runs loop turns until `done` holds (or 10 s pass).
        func turn(until done: () -> Bool) throws {
            let deadline = MonotonicClock.nowNanoseconds + 10_000_000_000
            while !done() && MonotonicClock.nowNanoseconds < deadline {
                try connections.turn(timeoutMillis: 10, lines: sink)
            }
        }
    }

    @Test func aLineSplitAcrossReadsIsHandedOnWhole() throws {
        let f = try Fixture()
        try f.send("EV 1 grabbed 3 1\nEV 2 grab")
        try f.turn { f.sink.lines.count >= 1 }
        try f.send("bed 4 1\n\nOK\n")
        try f.turn { f.sink.lines.count >= 3 }
        // Empty lines are not handed on.
        #expect(f.sink.lines == ["EV 1 grabbed 3 1", "EV 2 grabbed 4 1", "OK"])
        #expect(f.bot.connected && f.bot.framer.bufferedByteCount == 0)
    }

    @Test func queuedOutputIsWrittenAtTheEndOfATurn() throws {
        let f = try Fixture()
        f.bot.send(.hello(version: 1, name: "bot0"))
        f.connections.markDirty(f.bot)
        f.connections.markDirty(f.bot)
        f.connections.flushDirty()
        var received: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        let deadline = MonotonicClock.nowNanoseconds + 10_000_000_000
        while received.count < 13 && MonotonicClock.nowNanoseconds < deadline {
            if case .processed(let n) = try f.peer.receive(into: buffer) { received += buffer[..<n] }
        }
        #expect(String(decoding: received, as: UTF8.self) == "HELLO 1 bot0\n")
        #expect(!f.bot.hasUnsentOutput)
    }

    @Test func aClosedPeerIsADisconnect() throws {
        let f = try Fixture()
        try f.send("OK\n")
        try f.peer.shutdown(.write)
        try f.turn { !f.bot.connected }
        #expect(f.sink.lines == ["OK"])
        #expect(f.tally.failures.disconnects == 1)
        #expect(f.tally.failures.messages == ["bot0: disconnected (server closed the connection)"])
        #expect(f.bot.phase == .finished)
    }

    /// A bot whose epoll interest cannot be changed (here: no longer
    /// registered) when its output backs up is a reported failure, not a
    /// bot that silently never writes again.
    @Test func aFailedEpollChangeIsAFailureAndADisconnect() throws {
        let f = try Fixture()
        try f.connections.queue.deregister(f.bot.socket.descriptor)
        // More than the socket takes while the peer reads nothing.
        f.bot.out = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 20)
        f.connections.flush(f.bot)
        #expect(!f.bot.connected)
        #expect(f.tally.failures.disconnects == 1)
        #expect(f.tally.failures.messages.first?.hasPrefix("bot0: disconnected (its epoll interest could not be changed") == true)
    }

    @Test func aLineLongerThanHalfTheReadBufferIsAMirrorErrorAndADisconnect() throws {
        let f = try Fixture()
        // Given up as soon as it is seen to be too long, before its end comes.
        try f.send(String(repeating: "x", count: 200_000))
        try f.turn { !f.bot.connected }
        #expect(f.sink.lines.isEmpty)
        #expect(f.tally.failures.disconnects == 1 && f.tally.failures.mirrorErrors == 1)
        #expect(f.tally.failures.messages.first?.hasPrefix("bot0: disconnected (a line longer than") == true)
    }
}
