import Testing
@testable import PuzzleProtocol

@Suite struct LineFramerTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    private func line(_ text: String) -> LineFramer.Frame { .line(Array(text.utf8)) }

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
}
