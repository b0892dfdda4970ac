import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
import PuzzleProtocol
@testable import PuzzleServer

/// Every malformed line gets an ERR with a stable code; the connection lives on.
@Suite struct ServerBadInputTests {
    private func greeted(_ server: TestServer, join: Bool = true) throws -> LineClient {
        let c = try LineClient(port: server.port)
        if join { try c.enter(as: "tester") } else { _ = try c.hello("tester") }
        return c
    }

    private func expectCode(_ c: LineClient, _ line: String, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reply = try c.request(line).reply
        #expect(reply.hasPrefix("ERR \(code) "), "\(line) → \(reply)", sourceLocation: sourceLocation)
        #expect(try c.request("PING alive").reply == "PONG alive", sourceLocation: sourceLocation)
    }

    @Test func unknownVerbWrongArgsAndBadNumbers() throws {
        let server = try TestServer()
        let c = try greeted(server)
        try expectCode(c, "FROB 1", "UNKNOWN_VERB")
        try expectCode(c, "GRAB", "BAD_ARGS")
        try expectCode(c, "GRAB 1 2", "BAD_ARGS")
        try expectCode(c, "DRAG 1 2 3 4", "BAD_ARGS")
        try expectCode(c, "GRAB one", "BAD_NUMBER")
        try expectCode(c, "DRAG 0 x 3", "BAD_NUMBER")
        try expectCode(c, "GRAB 99999999999999999999", "BAD_NUMBER")
        try expectCode(c, "HELLO 1 second", "ALREADY_HELLO")
    }

    @Test func unknownPieceUnknownRoomAndOffTable() throws {
        let server = try TestServer()
        let c = try greeted(server)
        try expectCode(c, "GRAB 9", "UNKNOWN_PIECE")
        try expectCode(c, "DROP 3", "NOT_HOLDER")
        try expectCode(c, "DROP", "BAD_ARGS")
        #expect(try c.request("GRAB 3").reply == "OK grabbed 3")
        try expectCode(c, "DRAG 3 -1 0", "OFF_TABLE")
        try expectCode(c, "ROTATE", "ROTATION_OFF")
        try expectCode(c, "GRAB 4", "HOLD_LIMIT")
        try expectCode(c, "JOIN nowhere", "ALREADY_JOINED")
        #expect(try c.request("LEAVE").reply == "OK left lobby")
        try expectCode(c, "JOIN nowhere", "UNKNOWN_ROOM")
        try expectCode(c, "CREATE big jigsaw 101x2", "BAD_SIZE")
        // The store's rule and CREATE's are one: these never reach the disk.
        try expectCode(c, "CREATE .. jigsaw 3x3", "BAD_NAME")
        try expectCode(c, "CREATE . jigsaw 3x3", "BAD_NAME")
        try expectCode(c, "CREATE pic jigsaw 3x3 picture=nope", "BAD_PICTURE")
        try expectCode(c, "NEXT", "NOT_JOINED")
    }

    @Test func actionsBeforeHelloOrJoin() throws {
        let server = try TestServer()
        let c = try LineClient(port: server.port)
        try expectCode(c, "JOIN lobby", "NO_HELLO")
        try expectCode(c, "GRAB 1", "NO_HELLO")
        try expectCode(c, "HELLO 3 me", "BAD_VERSION")
        try expectCode(c, "HELLO 1 bad/name", "BAD_NAME")
        _ = try c.hello("me")
        try expectCode(c, "GRAB 1", "NOT_JOINED")
        try expectCode(c, "SAY hi", "NOT_JOINED")
    }

    @Test func pieceHeldBySomeoneElse() throws {
        let server = try TestServer()
        let a = try greeted(server), b = try greeted(server)
        #expect(try a.request("GRAB 0").reply == "OK grabbed 0")
        try expectCode(b, "GRAB 0", "HELD")
        try expectCode(b, "DRAG 0 1 1", "NOT_HOLDER")
        try expectCode(b, "DROP 0", "NOT_HOLDER")
        try expectCode(b, "RELEASE 0", "NOT_HOLDER")
    }

    @Test func overlongLineIsRefusedAndTheRestDiscarded() throws {
        let server = try TestServer { $0.maxLineLength = 64 }
        let c = try greeted(server)
        // The long line arrives in pieces; its tail must not be read as a request.
        try c.sendRaw(Array(("SAY " + String(repeating: "x", count: 100)).utf8))
        try c.sendRaw(Array((String(repeating: "y", count: 200) + " GRAB 1\nPING after\n").utf8))
        #expect(try c.awaitReply().reply.hasPrefix("ERR LINE_TOO_LONG"))
        #expect(try c.awaitReply().reply == "PONG after")
    }

    @Test func invalidUTF8AndNulBytes() throws {
        let server = try TestServer()
        let c = try greeted(server)
        try c.sendRaw([0x53, 0x41, 0x59, 0x20, 0xFF, 0xFE, 0x0A])
        #expect(try c.awaitReply().reply.hasPrefix("ERR BAD_UTF8"))
        try c.sendRaw(Array("PING a".utf8) + [0] + Array("b\n".utf8))
        #expect(try c.awaitReply().reply.hasPrefix("ERR NUL_BYTE"))
        #expect(try c.request("SAY héllo ✓").reply == "OK said")
    }

    /// HTTP methods are case-sensitive and protocol verbs are not: a line
    /// client's `get` is a line (an unknown verb), not a browser.
    @Test func lowercaseGetIsALineNotHTTP() throws {
        let server = try TestServer()
        let c = try LineClient(port: server.port)
        #expect(try c.request("get / HTTP/1.1").reply.hasPrefix("ERR "))
        #expect(try c.request("PING still").reply == "PONG still")
    }

    @Test func overMaxConnectionsGetsAnErrorLineThenClose() throws {
        let server = try TestServer { $0.maxConnections = 2 }
        let a = try greeted(server), b = try greeted(server)
        let c = try LineClient(port: server.port)
        let lines = try c.waitForClose()
        #expect(lines == ["BYE FULL server is full (2 connections)"])
        #expect(try a.request("PING").reply == "PONG" && b.request("PING").reply == "PONG")
    }

    @Test func dragFloodIsRateLimitedNotFatal() throws {
        let server = try TestServer { $0.dragRateLimit = 20 }
        let c = try greeted(server)
        #expect(try c.request("GRAB 0").reply == "OK grabbed 0")
        let flood = (0..<100).map { "DRAG 0 \($0 % 8) 1\n" }.joined()
        try c.sendRaw(Array(flood.utf8))
        var ok = 0, limited = 0
        for _ in 0..<100 {
            let r = try c.awaitReply().reply
            if r.hasPrefix("OK dragged") { ok += 1 } else if r.hasPrefix("ERR RATE_LIMITED") { limited += 1 }
        }
        #expect(ok + limited == 100 && limited >= 50 && ok >= 20)
        #expect(try c.request("PING").reply == "PONG")
    }

    @Test func idleConnectionsAreClosed() throws {
        let server = try TestServer { $0.idleTimeoutSeconds = 1 }
        let a = try LineClient(port: server.port, name: "a")
        try a.enter(as: "sleepy")
        #expect(try a.request("GRAB 2").reply == "OK grabbed 2")
        let lines = try a.waitForClose(timeout: 10)
        #expect(lines.last?.hasPrefix("BYE IDLE") == true)
        // The idle player's piece went back: anyone can grab it.
        let b = try LineClient(port: server.port, name: "b")
        try b.enter(as: "watcher")
        #expect(try b.request("GRAB 2").reply == "OK grabbed 2")
    }
}
