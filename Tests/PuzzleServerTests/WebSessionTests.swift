import Testing
import PuzzleWeb
@testable import PuzzleServer

/// A browser connection's state machine, without sockets.
@Suite struct WebSessionTests {
    @Test func firstBytesDecideTheTransport() {
        let cases: [(String, ConnectionTransport)] = [
            ("GET ", .web), ("GET / HTTP/1.1", .web), ("HEAD /", .web), ("OPTIONS *", .web),
            ("G", .undecided), ("GE", .undecided), ("HE", .undecided), ("", .undecided),
            ("HEL", .lines), ("HELLO 2 ann", .lines), ("PING", .lines), ("get / HTTP/1.1", .lines), ("GETX", .lines),
        ]
        for (text, expected) in cases {
            #expect(ConnectionTransport.classify(Array(text.utf8)) == expected, "\(text)")
        }
    }

    private func session() -> WebSession {
        WebSession(site: WebSite(origins: .sameHost), limits: HTTPLimits(), maxMessage: 100)
    }

    private let upgrade = "GET /ws HTTP/1.1\r\nHost: h:1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    @Test func pageThenUpgradeThenLinesThenClose() {
        var s = session()
        var actions = s.receive(Array(("GET / HTTP/1.1\r\nHost: h:1\r\n\r\n" + upgrade).utf8)
                                + WebSocketFrame(opcode: .text, payload: Array("PING a".utf8)).encoded(mask: (1, 2, 3, 4)), now: 0)
        #expect(actions.count == 4)
        guard actions.count == 4, case .send(let page) = actions[0], case .send(let switching) = actions[1] else { return }
        #expect(String(decoding: page.prefix(15), as: UTF8.self) == "HTTP/1.1 200 OK")
        #expect(String(decoding: switching.prefix(12), as: UTF8.self) == "HTTP/1.1 101")
        #expect(actions[2] == .upgraded && actions[3] == .line(Array("PING a".utf8)))
        actions = s.receive(WebSocketFrame(opcode: .close, payload: [0x03, 0xE8]).encoded(mask: (9, 9, 9, 9)), now: 1)
        #expect(actions == [.endWebSocket(closeFrame: [0x88, 2, 0x03, 0xE8], why: "WebSocket closed by the peer (1000)")])
        #expect(s.phase == .ended && s.receive([1, 2, 3], now: 2).isEmpty)
    }

    @Test func aSlowHeadTimesOut() {
        var s = session()
        #expect(s.receive(Array("GET / HTTP/1.1\r\nHo".utf8), now: 5).isEmpty)
        #expect(s.isReadingHead && s.headStartedAt == 5)
        let actions = s.timeOut()
        guard case .send(let bytes) = actions.first else { Issue.record("\(actions)"); return }
        #expect(String(decoding: bytes.prefix(12), as: UTF8.self) == "HTTP/1.1 408")
        #expect(actions.last == .endHTTP("HTTP 408 header timeout"))
    }

    /// Requests after a picture wait for it, so answers keep their order.
    @Test func requestsAfterAPictureWaitForIt() {
        var s = session()
        let two = "GET /picture/lobby?w=64 HTTP/1.1\r\nHost: h:1\r\n\r\nGET /style.css HTTP/1.1\r\nHost: h:1\r\nConnection: close\r\n\r\n"
        let first = s.receive(Array(two.utf8), now: 0)
        #expect(first.count == 1)
        guard case .picture(let room, let width, _)? = first.first else { Issue.record("\(first)"); return }
        #expect(room == "lobby" && width == 64)
        #expect(!s.isReadingHead && s.hasRequestsWaiting)
        let rest = s.answerPicture(HTTPResponse(status: .ok, body: [1]), now: 1)
        #expect(rest.count == 3 && rest.last == .endHTTP("HTTP done"))
        guard case .send(let picture)? = rest.first else { Issue.record("\(rest)"); return }
        #expect(String(decoding: picture, as: UTF8.self).contains("\r\nConnection: keep-alive\r\n"))
    }

    /// A refused picture (no such room) ends the connection like any refusal,
    /// and the requests behind it are never answered.
    @Test func aRefusedPictureCloses() {
        var s = session()
        let two = "GET /picture/nowhere HTTP/1.1\r\nHost: h:1\r\n\r\nGET /style.css HTTP/1.1\r\nHost: h:1\r\n\r\n"
        #expect(s.receive(Array(two.utf8), now: 0).count == 1)
        let rest = s.answerPicture(.error(.notFound), now: 1)
        #expect(rest.count == 2 && rest.last == .endHTTP("HTTP 404 GET /picture/nowhere") && s.phase == .ended)
        guard case .send(let refusal)? = rest.first else { Issue.record("\(rest)"); return }
        #expect(String(decoding: refusal, as: UTF8.self).contains("\r\nConnection: close\r\n"))
    }

    /// Pipelined requests are answered while the output has room; the rest
    /// wait, unparsed and untimed, until it has drained.
    @Test func pipelinedRequestsWaitForTheOutputToDrain() {
        var s = session()
        let one = "GET /style.css HTTP/1.1\r\nHost: h:1\r\n\r\n"
        guard case .send(let answer)? = s.receive(Array(one.utf8), now: 0).first else { Issue.record("no answer"); return }
        let size = answer.count
        // Room for two answers and a byte of a third: three are answered.
        let first = s.receive(Array(String(repeating: one, count: 5).utf8) + Array("GET /app".utf8), now: 0, outputRoom: 2 * size + 1)
        #expect(first == Array(repeating: .send(answer), count: 3))
        #expect(s.isHeldBack && s.hasRequestsWaiting && !s.isReadingHead)
        #expect(s.receive(Array(".js HTTP/1.1\r\n".utf8), now: 1, outputRoom: .max).isEmpty, "held back, whatever comes")
        let rest = s.outputDrained(now: 2)
        #expect(rest.count == 2 && !s.isHeldBack)
        // The partial head's clock starts when it is read, not while it waited.
        #expect(s.isReadingHead && s.headStartedAt == 2)
    }
}
