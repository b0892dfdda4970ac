import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleCore
import PuzzleProtocol

/// `<data>/players` damaged on disk (issue 10): a bad line costs only its own
/// token, the log says so, the other tokens still resume, ids are not handed
/// out again, and a torn last line does not swallow the next token.
@Suite(.serialized) struct DamagedPlayersFileTests {
    /// Greets each name with HELLO 2 on a server over `data`; returns (id, token) per name.
    static func register(_ names: [String], data: String) throws -> [(id: Int, token: String)] {
        let server = try TestServer(dataDirectory: data)
        defer { server.stop() }
        return try names.map { name in
            try PlayerIdentityTests.hello2(try LineClient(port: server.port, name: name), name)
        }
    }

    static func hello(_ port: Int, token: String) throws -> String {
        try LineClient(port: port, name: "resume").request("HELLO 2 someone \(token)").reply
    }

    @Test func aDamagedLineCostsOnlyItsOwnToken() throws {
        let data = TestServer.temporaryDirectory()
        let players = try Self.register(["alice", "bob", "carol"], data: data)
        let path = data + "/players"
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        // Bob's line: one letter of his name changed (the checksum no longer matches).
        lines[1] = lines[1].replacingOccurrences(of: " bob ", with: " bib ")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)

        let log = LogLines()
        let server = try TestServer(dataDirectory: data, log: log)
        defer { server.stop() }
        #expect(log.lines.contains { $0.contains("players line 2 is damaged") }, "log: \(log.lines)")
        #expect(try Self.hello(server.port, token: players[1].token).hasPrefix("ERR BAD_TOKEN "))
        #expect(try Self.hello(server.port, token: players[0].token).hasPrefix("OK hello version=2 id=\(players[0].id) name=alice "))
        #expect(try Self.hello(server.port, token: players[2].token).hasPrefix("OK hello version=2 id=\(players[2].id) name=carol "))
        // A newcomer's id goes on after the largest one still on record.
        let dave = try PlayerIdentityTests.hello2(try LineClient(port: server.port, name: "dave"), "dave")
        #expect(dave.id > players[2].id)
    }

    @Test func aTornLastLineIsCutSoTheNextTokenSurvives() throws {
        let data = TestServer.temporaryDirectory()
        let players = try Self.register(["alice"], data: data)
        let path = data + "/players"
        // A crash in the middle of appending a second line.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("2 0123456789abcdef01".utf8))
        handle.closeFile()

        let log = LogLines()
        var erin: (id: Int, token: String)
        do {
            let server = try TestServer(dataDirectory: data, log: log)
            defer { server.stop() }
            #expect(log.lines.contains { $0.contains("torn line") }, "log: \(log.lines)")
            erin = try PlayerIdentityTests.hello2(try LineClient(port: server.port, name: "erin"), "erin")
        }
        // After another restart both tokens still resume.
        let server = try TestServer(dataDirectory: data)
        defer { server.stop() }
        #expect(try Self.hello(server.port, token: players[0].token).hasPrefix("OK hello version=2 id=\(players[0].id) name=alice "))
        #expect(try Self.hello(server.port, token: erin.token).hasPrefix("OK hello version=2 id=\(erin.id) name=erin "))
    }
}
