import Testing
import PuzzleClient
@testable import PuzzleTelnet
import Foundation

/// What the gateway offers, answers and learns: one test per negotiation rule.
@Suite struct TelnetSessionTests {
    let iac = TelnetByte.iac

    private func neg(_ verb: UInt8, _ option: UInt8) -> [UInt8] { [iac, verb, option] }
    private func naws(_ columns: Int, _ rows: Int) -> [UInt8] {
        TelnetEncoder.subnegotiation(TelnetOption.windowSize, [UInt8(columns >> 8), UInt8(columns & 0xFF), UInt8(rows >> 8), UInt8(rows & 0xFF)])
    }
    private func ttype(_ name: String) -> [UInt8] {
        TelnetEncoder.subnegotiation(TelnetOption.terminalType, [TelnetOption.ttypeIs] + Array(name.utf8))
    }

    @Test func openingAsksForCharacterModeBinaryWindowSizeAndTerminalType() {
        let o = TelnetSession.opening
        for expected in [neg(TelnetByte.will, TelnetOption.echo), neg(TelnetByte.will, TelnetOption.suppressGoAhead),
                         neg(TelnetByte.do, TelnetOption.suppressGoAhead), neg(TelnetByte.will, TelnetOption.binary),
                         neg(TelnetByte.do, TelnetOption.binary), neg(TelnetByte.do, TelnetOption.windowSize),
                         neg(TelnetByte.do, TelnetOption.terminalType)] {
            #expect(o.firstRange(of: expected) != nil, "\(expected) not offered")
        }
    }

    @Test func answersToWhatWasAskedAreNotAnsweredAgain() {
        var s = TelnetSession(now: 0)
        let r = s.receive(neg(TelnetByte.do, TelnetOption.echo) + neg(TelnetByte.do, TelnetOption.suppressGoAhead)
                          + neg(TelnetByte.will, TelnetOption.suppressGoAhead) + neg(TelnetByte.will, TelnetOption.windowSize), now: 1)
        #expect(r.replies.isEmpty)
        // Said again, it changes nothing and is not answered (no loop).
        #expect(s.receive(neg(TelnetByte.do, TelnetOption.echo), now: 2).replies.isEmpty)
    }

    @Test func willTerminalTypeIsAskedForTheName() {
        var s = TelnetSession(now: 0)
        let r = s.receive(neg(TelnetByte.will, TelnetOption.terminalType), now: 1)
        #expect(r.replies == TelnetEncoder.subnegotiation(TelnetOption.terminalType, [TelnetOption.ttypeSend]))
    }

    @Test func everyOtherOptionIsRefused() {
        var s = TelnetSession(now: 0)
        // LINEMODE offered by the client, NEW-ENVIRON (39) asked of the gateway.
        let r = s.receive(neg(TelnetByte.will, TelnetOption.lineMode) + neg(TelnetByte.do, 39), now: 1)
        #expect(r.replies == neg(TelnetByte.dont, TelnetOption.lineMode) + neg(TelnetByte.wont, 39))
        // A refusal of something already off is not answered.
        #expect(s.receive(neg(TelnetByte.wont, TelnetOption.lineMode) + neg(TelnetByte.dont, 39), now: 2).replies.isEmpty)
    }

    @Test func clientThatNegotiatesNothingGetsEightyByTwentyFourAfterTheWait() {
        let s = TelnetSession(now: 0)
        #expect(!s.isSettled(now: 10))
        #expect(s.isSettled(now: TelnetSession.settleMillis))
        #expect(s.size == (rows: 24, columns: 80))
        #expect(s.colorMode == .palette16)
    }

    @Test func windowSizeIsReadAndChangesReported() {
        var s = TelnetSession(now: 0)
        _ = s.receive(neg(TelnetByte.will, TelnetOption.windowSize), now: 1)
        #expect(s.receive(naws(120, 40), now: 2).changes == [.resized(rows: 40, columns: 120)])
        #expect(s.receive(naws(120, 40), now: 3).changes.isEmpty, "the same size again is no change")
        #expect(s.receive(naws(100, 30), now: 4).changes == [.resized(rows: 30, columns: 100)])
    }

    @Test func windowSizeOfZeroKeepsTheLastAndHugeSizesAreClamped() {
        var s = TelnetSession(now: 0)
        _ = s.receive(neg(TelnetByte.will, TelnetOption.windowSize), now: 1)
        #expect(s.receive(naws(0, 0), now: 2).changes.isEmpty)
        #expect(s.size == (rows: 24, columns: 80))
        #expect(s.receive(naws(10_000, 65535), now: 3).changes == [.resized(rows: 250, columns: 500)])
        #expect(s.receive(naws(1, 1), now: 4).changes == [.resized(rows: 4, columns: 10)])
    }

    @Test func windowSizeWithoutWillIsIgnored() {
        var s = TelnetSession(now: 0)
        #expect(s.receive(naws(120, 40), now: 1).changes.isEmpty)
    }

    @Test func terminalTypeChoosesTheColourDepth() {
        for (name, mode) in [("XTERM-256COLOR", ColorMode.palette256), ("xterm-direct", .trueColor), ("xterm-kitty", .trueColor),
                             ("ANSI", .palette16), ("VT100", .palette16), ("DUMB", .plain), ("tmux-256color", .palette256)] {
            var s = TelnetSession(now: 0)
            _ = s.receive(neg(TelnetByte.will, TelnetOption.terminalType), now: 1)
            #expect(s.receive(ttype(name), now: 2).changes == [.terminalType(name, mode)], "\(name)")
            #expect(s.colorMode == mode)
        }
    }

    @Test func settledOnceEverythingIsAnswered() {
        var s = TelnetSession(now: 0)
        _ = s.receive(neg(TelnetByte.do, TelnetOption.echo) + neg(TelnetByte.do, TelnetOption.suppressGoAhead)
                      + neg(TelnetByte.will, TelnetOption.suppressGoAhead) + neg(TelnetByte.do, TelnetOption.binary)
                      + neg(TelnetByte.will, TelnetOption.binary) + neg(TelnetByte.will, TelnetOption.windowSize)
                      + neg(TelnetByte.will, TelnetOption.terminalType), now: 1)
        #expect(!s.isSettled(now: 2), "the terminal type is still to come")
        _ = s.receive(ttype("xterm"), now: 3)
        #expect(s.isSettled(now: 4))
    }

    @Test func refusedEchoOrGoAheadIsLineModeToldOnce() {
        var s = TelnetSession(now: 0)
        let r = s.receive(neg(TelnetByte.dont, TelnetOption.echo) + neg(TelnetByte.wont, TelnetOption.suppressGoAhead), now: 1)
        #expect(r.changes == [.lineMode(TelnetSession.telnetLineModeHint)])
    }

    @Test func cookedLinesFromAClientThatNegotiatesNothingAreLineModeToo() {
        var s = TelnetSession(now: 0)
        let r = s.receive(Array("alice\n".utf8), now: 1)
        #expect(r.changes == [.lineMode(TelnetSession.rawModeHint)])
        #expect(r.input == Array("alice\n".utf8))
        // Raw keys (Enter is CR) are not.
        var raw = TelnetSession(now: 0)
        #expect(raw.receive(Array("alice\r".utf8), now: 1).changes.isEmpty)
    }

    @Test func dataComesThroughWithCommandsTakenOut() {
        var s = TelnetSession(now: 0)
        let r = s.receive([0x61, iac, TelnetByte.nop, iac, iac, 0x0D, 0x00, 0x62], now: 1)
        #expect(r.input == [0x61, 0xFF, 0x0D, 0x62])
    }

    @Test func interruptProcessIsControlC() {
        var s = TelnetSession(now: 0)
        #expect(s.receive([iac, TelnetByte.ip], now: 1).changes == [.interrupt])
    }

    @Test func subnegotiationOpenTooLongIsGivenUp() {
        var s = TelnetSession(now: 0)
        let t: Int64 = 10_000  // settled long ago
        _ = s.receive([iac, TelnetByte.sb, TelnetOption.terminalType, 0, 0x41], now: t)
        #expect(s.nextDeadline(now: t) == t + TelnetSession.subnegotiationMillis)
        #expect(s.receive(Array("xy".utf8), now: t + 100).input.isEmpty, "still inside the subnegotiation")
        s.tick(now: t + TelnetSession.subnegotiationMillis - 1)
        #expect(s.receive(Array("xy".utf8), now: t + 200).input.isEmpty, "given up too soon")
        s.tick(now: t + TelnetSession.subnegotiationMillis)
        #expect(s.receive(Array("xy".utf8), now: t + 3000).input == Array("xy".utf8))
    }
}

/// The name prompt: names, codes, leaving, and what it shows.
@Suite struct TelnetLoginTests {
    private func typed(_ text: String, into login: inout TelnetLogin) -> TelnetLogin.Outcome? {
        var outcome: TelnetLogin.Outcome?
        for c in text { outcome = login.handle(c == "\r" ? .enter : .character(c)) ?? outcome }
        return outcome
    }

    @Test func aValidNameIsTakenAndABadOneExplained() {
        var login = TelnetLogin()
        #expect(typed("alice\r", into: &login) == .name("alice"))
        #expect(typed("a b\r", into: &login) == .name("ab"), "spaces are not typed")
        #expect(typed("..\r", into: &login) == nil)
        #expect(login.problem?.contains("is not a name") == true)
    }

    @Test func aCodeIsACodeAndCtrlCLeaves() {
        var login = TelnetLogin()
        #expect(typed("#k7qx2m\r", into: &login) == .code("#k7qx2m"))
        #expect(login.handle(.interrupt) == .quit)
        #expect(login.handle(.endOfFile) == .quit)
    }

    @Test func longLinesAreWrappedToTheScreen() {
        var login = TelnetLogin(problem: "JOIN refused: NAME_TAKEN a player named telly is already in this room; pick another name")
        let f = login.frame(rows: 24, columns: 40)
        let rows = (0..<24).map { r in String((0..<40).map { f[r, $0].character }) }
        #expect(rows.contains { $0.contains("pick another name") }, "\(rows)")
        #expect(rows.contains { $0.contains("your name:") })
    }

    @Test func wrappingKeepsEveryWord() {
        let text = "one two three fourfivesixseveneight nine"
        let lines = TelnetLogin.wrap(text, width: 8)
        #expect(lines.allSatisfy { $0.count <= 8 })
        #expect(lines.flatMap { $0.split(separator: " ") }.joined() == text.replacingOccurrences(of: " ", with: ""))
    }
}

/// What a session's log line says about its frames.
@Suite struct FrameTimesTests {
    @Test func medianAndTailOfWhatWasKept() {
        var t = FrameTimes()
        #expect(t.summary == "no frames")
        for i in 1...100 { t.add(micros: Int64(i * 100), bytes: 10) }
        #expect(t.summary == "100 frames, median 5.10 ms, p99 10.00 ms, 10 bytes a frame")
    }

    @Test func aLongSessionKeepsBoundedSamples() {
        var t = FrameTimes()
        for _ in 0..<100_000 { t.add(micros: 1500, bytes: 1) }
        #expect(t.count == 100_000)
        #expect(t.summary.hasPrefix("100000 frames, median 1.50 ms"))
    }
}
