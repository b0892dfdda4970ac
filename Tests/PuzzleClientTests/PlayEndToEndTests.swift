import PuzzleProtocol
import Foundation
import PuzzleTestSupport
import Testing
import PuzzleCore
import PuzzleLink
@testable import PuzzleClient
@testable import PuzzleServer

/// A real server and two plain-mode clients, in-process; every wait has a deadline.
@Suite(.serialized) struct PlayEndToEndTests {
    static let rooms = [
        RoomSpec(name: "lobby", kind: .jigsaw, rows: 3, cols: 3),
        RoomSpec(name: "duo", kind: .swap, rows: 2, cols: 2),
    ]

    @Test func oneDragsAndTheOtherSeesTheDragAndItsTarget() throws {
        let server = try TestServer(rooms: Self.rooms)
        defer { server.stop() }
        let alice = try PlainSession(port: server.port, name: "alice", room: "lobby", strict: true)
        try alice.waitFor("joined lobby as alice (#", prefix: true)
        let bob = try PlainSession(port: server.port, name: "bob", room: "lobby")
        try bob.waitFor("joined lobby as bob (#", prefix: true)
        try alice.waitFor(from: 0, "bob joined") { $0.hasPrefix("bob (#") && $0.hasSuffix(") joined") }

        try alice.send("grab 4")
        try alice.waitFor("ok: grabbed 4")
        try bob.waitFor("alice grabbed piece 4")
        // Cell (1,1) of a 3x3 jigsaw: margins of 1 and 3 cells, 4 units a cell.
        try alice.send("place 1 1")
        try alice.waitFor("ok: dragged 4 16 8 1,1")
        try bob.waitFor("alice dragged piece 4 to 16,8 → cell 1,1")
        try bob.send("board")
        try bob.waitFor("held: 4 by alice at 16,8 → cell 1,1")
        try bob.send("grab 4")
        try bob.waitFor(from: 0, "HELD refusal") { $0.hasPrefix("error HELD: piece 4 is held by alice") }
        try alice.send("drop")
        try alice.waitFor("ok: dropped 4 cell 1 1")
        try bob.waitFor("alice placed piece 4 in cell 1,1")
        try alice.send("frobnicate")
        try alice.waitFor("error: unknown command 'frobnicate'; help lists them")

        alice.closeInput()
        bob.closeInput()
        #expect(try alice.waitForExit() == 1)  // --strict, and one command failed
        #expect(try bob.waitForExit() == 0)    // not strict
    }

    @Test func solvingTogetherPrintsTheSolvedLineInBoth() throws {
        let server = try TestServer(rooms: Self.rooms)
        defer { server.stop() }
        let alice = try PlainSession(port: server.port, name: "alice", room: "duo")
        try alice.waitFor("joined duo as alice (#", prefix: true)
        let bob = try PlainSession(port: server.port, name: "bob", room: "duo")
        try bob.waitFor("joined duo as bob (#", prefix: true)

        try alice.send("board")
        let r0 = try alice.waitFor("row 0: ", prefix: true)
        let r1 = try alice.waitFor("row 1: ", prefix: true, from: r0.index)
        var occupant = (r0.line + " " + r1.line.dropFirst(7)).dropFirst(7).split(separator: " ").compactMap { Int($0) }
        #expect(occupant.count == 4)
        #expect(occupant != [0, 1, 2, 3])  // a swap board never starts solved

        // Put piece i in cell i, in turn; the players take turns.
        var players = [alice, bob]
        var swaps = 0
        for cell in 0..<4 where occupant[cell] != cell {
            let from = occupant.firstIndex(of: cell)!
            let player = players[0]
            let seen = player.output.count
            try player.send("grab \(cell)")
            try player.send("place \(cell / 2) \(cell % 2)")
            try player.send("drop")
            try player.waitFor("ok: dropped \(cell) swapped cell \(cell / 2) \(cell % 2)", prefix: true, from: seen)
            let other = players[1]
            try other.waitFor(from: 0, "the swap of piece \(cell)") {
                $0.hasPrefix("\(player.name) swapped piece \(cell) into cell \(cell / 2),\(cell % 2)")
            }
            occupant.swapAt(cell, from)
            players.reverse()
            swaps += 1
        }
        #expect(swaps >= 1)
        try alice.waitFor("*** puzzle 0 solved in ", prefix: true)
        try bob.waitFor("*** puzzle 0 solved in ", prefix: true)

        alice.closeInput()
        bob.closeInput()
        #expect(try alice.waitForExit() == 0)
        #expect(try bob.waitForExit() == 0)
    }

    @Test func aRefusedJoinEndsTheSessionWithStatusOne() throws {
        let server = try TestServer(rooms: Self.rooms)
        defer { server.stop() }
        let carol = try PlainSession(port: server.port, name: "carol", room: "nowhere")
        try carol.waitFor("error UNKNOWN_ROOM: ", prefix: true)
        #expect(try carol.waitForExit() == 1)
    }

    /// Without --room on a server with several rooms the player picks one; rooms
    /// can be created and switched from the client; a refused switch goes back.
    @Test func roomsArePickedCreatedAndSwitchedFromTheClient() throws {
        let server = try TestServer(rooms: Self.rooms)
        defer { server.stop() }
        let dave = try PlainSession(port: server.port, name: "dave", room: nil)
        try dave.waitFor("pick a room: /join NAME [PASSWORD] (rooms: duo, lobby)")
        try dave.send("join duo")
        try dave.waitFor("joined duo as dave (#", prefix: true)
        try dave.send("create extra swap 3x3")
        try dave.waitFor("ok: created extra")
        try dave.send("create bad puzzle 3x3")
        try dave.waitFor(from: 0, "a refused create") { $0.hasPrefix("error: kind \"puzzle\" must be jigsaw or swap") }
        try dave.send("join extra")
        let joined = try dave.waitFor("joined extra as dave (#", prefix: true)
        // Every check of the new room is made before dave leaves: a typo, a
        // missing or a wrong password leave it where it is, and the room it
        // is in sees nothing.
        let watcher = try LineClient(port: server.port, name: "watcher")
        try watcher.enter("extra", as: "watcher")
        try dave.send("join nowhere")
        try dave.waitFor(from: joined.index, "UNKNOWN_ROOM") { $0.hasPrefix("error UNKNOWN_ROOM: ") }
        try dave.send("create locked jigsaw 3x3 password=pw")
        try dave.waitFor("ok: created locked")
        try dave.send("join locked")
        let missing = try dave.waitFor(from: joined.index, "BAD_PASSWORD") { $0.hasPrefix("error BAD_PASSWORD: ") }
        try dave.send("join locked wrong")
        try dave.waitFor(from: missing.index + 1, "BAD_PASSWORD") { $0.hasPrefix("error BAD_PASSWORD: ") }
        try dave.waitFor(from: missing.index + 1, "you stay") { $0 == "you stay in extra" }
        #expect(!dave.output.dropFirst(joined.index + 1).contains { $0.hasPrefix("joined ") })
        try dave.send("say still here")
        try watcher.waitForEvent { $0.contains(" say ") && $0.hasSuffix(" still here") }
        #expect(!watcher.events.contains { $0.contains(" left ") || $0.contains(" joined ") }, "\(watcher.events)")
        try dave.send("who")
        try dave.waitFor("ok: who 2")
        dave.closeInput()
        #expect(try dave.waitForExit() == 0)  // not strict: refused commands do not fail the run
    }

    @Test func theOnlyRoomIsJoinedWithoutAsking() throws {
        let server = try TestServer(rooms: [Self.rooms[1]])
        defer { server.stop() }
        let erin = try PlainSession(port: server.port, name: "erin", room: nil)
        try erin.waitFor("joined duo as erin (#", prefix: true)
        erin.closeInput()
        #expect(try erin.waitForExit() == 0)
    }
}
