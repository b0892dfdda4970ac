import Testing
@testable import PuzzleWeb

/// The Autobahn testsuite's case categories (framing, pings and pongs,
/// reserved bits, opcodes, fragmentation, UTF-8, close), each stream fed all
/// at once and byte by byte: the verdict must not depend on the split.
@Suite struct WebSocketReaderTests {
    private enum Outcome: Equatable {
        case messages([WebSocketMessage])
        case failed([WebSocketMessage], WebSocketCloseCode)
    }

    private func masked(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, rsv: UInt8 = 0) -> [UInt8] {
        var bytes = WebSocketFrame(fin: fin, opcode: opcode, payload: payload).encoded(mask: (0x37, 0xFA, 0x21, 0x3D))
        bytes[0] |= rsv << 4
        return bytes
    }

    private func text(_ s: String, fin: Bool = true) -> [UInt8] { masked(.text, Array(s.utf8), fin: fin) }
    private func cont(_ bytes: [UInt8], fin: Bool = true) -> [UInt8] { masked(.continuation, bytes, fin: fin) }

    private func run(_ chunks: [[UInt8]], max: Int) -> Outcome {
        var reader = WebSocketMessageReader(maxMessage: max)
        var seen: [WebSocketMessage] = []
        for chunk in chunks {
            reader.append(chunk)
            while true {
                switch reader.next() {
                case .success(nil): break
                case .success(let m?): seen.append(m); continue
                case .failure(let e): return .failed(seen, e.closeCode)
                }
                break
            }
        }
        return .messages(seen)
    }

    /// Runs `stream` whole and byte by byte and checks both give `expected`.
    private func check(_ stream: [UInt8], _ expected: Outcome, max: Int = 1 << 20, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run([stream], max: max) == expected, "all at once", sourceLocation: sourceLocation)
        #expect(run(stream.map { [$0] }, max: max) == expected, "byte by byte", sourceLocation: sourceLocation)
    }

    private func t(_ s: String) -> WebSocketMessage { .text(Array(s.utf8)) }

    // MARK: 1. Framing: lengths at every encoding boundary.

    @Test func framingLengths() {
        for n in [0, 1, 125, 126, 127, 128, 65535, 65536, 70_000] {
            let payload = String(repeating: "*", count: n)
            check(text(payload), .messages([t(payload)]))
        }
    }

    @Test func lengthsMustBeMinimal() {
        // 5 bytes written in the 16-bit form, then in the 64-bit form.
        let five = Array("hello".utf8)
        var sixteen: [UInt8] = [0x81, 0x80 | 126, 0, 5, 0, 0, 0, 0] + five
        check(sixteen, .failed([], .protocolError))
        sixteen = [0x81, 0x80 | 127, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0] + five
        check(sixteen, .failed([], .protocolError))
        // 64-bit length with its most significant bit set.
        check([0x81, 0x80 | 127, 0x80, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0], .failed([], .protocolError))
    }

    @Test func unmaskedClientFramesFail() {
        check(WebSocketFrame(opcode: .text, payload: Array("hi".utf8)).encoded(), .failed([], .protocolError))
    }

    @Test func oversizeMessagesFailBeforeTheirPayload() {
        // The header alone decides: only 14 bytes are ever sent.
        check([0x81, 0x80 | 127, 0, 0, 0, 1, 0, 0, 0, 0, 1, 2, 3, 4], .failed([], .messageTooBig), max: 1000)
        check(text("a", fin: false) + cont(Array(repeating: 0x61, count: 10)), .failed([], .messageTooBig), max: 8)
        check(text(String(repeating: "a", count: 8)), .messages([t("aaaaaaaa")]), max: 8)
    }

    // MARK: 2. Pings and pongs.

    @Test func pingsAndPongs() {
        check(masked(.ping, Array("hello".utf8)), .messages([.ping(Array("hello".utf8))]))
        check(masked(.ping, []), .messages([.ping([])]))
        check(masked(.ping, Array(repeating: 0xFE, count: 125)), .messages([.ping(Array(repeating: 0xFE, count: 125))]))
        check(masked(.pong, Array("x".utf8)), .messages([.pong(Array("x".utf8))]))
        // Longer than 125 bytes.
        check(masked(.ping, Array(repeating: 0xFE, count: 126)), .failed([], .protocolError))
        // Fragmented control frame.
        check(masked(.ping, Array("a".utf8), fin: false), .failed([], .protocolError))
    }

    // MARK: 3. Reserved bits.

    @Test func reservedBitsFail() {
        for rsv: UInt8 in 1...7 {
            check(text("ok") + masked(.text, Array("bad".utf8), rsv: rsv) + masked(.ping, []), .failed([t("ok")], .protocolError))
        }
    }

    // MARK: 4. Opcodes.

    @Test func reservedOpcodesFail() {
        for opcode: UInt8 in [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] {
            var frame = text("x")
            frame[0] = 0x80 | opcode
            check(text("ok") + frame, .failed([t("ok")], .protocolError))
        }
    }

    @Test func binaryMessagesAreRefusedAsUnsupported() {
        check(masked(.binary, [1, 2, 3]), .failed([], .unsupportedData))
    }

    // MARK: 5. Fragmentation.

    @Test func fragmentsJoinWithControlFramesBetween() {
        let stream = text("HEL", fin: false) + masked(.ping, Array("p".utf8)) + cont(Array("LO ".utf8), fin: false)
            + masked(.pong, []) + cont(Array("1 2".utf8)) + text("next")
        check(stream, .messages([.ping(Array("p".utf8)), .pong([]), t("HELLO 1 2"), t("next")]))
        // Empty fragments are fragments too.
        check(text("", fin: false) + cont([], fin: false) + cont(Array("x".utf8)), .messages([t("x")]))
    }

    @Test func continuationRulesHold() {
        // A continuation with nothing to continue.
        check(cont(Array("x".utf8)), .failed([], .protocolError))
        check(text("a") + cont(Array("x".utf8)), .failed([t("a")], .protocolError))
        // A new message before the fragmented one ended.
        check(text("a", fin: false) + text("b"), .failed([], .protocolError))
        check(text("a", fin: false) + masked(.binary, [1]), .failed([], .protocolError))
    }

    // MARK: 6. UTF-8.

    @Test func textMustBeUTF8() {
        check(text("κόσμε"), .messages([t("κόσμε")]))
        check(masked(.text, [0xCE, 0xBA, 0xE1, 0xBD]), .failed([], .invalidPayload))
        check(masked(.text, [0xED, 0xA0, 0x80]), .failed([], .invalidPayload))
        check(masked(.text, [0xC0, 0x80]), .failed([], .invalidPayload))
    }

    /// A character split across fragments is fine; an invalid one split
    /// across fragments fails, and fails at the fragment where it breaks,
    /// before the message ends.
    @Test func utf8AcrossFragments() {
        let smile = Array("😀".utf8)
        check(masked(.text, Array(smile[..<1]), fin: false) + cont(Array(smile[1..<3]), fin: false) + cont(Array(smile[3...])),
              .messages([t("😀")]))
        // F4 90: past U+10FFFF, split between the two fragments; no final frame is needed to fail.
        check(masked(.text, [0x41, 0xF4], fin: false) + cont([0x90, 0x80, 0x80], fin: false), .failed([], .invalidPayload))
        // A message that ends inside a character.
        check(masked(.text, Array(smile[..<2]), fin: false) + cont([]), .failed([], .invalidPayload))
    }

    // MARK: 7. Close.

    private func close(_ code: UInt16?, _ reason: [UInt8] = []) -> [UInt8] {
        var payload: [UInt8] = []
        if let code { payload = [UInt8(code >> 8), UInt8(code & 0xFF)] }
        return masked(.close, payload + reason)
    }

    @Test func closeCodesAndReasons() {
        check(close(nil), .messages([.close(nil, "")]))
        check(close(1000, Array("bye".utf8)), .messages([.close(.normal, "bye")]))
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999] {
            check(close(code), .messages([.close(WebSocketCloseCode(rawValue: code), "")]))
        }
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1012, 1015, 1016, 1100, 2000, 2999, 5000, 65535] {
            check(close(code), .failed([], .protocolError))
        }
        check(masked(.close, [0x03]), .failed([], .protocolError))
        check(close(1000, [0xCE, 0xBA, 0xE1, 0xBD]), .failed([], .invalidPayload))
        check(masked(.close, [0x03, 0xE8] + Array(repeating: 0x61, count: 124)), .failed([], .protocolError))
    }

    @Test func serverFramesAreUnmaskedAndMinimal() {
        #expect(WebSocketFrame(opcode: .text, payload: Array("hi".utf8)).encoded() == [0x81, 2, 0x68, 0x69])
        #expect(WebSocketFrame(opcode: .text, payload: Array(repeating: 0, count: 126)).encoded().prefix(4) == [0x81, 126, 0, 126])
        #expect(WebSocketFrame(opcode: .text, payload: Array(repeating: 0, count: 65536)).encoded().prefix(10) == [0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0])
        let close = WebSocketFrame.close(.normal, reason: String(repeating: "é", count: 100))
        #expect(close.payload.count <= 125 && UTF8Validator.isValid(close.payload[2...]))
    }
}
