import Testing
@testable import PuzzleProtocol

@Suite struct ServerLineTests {
    private func classify(_ s: String) -> ServerLine { ServerLine.classify(s[...]) }

    @Test func replies() {
        #expect(classify("OK") == .ok(""))
        #expect(classify("OK joined den as 3") == .ok("joined den as 3"))
        #expect(classify("OK  two  spaces") == .ok(" two  spaces"))
        #expect(classify("ERR BAD_ARGS usage: GRAB <piece>") == .error(code: .badArgs, message: "usage: GRAB <piece>"))
        #expect(classify("ERR HELD piece 3 is held by bob") == .error(code: .held, message: "piece 3 is held by bob"))
        #expect(classify("ERR NO_MESSAGE") == .error(code: ErrorCode(rawValue: "NO_MESSAGE"), message: ""))
        #expect(classify("PONG") == .pong(""))
        #expect(classify("PONG abc  def") == .pong("abc  def"))
        for line in ["OK", "OK x", "ERR A b", "PONG", "PONG t"] {
            #expect(classify(line).isReply, "\(line)")
        }
    }

    @Test func errorLinesOfProtocolErrorsClassifyBack() {
        for e in [ProtocolError.badUTF8, .nulByte, .badName, .unknownVerb("FLY"), .badNumber("x"), .lineTooLong(4096), .badVersion(9)] {
            #expect(classify(e.line) == .error(code: e.code, message: e.message))
            #expect(e.description == "\(e.code) \(e.message)")
        }
    }

    @Test func pushedLines() {
        #expect(classify("S room den kind=swap") == .state("S room den kind=swap"))
        #expect(classify("EV 4 grabbed 1 2") == .event("EV 4 grabbed 1 2"))
        #expect(classify("BYE SHUTDOWN server is stopping") == .bye(WireGoodbye(.shutdown, "server is stopping")))
        #expect(classify("BYE IDLE") == .bye(WireGoodbye(.idle, "")))
        #expect(classify("BYE") == .bye(WireGoodbye(GoodbyeCode(rawValue: ""), "")))
        #expect(classify("BYE LATER  two  spaces") == .bye(WireGoodbye(GoodbyeCode(rawValue: "LATER"), "two  spaces")))
        for line in ["S x", "EV 1 left 2", "BYE X y"] {
            #expect(!classify(line).isReply, "\(line)")
        }
    }

    @Test func unknownLines() {
        for line in ["", "ok", "OKAY", "ERR", "ERROR x", "PONGS", "PONGx y", "BYEBYE now", "EV", "EVENT 1", "S", "Sx", "HELLO"] {
            #expect(classify(line) == .unknown(line[...]), "\(line)")
            #expect(!classify(line).isReply)
        }
    }

    /// The byte-level rule (what the load test's bots read by) and `classify` agree.
    @Test func kindsFromBytesAgreeWithClassify() {
        let lines = ["OK", "OK x", "OK  two", "ERR A b", "ERR BAD_ARGS", "PONG", "PONG t", "S x", "S room den", "EV 1 left 2",
                     "BYE", "BYE SLOW too slow", "", "o", "ok", "OKAY", "ERR", "ERROR x", "PONGS", "PONGx y", "BYEBYE now",
                     "EV", "EVENT 1", "S", "Sx", "HELLO", "E", "EV1", "B", "BY"]
        for line in lines {
            let kind = Array(line.utf8).withUnsafeBytes { ServerLine.kind(of: $0) }
            let expected: ServerLine.Kind = switch classify(line) {
            case .ok: .ok
            case .error: .error
            case .pong: .pong
            case .state: .state
            case .event: .event
            case .bye: .bye
            case .unknown: .unknown
            }
            #expect(kind == expected, "\(line)")
        }
    }

    @Test func replyFieldsReadKeyValueWords() {
        let f = replyFields("digest seq=12 value=00ab=cd  empty= =x plain")
        #expect(f == ["seq": "12", "value": "00ab=cd"])
        #expect(replyFields("") == [:])
        #expect(replyFields("a=1 a=2")["a"] == "2")
        let sub = "OK stats rooms=3 players=10"[...].dropFirst(3)
        #expect(replyFields(sub) == ["rooms": "3", "players": "10"])
    }
}
