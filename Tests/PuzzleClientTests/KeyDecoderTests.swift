import Testing
@testable import PuzzleClient

/// Decodes `chunks` fed one after another and returns all keys.
private func decode(_ chunks: [UInt8]...) -> [Key] {
    var decoder = KeyDecoder()
    return chunks.flatMap { decoder.feed($0) }
}

private func bytes(_ string: String) -> [UInt8] {
    Array(string.utf8)
}

@Suite struct KeyDecoderTests {
    @Test func asciiCharacters() {
        #expect(decode(bytes("aZ 9~")) == [.character("a"), .character("Z"), .character(" "), .character("9"), .character("~")])
    }

    @Test func multiByteUTF8() {
        #expect(decode(bytes("é€😀")) == [.character("é"), .character("€"), .character("😀")])
    }

    @Test func utf8SplitAcrossFeeds() {
        let emoji = bytes("😀")  // F0 9F 98 80
        #expect(decode([emoji[0]], [emoji[1], emoji[2]], [emoji[3]]) == [.character("😀")])
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xC3]) == [])
        #expect(decoder.feed([0xA9, 0x61]) == [.character("é"), .character("a")])
    }

    @Test func invalidUTF8BecomesReplacement() {
        // Stray continuation, truncated sequence followed by ASCII, overlong lead, surrogate.
        #expect(decode([0x80]) == [.character("\u{FFFD}")])
        #expect(decode([0xE2, 0x82, 0x41]) == [.character("\u{FFFD}"), .character("A")])
        #expect(decode([0xC0, 0x41]) == [.character("\u{FFFD}"), .character("A")])
        #expect(decode([0xED, 0xA0, 0x80]).first == .character("\u{FFFD}"))
        #expect(decode([0xFF]) == [.character("\u{FFFD}")])
    }

    @Test func truncatedUTF8BeforeEscapeSequence() {
        #expect(decode([0xC3], bytes("\u{1B}[A")) == [.character("\u{FFFD}"), .up])
    }

    @Test func enterVariants() {
        #expect(decode([0x0D]) == [.enter])
        #expect(decode([0x0A]) == [.enter])
        #expect(decode([0x0D, 0x0A]) == [.enter])
        #expect(decode([0x0D], [0x0A]) == [.enter])
        #expect(decode([0x0D, 0x0D]) == [.enter, .enter])
        #expect(decode([0x0A, 0x0A]) == [.enter, .enter])
        #expect(decode([0x0D, 0x61, 0x0A]) == [.enter, .character("a"), .enter])
    }

    @Test func controlBytes() {
        #expect(decode([0x09]) == [.tab])
        #expect(decode([0x7F]) == [.backspace])
        #expect(decode([0x08]) == [.backspace])
        #expect(decode([0x03]) == [.interrupt])
        #expect(decode([0x04]) == [.endOfFile])
        #expect(decode([0x01, 0x15, 0x00]) == [.control(0x01), .control(0x15), .control(0x00)])
    }

    @Test func csiKeys() {
        #expect(decode(bytes("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D")) == [.up, .down, .right, .left])
        #expect(decode(bytes("\u{1B}[H\u{1B}[F")) == [.home, .end])
        #expect(decode(bytes("\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~")) == [.home, .end, .home, .end])
        #expect(decode(bytes("\u{1B}[3~")) == [.delete])
        #expect(decode(bytes("\u{1B}[5~\u{1B}[6~")) == [.pageUp, .pageDown])
        #expect(decode(bytes("\u{1B}[Z")) == [.backTab])
    }

    @Test func ss3Keys() {
        #expect(decode(bytes("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD\u{1B}OH\u{1B}OF")) == [.up, .down, .right, .left, .home, .end])
    }

    @Test func modifiersAreTolerated() {
        #expect(decode(bytes("\u{1B}[1;5C")) == [.right])
        #expect(decode(bytes("\u{1B}[1;5A\u{1B}[1;5B")) == [.controlUp, .controlDown])
        #expect(decode(bytes("\u{1B}[1;2A")) == [.shiftUp])
        #expect(decode(bytes("\u{1B}[1;2B\u{1B}[1;2C\u{1B}[1;2D")) == [.shiftDown, .shiftRight, .shiftLeft])
        #expect(decode(bytes("\u{1B}[1;2H")) == [.home])
        #expect(decode(bytes("\u{1B}[3;5~")) == [.delete])
        #expect(decode(bytes("\u{1B}O5D")) == [.left])
    }

    @Test func sequencesSplitAcrossFeeds() {
        #expect(decode([0x1B], bytes("[A")) == [.up])
        #expect(decode(bytes("\u{1B}["), bytes("1;5"), bytes("C")) == [.right])
        #expect(decode([0x1B], [UInt8(ascii: "O")], [UInt8(ascii: "B")]) == [.down])
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPendingEscape)
        #expect(decoder.feed(bytes("[5")) == [])
        #expect(decoder.feed(bytes("~x")) == [.pageUp, .character("x")])
        #expect(!decoder.hasPendingEscape)
    }

    @Test func sgrMouseReports() {
        #expect(decode(bytes("\u{1B}[<0;10;5M")) == [.mouse(MouseEvent(button: .left, action: .press, row: 4, column: 9))])
        #expect(decode(bytes("\u{1B}[<0;10;5m")) == [.mouse(MouseEvent(button: .left, action: .release, row: 4, column: 9))])
        #expect(decode(bytes("\u{1B}[<32;11;5M")) == [.mouse(MouseEvent(button: .left, action: .motion, row: 4, column: 10))])
        #expect(decode(bytes("\u{1B}[<2;1;1M")) == [.mouse(MouseEvent(button: .right, action: .press, row: 0, column: 0))])
        #expect(decode(bytes("\u{1B}[<35;3;3M")) == [.mouse(MouseEvent(button: .none, action: .motion, row: 2, column: 2))])
        #expect(decode(bytes("\u{1B}[<64;7;8M\u{1B}[<65;7;8M")) == [.mouse(MouseEvent(button: .wheelUp, action: .press, row: 7, column: 6)),
                                                                 .mouse(MouseEvent(button: .wheelDown, action: .press, row: 7, column: 6))])
        #expect(decode(bytes("\u{1B}[<20;2;2M")) == [.mouse(MouseEvent(button: .left, action: .press, row: 1, column: 1, shift: true, control: true))])
        // Split across reads, as a fast drag arrives.
        #expect(decode(bytes("\u{1B}[<32;1"), bytes("2;9M")) == [.mouse(MouseEvent(button: .left, action: .motion, row: 8, column: 11))])
        // Malformed or not ours: swallowed, never typed.
        #expect(decode(bytes("\u{1B}[<0;0;5M")) == [.unknown])
        #expect(decode(bytes("\u{1B}[<0;5M")) == [.unknown])
        #expect(decode(bytes("\u{1B}[<66;5;5M")) == [.unknown])
        #expect(decode(bytes("\u{1B}[<0;999999;5M")) == [.unknown])
    }

    @Test func unknownSequencesAreSwallowed() {
        #expect(decode(bytes("\u{1B}[2~a")) == [.unknown, .character("a")])
        #expect(decode(bytes("\u{1B}[?1;2c")) == [.unknown])  // device attributes reply
        #expect(decode(bytes("\u{1B}OP")) == [.unknown])  // F1
        #expect(decode(bytes("\u{1B}[15~")) == [.unknown])  // F5
    }

    @Test func overlongSequenceIsStillSwallowed() {
        let long = "\u{1B}[" + String(repeating: "1;", count: 40) + "A" + "b"
        #expect(decode(bytes(long)) == [.up, .character("b")])
    }

    @Test func interruptedSequenceIsUnknownThenByteDecoded() {
        #expect(decode(bytes("\u{1B}[1"), [0x03]) == [.unknown, .interrupt])
        #expect(decode(bytes("\u{1B}[1\u{1B}[B")) == [.unknown, .down])
    }

    @Test func loneEscapeWaitsForFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPendingEscape)
        #expect(decoder.flushPendingEscape() == [.escape])
        #expect(!decoder.hasPendingEscape)
        #expect(decoder.flushPendingEscape() == [])
        #expect(decoder.feed(bytes("a")) == [.character("a")])
    }

    @Test func escapeFollowedByOtherByteIsEmittedAtOnce() {
        #expect(decode(bytes("\u{1B}x")) == [.escape, .character("x")])
        #expect(decode([0x1B, 0x1B], bytes("[A")) == [.escape, .up])
        #expect(decode([0x1B], [0x0D]) == [.escape, .enter])
    }

    @Test func flushOfUnfinishedSequences() {
        var decoder = KeyDecoder()
        _ = decoder.feed(bytes("\u{1B}["))
        #expect(decoder.flushPendingEscape() == [.escape, .character("[")])
        _ = decoder.feed(bytes("\u{1B}O"))
        #expect(decoder.flushPendingEscape() == [.escape, .character("O")])
        _ = decoder.feed(bytes("\u{1B}[1;"))
        #expect(decoder.flushPendingEscape() == [.unknown])
        #expect(decoder.feed(bytes("C")) == [.character("C")])
    }

    @Test func keypadEnterInApplicationMode() {
        #expect(decode(bytes("\u{1B}OM")) == [.enter])
    }
}
