import Testing
@testable import PuzzleProtocol

@Suite struct WireGoodbyeTests {
    /// The server's goodbyes, with the bytes it wrote before they were typed.
    static let lines: [(WireGoodbye, String)] = [
        (.full("server is full (2 connections)"), "BYE FULL server is full (2 connections)"),
        (.full("too many connections from 127.0.0.1 (limit 2)"), "BYE FULL too many connections from 127.0.0.1 (limit 2)"),
        (.idle(seconds: 300), "BYE IDLE no request for 300 s"),
        (.shutdown, "BYE SHUTDOWN server is shutting down"),
        (.resumed, "BYE RESUMED signed in again from another connection"),
        (.slow("output queue over 4194304 bytes"), "BYE SLOW output queue over 4194304 bytes"),
    ]

    @Test func everyGoodbyeEncodesToItsLineAndDecodesBack() {
        for (bye, line) in Self.lines {
            var bytes: [UInt8] = []
            bye.encode(into: &bytes)
            #expect(bytes == Array((line + "\n").utf8))
            #expect(bye.line == line)
            #expect(WireGoodbye.decode(Substring(line)) == bye, "\(line)")
            #expect(ServerLine.classify(Substring(line)) == .bye(bye))
        }
    }

    /// Any code reads (the set is open), and only `BYE` lines do.
    @Test func decodingIsByCodeAndOnlyOfGoodbyes() {
        #expect(WireGoodbye.decode("BYE LATER come back soon") == WireGoodbye(GoodbyeCode(rawValue: "LATER"), "come back soon"))
        #expect(WireGoodbye.decode("BYE SLOW")?.code == .slow)
        #expect(WireGoodbye.decode("BYE") == WireGoodbye(GoodbyeCode(rawValue: ""), ""))
        for line in ["BYEBYE now", "OK bye", "ERR SLOW x", "EV 1 left 2", "", "bye SLOW x"] {
            #expect(WireGoodbye.decode(Substring(line)) == nil, "\(line)")
        }
    }
}
