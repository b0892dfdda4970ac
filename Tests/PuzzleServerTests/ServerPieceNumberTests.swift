import PuzzleProtocol
import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
@testable import PuzzleServer

/// Every request that names a piece is checked by the core before the server
/// uses the number: out-of-range and extreme numbers get an ERR, with or
/// without a hold, and the server keeps serving everyone.
@Suite struct ServerPieceNumberTests {
    /// Numbers just past a 4x4 board (16 pieces), far past it, and at the top of the integer range.
    static let outOfRange = ["16", "17", "1000", "4294967296", "\(Int.max - 1)", "\(Int.max)"]
    /// Numbers that are not piece numbers at all.
    static let notNumbers = ["-1", "\(Int.min)", "9223372036854775808", "99999999999999999999999", "+3", "0x10", "1e3"]

    private static let room = RoomSpec(name: "lobby", kind: .jigsaw, rows: 4, cols: 4, picture: "sunset", rotation: true, password: nil)

    private func expectError(_ c: LineClient, _ line: String, codes: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reply = try c.request(line).reply
        let code = reply.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        #expect(reply.hasPrefix("ERR ") && codes.contains(code), "\(line) → \(reply)", sourceLocation: sourceLocation)
    }

    /// Each verb's request lines for `n`, with the codes its refusal may carry.
    private func requests(_ n: String) -> [(String, Set<String>)] {
        let piece: Set<String> = ["UNKNOWN_PIECE", "BAD_NUMBER"]
        return [
            ("GRAB \(n)", piece),
            ("DRAG \(n) 4 4", piece),
            ("DRAG \(n) \(n) \(n)", piece.union(["OFF_TABLE"])),
            ("ROTATE \(n)", piece),
            ("DROP \(n)", piece),
            ("RELEASE \(n)", piece),
        ]
    }

    @Test(arguments: [false, true])
    func everyVerbRefusesOutOfRangeAndExtremeNumbers(holding: Bool) throws {
        let server = try TestServer(rooms: [Self.room], seed: 11)
        let c = try LineClient(port: server.port)
        try c.enter(as: "tester")
        if holding { #expect(try c.request("GRAB 5").reply == "OK grabbed 5") }
        for n in Self.outOfRange + Self.notNumbers {
            for (line, codes) in requests(n) {
                try expectError(c, line, codes: Self.notNumbers.contains(n) ? ["BAD_NUMBER", "BAD_ARGS"] : codes)
            }
        }
        // Extreme coordinates on a piece that is held, or not.
        for x in ["\(Int.max)", "\(Int.min)", "-1", "9223372036854775808"] {
            try expectError(c, "DRAG 5 \(x) 4", codes: holding ? ["OFF_TABLE", "BAD_NUMBER"] : ["NOT_HOLDER", "BAD_NUMBER"])
            try expectError(c, "DRAG 5 4 \(x)", codes: holding ? ["OFF_TABLE", "BAD_NUMBER"] : ["NOT_HOLDER", "BAD_NUMBER"])
        }
        // The connection, the room and the server all live on.
        #expect(try c.request("PING alive").reply == "PONG alive")
        #expect(try c.request("DIGEST").reply.hasPrefix("OK digest "))
        if holding { #expect(try c.request("DROP").reply.hasPrefix("OK dropped 5 ")) }
        let other = try LineClient(port: server.port)
        try other.enter(as: "other")
        #expect(try other.request("GRAB 15").reply == "OK grabbed 15")
        #expect(try other.request("DROP 15").reply.hasPrefix("OK dropped 15 "))
    }
}
