import Testing
import PuzzleSystem
@testable import PuzzleLink

/// The connection's line splitter: lines as `LineFramer` frames them (CRLF,
/// over-long lines dropped whole), however the bytes arrive.
@Suite struct IncomingLinesTests {
    /// Feeds `reads` one receive each, and returns every line taken after each.
    func lines(_ reads: [String], max: Int = 16) throws -> [String] {
        let incoming = IncomingLines(maxLineLength: max)
        var out: [String] = []
        for read in reads {
            let bytes = Array(read.utf8)
            let result = try incoming.receive { (free) throws(Errno) -> IOResult in
                free.copyBytes(from: bytes)
                return .processed(bytes.count)
            }
            #expect(result == .processed(bytes.count))
            while let line = incoming.nextLine() { out.append(line) }
        }
        return out
    }

    @Test func linesComeWholeHoweverTheBytesAreCut() throws {
        #expect(try lines(["EV 1 a\nEV 2 b\n"]) == ["EV 1 a", "EV 2 b"])
        #expect(try lines(["EV 1", " a\nEV", " 2 b", "\n"]) == ["EV 1 a", "EV 2 b"])
        #expect(try lines(["\n\nx\n"]) == ["", "", "x"])
        #expect(try lines(["no end yet"]) == [])
    }

    @Test func aCRBeforeTheLFIsDropped() throws {
        #expect(try lines(["OK hello\r\n", "PONG 1\r", "\n", "a\rb\n"]) == ["OK hello", "PONG 1", "a\rb"])
    }

    @Test func aLineTooLongIsDroppedWholeAndFramingGoesOn() throws {
        // 16 bytes fit, 17 do not (the CR of a CRLF does not count).
        #expect(try lines([String(repeating: "a", count: 16) + "\r\n", String(repeating: "b", count: 17) + "\nnext\n"])
                == [String(repeating: "a", count: 16), "next"])
        // Seen to be too long before its end arrives: the rest is dropped as it comes.
        #expect(try lines([String(repeating: "c", count: 20), String(repeating: "c", count: 20), "c\nafter\n"]) == ["after"])
        // Cut just past the limit, the rest in the next read with the next line.
        #expect(try lines([String(repeating: "d", count: 17), "\nok\n"]) == ["ok"])
    }

    /// A line many reads long (a picture's row) is kept across them, the buffer growing for it.
    @Test func aLongLineSpanningManyReadsArrivesWhole() throws {
        let long = String(repeating: "0123456789abcdef", count: 20_000)  // 320,000 bytes
        var reads = ["S head\n"]
        var rest = Substring(long + "\nOK picture\n")
        while !rest.isEmpty {
            reads.append(String(rest.prefix(IncomingLines.readSize - 1)))
            rest = rest.dropFirst(IncomingLines.readSize - 1)
        }
        #expect(try lines(reads, max: 1 << 20) == ["S head", long, "OK picture"])
    }

    @Test func aReadThatBringsNothingKeepsWhatWasThere() throws {
        let incoming = IncomingLines(maxLineLength: 100)
        let bytes = Array("half".utf8)
        _ = try incoming.receive { (free) throws(Errno) -> IOResult in
            free.copyBytes(from: bytes)
            return .processed(bytes.count)
        }
        #expect(incoming.nextLine() == nil)
        #expect(try incoming.receive { (_) throws(Errno) -> IOResult in .wouldBlock } == .wouldBlock)
        #expect(incoming.bufferedByteCount == 4)
        _ = try incoming.receive { (free) throws(Errno) -> IOResult in
            free.copyBytes(from: Array(" line\n".utf8))
            return .processed(6)
        }
        #expect(incoming.nextLine() == "half line")
        #expect(incoming.bufferedByteCount == 0)
    }
}
