import Foundation
import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleTestSupport
import Testing
@testable import PuzzleServer

/// Rooms load off the loop after a restart (issue 31): the server answers
/// while they come in, a room's name stays taken while it loads, a JOIN of
/// a room still loading waits for the whole room (and hurries it), ROOMS
/// waits for every room, and a room that cannot be loaded is unknown.
///
/// A room's load is held at will: its journal is removed before the
/// restart, so loading it writes a fresh snapshot, which a
/// `GatedStorageDevice` holds until the test opens the gate.
@Suite struct BackgroundRestoreTests {
    static let lobby = RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3, picture: "sunset", rotation: false, password: nil)

    /// A data folder with the configured lobby and rooms `names` (4x4,
    /// created by a player), a piece moved in each; each room's pieces as a
    /// snapshot lists them.
    static func filledFolder(_ names: [String]) throws -> (data: String, pieces: [String: [String]]) {
        let data = TestServer.temporaryDirectory()
        let server = try TestServer(rooms: [lobby], dataDirectory: data) { $0.createsPerHour = 0 }
        defer { server.stop() }
        let ann = try LineClient(port: server.port, name: "ann")
        defer { ann.close() }
        _ = try PlayerIdentityTests.hello2(ann, "ann")
        var pieces: [String: [String]] = [:]
        for name in names {
            #expect(try ann.request("CREATE \(name) jigsaw 4x4").reply == "OK created \(name)")
            let snap = try PlayerIdentityTests.join(ann, name)
            var acked: DurabilityTests.Acknowledged = [:]
            try DurabilityTests.move(3, to: DurabilityTests.home(of: 3, in: snap.state), ann, &acked)
            pieces[name] = Self.pieceLines(try ann.request("SYNC").state)
            #expect(try ann.request("LEAVE").reply == "OK left \(name)")
        }
        return (data, pieces)
    }

    /// A snapshot's lines that say where the pieces are.
    static func pieceLines(_ lines: [String]) -> [String] {
        lines.filter { $0.hasPrefix("S piece") }
    }

    /// The room's journal removed: its load reports it and writes a fresh snapshot.
    static func makeLoadWrite(_ room: String, in data: String) throws {
        try FileManager.default.removeItem(atPath: data + "/rooms/\(room)/journal")
    }

    @Test func theServerAnswersWhileARoomLoadsAndAJoinWaitsForAllOfIt() throws {
        let (data, pieces) = try Self.filledFolder(["attic", "den"])
        try Self.makeLoadWrite("den", in: data)
        let gate = GatedStorageDevice(holding: "/rooms/den/")
        let log = LogLines()
        let server = try TestServer(rooms: [Self.lobby], dataDirectory: data, log: log, storageDevice: gate) { $0.logLevel = .info }
        defer { server.stop() }
        defer { gate.open() }
        #expect(gate.waitUntilHolding(), "den's load never reached its snapshot write")

        // den is loading (held): the loop answers, and rooms already in are served.
        let bob = try LineClient(port: server.port, name: "bob")
        #expect(try bob.request("PING").reply == "PONG")
        _ = try PlayerIdentityTests.hello2(bob, "bob")
        let stats = try bob.request("STATS").reply
        #expect(stats.contains(" rooms_loading=1") && stats.contains(" rooms=2 "), "\(stats)")
        let (atticReply, atticLines) = try bob.request("JOIN attic")
        #expect(atticReply.hasPrefix("OK joined attic ") && Self.pieceLines(atticLines) == pieces["attic"])
        // Its name is taken meanwhile.
        #expect(try bob.request("CREATE den jigsaw 2x2").reply.hasPrefix("ERR ROOM_EXISTS "))

        // A JOIN of den and a ROOMS wait (logged), and are answered once den is in.
        let cat = try LineClient(port: server.port, name: "cat")
        _ = try PlayerIdentityTests.hello2(cat, "cat")
        try cat.send("JOIN den")
        #expect(log.waitFor { $0.contains("waits for room den to load") } != nil)
        let dan = try LineClient(port: server.port, name: "dan")
        try dan.send("ROOMS")
        #expect(log.waitFor { $0.contains("waits for every room to load") } != nil)
        #expect(try bob.request("PING").reply == "PONG", "the loop still answers")
        gate.open()

        let (joined, lines) = try cat.awaitReply(timeout: 20)
        #expect(joined.hasPrefix("OK joined den "), "\(joined)")
        // The whole room: its pieces where they were before the restart.
        let snap = try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0)
        #expect(snap.state.pieceCount == 16 && snap.state.board.isCorrect(3))
        #expect(Self.pieceLines(lines) == pieces["den"] && pieces["den"]?.isEmpty == false)
        let (roomsReply, listing) = try dan.awaitReply(timeout: 20)
        #expect(roomsReply == "OK rooms 3" && listing.count == 3, "\(roomsReply) \(listing)")
        #expect(log.waitFor { $0.contains("restored 3 room(s) in ") } != nil)
        let after = try bob.request("STATS").reply
        #expect(after.contains(" rooms_loading=0") && after.contains(" rooms=3 "), "\(after)")
    }

    @Test func aJoinHurriesItsRoomAheadOfTheOthers() throws {
        // By name, aa loads first (and is held); zz would load last.
        let names = ["aa", "bb", "cc", "dd", "zz"]
        let (data, _) = try Self.filledFolder(names)
        try Self.makeLoadWrite("aa", in: data)
        let gate = GatedStorageDevice(holding: "/rooms/aa/")
        let log = LogLines()
        let server = try TestServer(rooms: [Self.lobby], dataDirectory: data, log: log, storageDevice: gate) { $0.logLevel = .info }
        defer { server.stop() }
        defer { gate.open() }
        #expect(gate.waitUntilHolding())
        let eve = try LineClient(port: server.port, name: "eve")
        _ = try PlayerIdentityTests.hello2(eve, "eve")
        try eve.send("JOIN zz")
        #expect(log.waitFor { $0.contains("waits for room zz to load") } != nil)
        gate.open()
        #expect(try eve.awaitReply(timeout: 20).reply.hasPrefix("OK joined zz "))
        #expect(log.waitFor { $0.contains("restored 6 room(s) in ") } != nil)
        let order = log.lines.compactMap { line in names.first { line.contains("restored room \($0):") } }
        #expect(order == ["aa", "zz", "bb", "cc", "dd"], "\(order)")
    }

    @Test func aRoomThatCannotBeLoadedIsUnknownToThoseWhoWaitedForIt() throws {
        let (data, _) = try Self.filledFolder(["den", "ruin"])
        try Self.makeLoadWrite("den", in: data)
        // Every snapshot of ruin unreadable: it cannot be loaded (its files are kept).
        for file in ["snapshot", "snapshot.prev", "snapshot.origin"] {
            try? Data("not a snapshot\n".utf8).write(to: URL(fileURLWithPath: data + "/rooms/ruin/" + file))
        }
        let gate = GatedStorageDevice(holding: "/rooms/den/")
        let log = LogLines()
        let server = try TestServer(rooms: [Self.lobby], dataDirectory: data, log: log, storageDevice: gate) { $0.logLevel = .info }
        defer { server.stop() }
        defer { gate.open() }
        #expect(gate.waitUntilHolding())
        let fay = try LineClient(port: server.port, name: "fay")
        _ = try PlayerIdentityTests.hello2(fay, "fay")
        try fay.send("JOIN ruin")
        #expect(log.waitFor { $0.contains("waits for room ruin to load") } != nil)
        gate.open()
        #expect(try fay.awaitReply(timeout: 20).reply.hasPrefix("ERR UNKNOWN_ROOM "))
        // Its name is not free: its files are evidence.
        #expect(try fay.request("CREATE ruin jigsaw 2x2").reply.hasPrefix("ERR STORAGE "))
        #expect(FileManager.default.fileExists(atPath: data + "/rooms/ruin/snapshot"))
    }

    /// A server stopped while rooms load (the loader stops with the room in
    /// hand, the rest untouched) loses nothing: the next start has every
    /// room, its pieces where they were.
    @Test func aStopWhileRoomsLoadLosesNothing() throws {
        let names = ["den", "ell", "fen"]
        let (data, pieces) = try Self.filledFolder(names)
        try Self.makeLoadWrite("den", in: data)
        let gate = GatedStorageDevice(holding: "/rooms/den/")
        let server = try TestServer(rooms: [Self.lobby], dataDirectory: data, storageDevice: gate)
        #expect(gate.waitUntilHolding())
        gate.open()
        server.stop()

        let log = LogLines()
        let again = try TestServer(rooms: [Self.lobby], dataDirectory: data, log: log) { $0.logLevel = .info }
        defer { again.stop() }
        let gus = try LineClient(port: again.port, name: "gus")
        _ = try PlayerIdentityTests.hello2(gus, "gus")
        #expect(try gus.request("ROOMS").reply == "OK rooms 4")
        for name in names {
            let (reply, lines) = try gus.request("JOIN \(name)")
            #expect(reply.hasPrefix("OK joined \(name) ") && Self.pieceLines(lines) == pieces[name], "\(name): \(reply)")
        }
        #expect(!log.lines.contains { $0.contains("ERROR") }, "\(log.lines.filter { $0.contains("ERROR") })")
    }
}
