import Foundation
import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleTestSupport
import Testing
@testable import PuzzleServer

/// A CREATE's room is laid out and written off the loop (issue 31: a
/// 100x100's layout, snapshot and three synced files held everyone's turn).
/// While it is made, the loop answers others, the name is taken, nobody can
/// join the room yet, and the asker's later requests wait behind its reply.
/// A room the disk refuses is `STORAGE`, and its name free again.
///
/// The room's files are held at will: a `GatedStorageDevice` holds every
/// whole-file write under the room's directory until the test opens it.
@Suite struct CreateOffTheLoopTests {
    @Test func aRoomIsMadeOffTheLoopAndItsAskerIsAnsweredInOrder() throws {
        let gate = GatedStorageDevice(holding: "/rooms/den/")
        let server = try TestServer(storageDevice: gate) { $0.createsPerHour = 0 }
        defer { server.stop() }
        defer { gate.open() }
        let ann = try LineClient(port: server.port, name: "ann")
        defer { ann.close() }
        _ = try PlayerIdentityTests.hello2(ann, "ann")
        // Pipelined: the PING must not be answered before the CREATE.
        try ann.sendRaw(Array("CREATE den jigsaw 4x4\nPING\n".utf8))
        #expect(gate.waitUntilHolding(), "den's files were never written")

        // den is being written (held): the loop answers everyone else.
        let bob = try LineClient(port: server.port, name: "bob")
        defer { bob.close() }
        #expect(try bob.request("PING").reply == "PONG")
        _ = try PlayerIdentityTests.hello2(bob, "bob")
        #expect(try bob.request("CREATE den swap 2x2").reply.hasPrefix("ERR ROOM_EXISTS "), "its name is taken")
        #expect(try bob.request("JOIN den").reply.hasPrefix("ERR UNKNOWN_ROOM "), "nobody plays in it before it is stored")
        let (_, listing) = try bob.request("ROOMS")
        #expect(!listing.contains { $0.hasPrefix("S room den ") }, "\(listing)")
        #expect(try bob.request("JOIN lobby").reply.hasPrefix("OK joined lobby "))

        gate.open()
        #expect(try ann.awaitReply(timeout: 20).reply == "OK created den")
        #expect(try ann.awaitReply().reply == "PONG", "the asker's next request comes after its CREATE's reply")
        let (joined, lines) = try ann.request("JOIN den")
        #expect(joined.hasPrefix("OK joined den "))
        #expect(try SnapshotCodec.decode(lines.map { Substring($0) }, now: 0).state.pieceCount == 16)
    }

    @Test func aRoomTheDiskRefusesIsStorageAndItsNameIsFreeAgain() throws {
        let device = FaultyStorageDevice()
        // One room an hour: the refused one is given back, so the next is made.
        let server = try TestServer(storageDevice: device) { $0.createsPerHour = 1 }
        defer { server.stop() }
        let ann = try LineClient(port: server.port, name: "ann")
        defer { ann.close() }
        _ = try PlayerIdentityTests.hello2(ann, "ann")
        device.failFileWrites(.noSpace, matching: "/rooms/den/")
        #expect(try ann.request("CREATE den jigsaw 4x4").reply.hasPrefix("ERR STORAGE "))
        #expect(try ann.request("JOIN den").reply.hasPrefix("ERR UNKNOWN_ROOM "))
        device.failFileWrites(nil)
        #expect(try ann.request("CREATE den jigsaw 4x4").reply == "OK created den")
        #expect(try ann.request("JOIN den").reply.hasPrefix("OK joined den "))
        #expect(try ann.request("CREATE attic jigsaw 2x2").reply.hasPrefix("ERR RATE_LIMITED "), "the allowance is spent now")
    }

    @Test func aRoomBeingMadeWhenTheServerStopsIsKept() throws {
        let data = TestServer.temporaryDirectory()
        let gate = GatedStorageDevice(holding: "/rooms/den/")
        let log = LogLines()
        let server = try TestServer(dataDirectory: data, log: log, storageDevice: gate) {
            $0.createsPerHour = 0
            $0.logLevel = .debug
        }
        let ann = try LineClient(port: server.port, name: "ann")
        defer { ann.close() }
        _ = try PlayerIdentityTests.hello2(ann, "ann")
        try ann.send("CREATE den jigsaw 4x4")
        #expect(gate.waitUntilHolding(), "den's files were never written")
        // The stop closes the connections, then waits for den's files: the
        // gate opens once ann's connection is closed for the shutdown.
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.stop()
            stopped.signal()
        }
        #expect(log.waitFor { $0.contains(": shutdown") } != nil)
        // Held for a second: the stop does not end (nor let go of the data) meanwhile.
        #expect(log.waitFor(timeout: 1) { $0.contains("shut down cleanly") } == nil, "the stop did not wait for den's files")
        gate.open()
        #expect(stopped.wait(timeout: .now() + 30) == .success)

        let again = try TestServer(dataDirectory: data) { $0.createsPerHour = 0 }
        defer { again.stop() }
        let bob = try LineClient(port: again.port, name: "bob")
        defer { bob.close() }
        _ = try PlayerIdentityTests.hello2(bob, "bob")
        #expect(try bob.request("JOIN den").reply.hasPrefix("OK joined den "), "a room whose files were being written is whole after the stop")
    }
}

/// One encoding of a room's picture however many ask for it at once
/// (issue 31: each PICTURE that missed the room's copy started its own job).
@Suite struct PictureWaitersTests {
    @Test func theFirstAskerStartsTheJobAndAllAreAnsweredWhenItIsDone() {
        var waiters = PictureWaiters()
        let png = PictureWaiters.Key(room: "den", format: .png, hash: "ab"), jpeg = PictureWaiters.Key(room: "den", format: .jpeg, hash: "ab")
        let starts = [waiters.wait(20, for: png), waiters.wait(21, for: png), waiters.wait(22, for: png), waiters.wait(23, for: jpeg)]
        #expect(starts == [true, false, false, true], "one job a picture and format; another format is another job")
        let pngDone = waiters.done(png)
        #expect(pngDone == [20, 21, 22])
        let again = waiters.wait(24, for: png)
        #expect(again, "an asker after the job is done starts one (the room's copy answers it first)")
        let (jpegDone, pngAgain, none) = (waiters.done(jpeg), waiters.done(png), waiters.done(png))
        #expect(jpegDone == [23] && pngAgain == [24] && none.isEmpty)
    }
}
