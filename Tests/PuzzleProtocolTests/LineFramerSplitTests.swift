import Testing
@testable import PuzzleProtocol

/// `LineFramer.split`, the framing in place of the client's link and the
/// bots: the lines `append` and `next()` give (CRLF, over-long lines dropped
/// whole), however the bytes are cut into reads.
@Suite struct LineFramerSplitTests {
    /// Splits each read in turn; every line as text, an over-long one as `<overlong n>`.
    func lines(_ reads: [String], max: Int = 16) -> [String] {
        var framer = LineFramer(maxLineLength: max)
        var out: [String] = []
        for read in reads {
            var bytes = Array(read.utf8)
            bytes.withUnsafeMutableBytes { raw in
                framer.split(UnsafeRawBufferPointer(raw)) { span in
                    switch span {
                    case .line(let line): out.append(String(decoding: line, as: UTF8.self))
                    case .overlong(let n): out.append("<overlong \(n)>")
                    }
                    return true
                }
                // Handed-on lines were only valid during the call: the read's buffer is reused.
                for i in raw.indices { raw[i] = UInt8(ascii: "#") }
            }
        }
        return out
    }

    @Test func linesComeWholeHoweverTheBytesAreCut() {
        #expect(lines(["EV 1 a\nEV 2 b\n"]) == ["EV 1 a", "EV 2 b"])
        #expect(lines(["EV 1", " a\nEV", " 2 b", "\n"]) == ["EV 1 a", "EV 2 b"])
        #expect(lines(["\n\nx\n"]) == ["", "", "x"])
        #expect(lines(["no end yet"]) == [])
        #expect(lines(["", "a", "", "b\n", ""]) == ["ab"])
    }

    @Test func aCRBeforeTheLFIsDropped() {
        #expect(lines(["OK hello\r\n", "PONG 1\r", "\n", "a\rb\n"]) == ["OK hello", "PONG 1", "a\rb"])
    }

    @Test func aLineTooLongIsReportedOnceAndFramingGoesOn() {
        // 16 bytes fit, 17 do not (the CR of a CRLF does not count).
        #expect(lines([String(repeating: "a", count: 16) + "\r\n", String(repeating: "b", count: 17) + "\nnext\n"])
                == [String(repeating: "a", count: 16), "<overlong 17>", "next"])
        // Seen to be too long before its end arrives: reported then, the rest dropped as it comes.
        #expect(lines([String(repeating: "c", count: 20), String(repeating: "c", count: 20), "c\nafter\n"]) == ["<overlong 20>", "after"])
        // Cut just past the limit, the rest in the next read with the next line.
        #expect(lines([String(repeating: "d", count: 17), "\nok\n"]) == ["<overlong 17>", "ok"])
        // Its start in one read, too long only with the next.
        #expect(lines(["x\n" + String(repeating: "e", count: 10), String(repeating: "e", count: 10) + "\nok\n"]) == ["x", "<overlong 20>", "ok"])
    }

    /// A line many reads long (a picture's row) is kept across them, the buffer growing for it.
    @Test func aLongLineSpanningManyReadsArrivesWhole() {
        let long = String(repeating: "0123456789abcdef", count: 20_000)  // 320,000 bytes
        var reads = ["S head\n"]
        var rest = Substring(long + "\nOK picture\n")
        while !rest.isEmpty {
            reads.append(String(rest.prefix(65_535)))
            rest = rest.dropFirst(65_535)
        }
        #expect(lines(reads, max: 1 << 20) == ["S head", long, "OK picture"])
    }

    /// Only the unfinished line is held between reads.
    @Test func whatIsHeldIsTheUnfinishedLine() {
        var framer = LineFramer(maxLineLength: 100)
        var seen: [String] = []
        for read in ["whole\nhalf", " line\n"] {
            Array(read.utf8).withUnsafeBytes { raw in
                framer.split(raw) { span in
                    if case .line(let l) = span { seen.append(String(decoding: l, as: UTF8.self)) }
                    return true
                }
            }
            if seen == ["whole"] { #expect(framer.bufferedByteCount == 4) }
        }
        #expect(seen == ["whole", "half line"] && framer.bufferedByteCount == 0)
    }

    /// A reader that has gone (`body` says stop) gets nothing more from the read.
    @Test func stoppingDropsTheRestOfTheRead() {
        var framer = LineFramer(maxLineLength: 100)
        var seen = 0
        Array("a\nb\nc\n".utf8).withUnsafeBytes { raw in
            framer.split(raw) { _ in
                seen += 1
                return seen < 2
            }
        }
        #expect(seen == 2)
    }

    /// The word-at-a-time LF search finds the first LF at every offset and alignment.
    @Test func theLFSearchFindsTheFirstLF() {
        for length in 0..<40 {
            for at in 0...length {
                var bytes = [UInt8](repeating: 0x0B, count: length)
                if at < length { bytes[at] = 0x0A }
                if at + 3 < length { bytes[at + 3] = 0x0A }
                for from in [0, 1, 7].filter({ $0 <= length }) {
                    let expected = at < length && at >= from ? at : at + 3 < length && at + 3 >= from ? at + 3 : nil
                    bytes.withUnsafeBytes { raw in
                        #expect(LineFramer.firstLF(in: raw, from: from) == expected, "length \(length), LF at \(at), from \(from)")
                    }
                }
            }
        }
        // Bytes either side of LF (0x09, 0x0B, 0x8A) are no LF.
        [UInt8]([0x09, 0x0B, 0x8A, 0x0A ^ 0x80, 0x8A, 0x09, 0x0B, 0x8A, 0x0A]).withUnsafeBytes { raw in
            #expect(LineFramer.firstLF(in: raw, from: 0) == 8)
        }
    }
}
