import Testing
import PuzzleCore
@testable import PuzzleProtocol

@Suite struct LineFramerTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    private func line(_ text: String) -> LineFramer.Frame { .line(ArraySlice(text.utf8)) }

    /// Feeds `chunks` one at a time, draining after each, like a read loop.
    private func frames(_ chunks: [[UInt8]], max: Int = 16) -> [LineFramer.Frame] {
        var framer = LineFramer(maxLineLength: max)
        var out: [LineFramer.Frame] = []
        for chunk in chunks {
            framer.append(chunk)
            while let frame = framer.next() { out.append(frame) }
        }
        return out
    }

    private let stream = "hello\nworld\r\n\n\r\nlast one\n"
    private var expected: [LineFramer.Frame] {
        [line("hello"), line("world"), line(""), line(""), line("last one")]
    }

    @Test func allAtOnce() {
        #expect(frames([bytes(stream)]) == expected)
    }

    @Test func byteByByte() {
        #expect(frames(bytes(stream).map { [$0] }) == expected)
    }

    @Test func oneMessageAtATime() {
        let messages = ["hello\n", "world\r\n", "\n", "\r\n", "last one\n"].map(bytes)
        #expect(frames(messages) == expected)
    }

    @Test func everySplitPointGivesTheSameFrames() {
        let all = bytes(stream)
        for cut in 0...all.count {
            #expect(frames([Array(all[..<cut]), Array(all[cut...])]) == expected, "cut at \(cut)")
        }
    }

    @Test func incompleteLineWaitsForItsTerminator() {
        var framer = LineFramer(maxLineLength: 16)
        framer.append(bytes("partial"))
        #expect(framer.next() == nil)
        #expect(framer.bufferedByteCount == 7)
        framer.append(bytes(" line\r"))
        #expect(framer.next() == nil)
        framer.append(bytes("\n"))
        #expect(framer.next() == line("partial line"))
        #expect(framer.next() == nil)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func onlyOneTrailingCRIsStripped() {
        #expect(frames([bytes("a\r\r\n")]) == [line("a\r")])
    }

    @Test func lineExactlyAtLimitIsAccepted() {
        let exact = String(repeating: "x", count: 8)
        #expect(frames([bytes(exact + "\n")], max: 8) == [line(exact)])
        #expect(frames([bytes(exact + "\r\n")], max: 8) == [line(exact)])
        #expect(frames(bytes(exact + "\r\n").map { [$0] }, max: 8) == [line(exact)])
    }

    @Test func overlongThenGoodLineInOneChunk() {
        let long = String(repeating: "y", count: 9)
        #expect(frames([bytes(long + "\nok\n")], max: 8) == [.overlong(9), line("ok")])
        #expect(frames([bytes(long + "\r\nok\n")], max: 8) == [.overlong(9), line("ok")])
    }

    @Test func overlongSplitAcrossChunksIsReportedOnceAndDiscarded() {
        var framer = LineFramer(maxLineLength: 8)
        framer.append(bytes("0123456789"))
        guard case .overlong(let seen)? = framer.next() else {
            Issue.record("expected overlong")
            return
        }
        #expect(seen == 10)
        #expect(framer.next() == nil)
        #expect(framer.bufferedByteCount == 0)
        // The rest of the long line is dropped without being stored.
        framer.append(bytes(String(repeating: "z", count: 1000)))
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.next() == nil)
        framer.append(bytes("zz\ngood\nnext"))
        #expect(framer.next() == line("good"))
        #expect(framer.next() == nil)
        #expect(framer.bufferedByteCount == 4)
    }

    @Test func overlongByteByByteIsReportedOnceThenFramingResumes() {
        let input = bytes(String(repeating: "q", count: 50) + "\nfine\n")
        let out = frames(input.map { [$0] }, max: 8)
        #expect(out.count == 2)
        if case .overlong(let seen) = out.first { #expect(seen > 8) } else { Issue.record("expected overlong first") }
        #expect(out.last == line("fine"))
    }

    @Test func crAtLimitBoundaryIsNotOverlongUntilProvedSo() {
        var framer = LineFramer(maxLineLength: 4)
        framer.append(bytes("abcd\r"))
        #expect(framer.next() == nil)
        framer.append(bytes("e"))
        #expect(framer.next() == .overlong(6))
    }

    @Test func bufferStaysBoundedOverManyLines() {
        var framer = LineFramer(maxLineLength: 64)
        var count = 0
        for i in 0..<10_000 {
            framer.append(bytes("line number \(i)\n"))
            while case .line? = framer.next() { count += 1 }
            #expect(framer.bufferedByteCount == 0)
        }
        #expect(count == 10_000)
    }

    @Test func rawBufferAndNonContiguousSequenceAppend() {
        var framer = LineFramer(maxLineLength: 16)
        bytes("ab\n").withUnsafeBytes { framer.append($0) }
        framer.append(bytes("cd\n").lazy.map { $0 })
        #expect(framer.next() == line("ab"))
        #expect(framer.next() == line("cd"))
    }

    // MARK: - Lines handed out in place

    /// The address of a line's first byte (nil for an empty line).
    private func address(_ frame: LineFramer.Frame?) -> UnsafeRawPointer? {
        guard case .line(let bytes)? = frame else { return nil }
        return bytes.withUnsafeBytes { $0.baseAddress }
    }

    @Test func linesOfOneReadAreSlicesOfOneBufferNotCopies() {
        var framer = LineFramer(maxLineLength: 16)
        framer.append(bytes("DRAG 1 2\r\nDROP\n"))
        let first = framer.next(), second = framer.next()
        #expect(first == line("DRAG 1 2") && second == line("DROP"))
        // "DRAG 1 2\r\n" is 10 bytes: the second line starts right after it.
        guard let a = address(first), let b = address(second) else { Issue.record("no line"); return }
        #expect(b - a == 10)
    }

    @Test func aSliceIndexesTheBufferButReadsAsItsLineAlone() {
        var framer = LineFramer(maxLineLength: 16)
        framer.append(bytes("ab\ncd\n"))
        _ = framer.next()
        guard case .line(let cd)? = framer.next() else { Issue.record("no line"); return }
        #expect(cd.startIndex == 3)
        #expect(cd.withUnsafeBytes { Array($0) } == bytes("cd"))
        #expect(Array(cd) == bytes("cd"))
    }

    @Test func aLineSplitAcrossReadsEndingAtTheBuffersEndIsWhole() {
        var framer = LineFramer(maxLineLength: 32)
        // The first read ends inside a line; the buffer is compacted before
        // the rest is appended, so the line's slice starts at the front.
        framer.append(bytes("GRAB 3\nDRAG 3 1"))
        #expect(framer.next() == line("GRAB 3"))
        #expect(framer.next() == nil)
        framer.append(bytes("0 20\n"))
        guard case .line(let drag)? = framer.next() else { Issue.record("no line"); return }
        #expect(Array(drag) == bytes("DRAG 3 10 20"))
        #expect(drag.withUnsafeBytes { Request.parse($0) } == .success(.drag(3, Point(x: 10, y: 20))))
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func aSliceKeptPastTheNextAppendStillHoldsItsLine() {
        var framer = LineFramer(maxLineLength: 16)
        framer.append(bytes("old\nx"))
        guard case .line(let kept)? = framer.next() else { Issue.record("no line"); return }
        // The append compacts the buffer (the returned line is dropped from
        // its front): the slice held meanwhile is the framer's copy-on-write
        // array, so it keeps its bytes.
        framer.append(bytes("yz\n"))
        #expect(Array(kept) == bytes("old"))
        #expect(framer.next() == line("xyz"))
    }

    @Test func aLineAtTheLimitIsHandedOutInPlaceAndOneMoreIsNot() {
        var framer = LineFramer(maxLineLength: 8)
        framer.append(bytes("12345678\n123456789\nok\n"))
        guard case .line(let atLimit)? = framer.next() else { Issue.record("no line"); return }
        #expect(atLimit.count == 8)
        #expect(framer.next() == .overlong(9))
        #expect(framer.next() == line("ok"))
    }

    @Test func nulAndBadUTF8AreReportedFromLinesInPlace() {
        var framer = LineFramer(maxLineLength: 32)
        framer.append([UInt8]("SAY a".utf8) + [0] + [UInt8]("b\n".utf8))
        framer.append([UInt8]("SAY ".utf8) + [0xC3, 0x28] + [0x0A])
        framer.append(bytes("SAY caf\u{E9}\n"))
        var results: [Result<Request, ProtocolError>?] = []
        while case .line(let bytes)? = framer.next() { results.append(bytes.withUnsafeBytes { Request.parse($0) }) }
        #expect(results.count == 3)
        #expect(results[0] == .failure(.nulByte))
        #expect(results[1] == .failure(.badUTF8))
        #expect(results[2] == .success(.say("caf\u{E9}")))
    }
}
