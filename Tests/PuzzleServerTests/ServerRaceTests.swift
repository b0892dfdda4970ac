import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleProtocol
@testable import PuzzleServer

@Suite struct ServerRaceTests {
    /// Two clients send GRAB for the same piece at once, 1,000 times: exactly one
    /// wins each race and the loser's error names the winner.
    @Test func twoClientsRaceForOnePieceAThousandTimes() throws {
        let server = try TestServer()
        let a = try LineClient(port: server.port, name: "a"), b = try LineClient(port: server.port, name: "b")
        try a.enter(as: "alice")
        try b.enter(as: "bob")
        var wins = ["alice": 0, "bob": 0]
        for race in 0..<1_000 {
            let piece = race % 9
            // Both requests are on the wire before either reply is read.
            try a.send("GRAB \(piece)")
            try b.send("GRAB \(piece)")
            let ra = try a.awaitReply().reply, rb = try b.awaitReply().reply
            let aWon = ra == "OK grabbed \(piece)", bWon = rb == "OK grabbed \(piece)"
            #expect(aWon != bWon, "race \(race): \(ra) / \(rb)")
            let (winner, loserReply) = aWon ? (a, rb) : (b, ra)
            let winnerName = aWon ? "alice" : "bob"
            #expect(loserReply.hasPrefix("ERR HELD piece \(piece) is held by \(winnerName) (#"), "race \(race): \(loserReply)")
            wins[winnerName, default: 0] += 1
            #expect(try winner.request("RELEASE").reply == "OK released \(piece)")
            a.events.removeAll(); b.events.removeAll()
        }
        #expect(wins["alice"]! + wins["bob"]! == 1_000)
        #expect(replyFields(try a.request("DIGEST").reply)["held"] == "0")
    }
}
