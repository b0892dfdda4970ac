import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol
import PuzzleSystem
@testable import PuzzleServer

/// Write and sync failures injected under a real in-process server (issue #8,
/// items 4 and 5): a move that cannot be stored is refused and not made, the
/// rest of the server carries on, and `fsync = always` syncs once per record.
@Suite(.serialized) struct StorageFailureTests {
    static func rooms() -> [RoomSpec] {
        [RoomSpec(name: "left", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil),
         RoomSpec(name: "right", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil)]
    }

    static func join(_ server: TestServer, _ room: String) throws -> (LineClient, RoomState) {
        let client = try LineClient(port: server.port, name: room)
        _ = try client.hello("p\(room)")
        let (reply, lines) = try client.request("JOIN \(room)")
        guard reply.hasPrefix("OK joined") else { throw LineClient.Timeout(description: "JOIN \(room): \(reply)") }
        return (client, try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0).state)
    }

    /// GRAB and DRAG to the piece's home cell; returns the DROP reply.
    static func dropHome(_ piece: Int, _ client: LineClient, _ state: RoomState) throws -> String {
        let home = state.geometry.origin(of: state.homeCell(of: piece))
        #expect(try client.request("GRAB \(piece)").reply == "OK grabbed \(piece)")
        #expect(try client.request("DRAG \(piece) \(home.x) \(home.y)").reply.hasPrefix("OK dragged \(piece)"))
        return try client.request("DROP \(piece)").reply
    }

    /// A full disk keeps nobody in a room and stops nothing: a LEAVE whose
    /// record cannot be written still leaves (the log says what a restart may
    /// not know), and a clock mark that cannot be written is logged once.
    @Test func leavesAndClockMarksGoOnWhenTheJournalCannotBeWritten() throws {
        let device = FaultyStorageDevice()
        let log = LogLines()
        let server = try TestServer(rooms: Self.rooms(), log: log, storageDevice: device)
        defer { server.stop() }
        let (alice, _) = try Self.join(server, "left")
        let watcher = try LineClient(port: server.port, name: "watcher")
        let watcherID = try watcher.hello("watcher")
        _ = try watcher.request("JOIN left")
        device.failWrites(.noSpace, matching: "/left/journal")
        // The clock runs (two players in), so a mark is due at once: it fails, logged once.
        #expect(log.waitFor { $0.contains("room left: clock mark not written") } != nil, "log: \(log.lines)")
        #expect(try watcher.request("LEAVE").reply == "OK left left")
        try alice.waitForEvent { $0.hasSuffix(" left \(watcherID)") }
        #expect(log.waitFor { $0.contains("not journaled") } != nil, "log: \(log.lines)")
        #expect(try alice.request("PING").reply == "PONG")
        #expect(log.lines.filter { $0.contains("clock mark not written") }.count == 1)
    }

    @Test func failedJournalWriteRefusesTheMoveOnlyAndRecovers() throws {
        let device = FaultyStorageDevice()
        let server = try TestServer(rooms: Self.rooms(), storageDevice: device)
        let directory = server.config.dataDirectory
        let (left, leftState) = try Self.join(server, "left")
        let (right, rightState) = try Self.join(server, "right")
        let watcher = try LineClient(port: server.port, name: "watcher")
        _ = try watcher.hello("watcher")
        _ = try watcher.request("JOIN left")

        device.failWrites(.noSpace, matching: "/left/journal")
        let refused = try Self.dropHome(0, left, leftState)
        #expect(refused.hasPrefix("ERR STORAGE "), "\(refused)")
        #expect(refused.contains("not made"))
        // Not made: the piece is still in hand, nobody saw it placed, the sequence did not move.
        let (sync, lines) = try left.request("SYNC")
        let mirror = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0).state
        #expect(mirror.holder(of: 0) != nil && mirror.pieces[0].location == leftState.pieces[0].location, "\(sync)")
        #expect(try watcher.request("PING").reply == "PONG")
        #expect(!watcher.events.contains { $0.contains(" placed 0 ") })
        // Everything else works: the other room's moves, non-durable requests.
        #expect(try Self.dropHome(1, right, rightState).hasPrefix("OK dropped 1 cell"))
        #expect(try left.request("DRAG 0 0 0").reply.hasPrefix("OK dragged 0"))

        // Writes work again: the same drop goes through.
        device.failWrites(nil)
        #expect(try left.request("DRAG 0 \(leftState.geometry.origin(of: leftState.homeCell(of: 0)).x) \(leftState.geometry.origin(of: leftState.homeCell(of: 0)).y)").reply.hasPrefix("OK dragged"))
        #expect(try left.request("DROP 0").reply == "OK dropped 0 cell 0 0")
        #expect(try Self.dropHome(4, left, leftState) == "OK dropped 4 cell 1 1")
        server.stop()

        // The journal has every acknowledged move and no half record.
        let restarted = try TestServer(rooms: Self.rooms(), dataDirectory: directory)
        let (_, state) = try Self.join(restarted, "left")
        #expect(state.isCorrect(0) && state.isCorrect(4))
        let (_, other) = try Self.join(restarted, "right")
        #expect(other.isCorrect(1))
        restarted.stop()
        let journal = try FileSystem.readFile(directory + "/rooms/left/journal")
        #expect(JournalLine.parseFile(journal).badLines.isEmpty)
    }

    @Test func failedBatchSyncKeepsTheTurnsMovesWithASnapshot() throws {
        let device = FaultyStorageDevice()
        let server = try TestServer(rooms: Self.rooms(), storageDevice: device)
        let directory = server.config.dataDirectory
        let (left, state) = try Self.join(server, "left")
        device.failSyncs(.ioError)
        #expect(try Self.dropHome(2, left, state) == "OK dropped 2 cell 0 2")
        device.failSyncs(nil)
        #expect(try left.request("PING").reply == "PONG")
        server.stop()
        let restarted = try TestServer(rooms: Self.rooms(), dataDirectory: directory)
        let (_, restored) = try Self.join(restarted, "left")
        #expect(restored.isCorrect(2))
        restarted.stop()
    }

    @Test func failedSyncAndFailedSnapshotStopTheServerWithoutAcknowledging() throws {
        let device = FaultyStorageDevice()
        let server = try TestServer(rooms: Self.rooms(), storageDevice: device)
        let (left, state) = try Self.join(server, "left")
        let home = state.geometry.origin(of: state.homeCell(of: 3))
        #expect(try left.request("GRAB 3").reply == "OK grabbed 3")
        #expect(try left.request("DRAG 3 \(home.x) \(home.y)").reply.hasPrefix("OK dragged 3"))
        device.failSyncs(.ioError)
        device.failFileWrites(.noSpace)
        try left.send("DROP 3")
        let seen = try left.waitForClose()
        #expect(!seen.contains { $0.hasPrefix("OK dropped") }, "acknowledged a move it could not keep: \(seen)")
        let failure = server.waitForStop()
        #expect(failure is ServerFailure, "run() ended with \(String(describing: failure))")
        #expect("\(failure.map { "\($0)" } ?? "")".contains("left"))
    }

    @Test(arguments: [FsyncPolicy.always, .batch, .never])
    func syncsPerPolicy(_ policy: FsyncPolicy) throws {
        let device = FaultyStorageDevice()
        let server = try TestServer(rooms: Self.rooms(), storageDevice: device) { $0.fsync = policy }
        let (left, state) = try Self.join(server, "left")
        // Four drops sent in one write, so that the server handles them in one turn.
        var text = ""
        let pieces = [0, 1, 2, 3]
        for piece in pieces {
            let home = state.geometry.origin(of: state.homeCell(of: piece))
            text += "GRAB \(piece)\nDRAG \(piece) \(home.x) \(home.y)\nDROP \(piece)\n"
        }
        let before = device.syncCount
        try left.sendRaw(Array(text.utf8))
        for piece in pieces {
            _ = try left.awaitReply()
            _ = try left.awaitReply()
            #expect(try left.awaitReply().reply.hasPrefix("OK dropped \(piece) cell"))
        }
        let syncs = device.syncCount - before
        switch policy {
        case .always: #expect(syncs == pieces.count, "one fdatasync per durable record")
        case .batch: #expect((1..<pieces.count).contains(syncs), "one sync per loop turn, got \(syncs)")
        case .never: #expect(syncs == 0)
        }
        server.stop()
    }
}

@Suite struct JournalChecksumTests {
    @Test func crc32KnownAnswers() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        // A slice (contiguous: the buffer loop) and a lazy sequence (the generic one) agree.
        #expect(CRC32.checksum(Array("x123456789".utf8)[1...]) == 0xCBF4_3926)
        #expect(CRC32.checksum("123456789".utf8.lazy.map { $0 }) == 0xCBF4_3926)
    }

    @Test func everyChangedDigitOfARecordIsDetected() {
        let event = RoomEvent(seq: 12, time: 900, body: .placed(piece: 3, by: PlayerID(2), at: .board(Cell(row: 1, col: 2)), rotation: 0))
        var bytes = JournalLine.header(after: 4)
        JournalLine.encode(event, storeTime: 1_234, into: &bytes)
        let parsed = JournalLine.parseFile(bytes)
        #expect(parsed.version == 2 && parsed.after == 4 && parsed.badLines.isEmpty)
        #expect(parsed.records.map(\.record.event.body) == [event.body])
        let recordStart = JournalLine.header(after: 4).count
        for i in recordStart..<(bytes.count - 1) where (48...57).contains(bytes[i]) {
            var changed = bytes
            changed[i] = bytes[i] == 57 ? 48 : bytes[i] + 1
            let damaged = JournalLine.parseFile(changed)
            #expect(damaged.records.isEmpty && damaged.badLines.count == 1, "digit \(i) changed unnoticed")
        }
        // Without the header (a journal from before checksums) a bare record still loads.
        let legacy = Array("@5 EV 1 placed 0 1 cell 0 0 0\n".utf8)
        #expect(JournalLine.parseFile(legacy).records.count == 1)
        // With it, a record must carry its checksum.
        #expect(JournalLine.parseFile(JournalLine.header(after: 0) + legacy).badLines.map(\.reason) == ["no checksum"])
    }
}
