import Testing
@testable import PuzzleBench

@Suite struct LineScannerTests {
    func scan<R>(_ text: String, _ body: (inout LineScanner) -> R) -> R {
        Array(text.utf8).withUnsafeBytes { raw in
            var s = LineScanner(raw)
            return body(&s)
        }
    }

    @Test func readsADragLine() {
        let fields = scan("EV 12 dragged 7 3 -4 16 2,5") { s -> [String] in
            _ = s.word()
            let seq = s.int()
            let name = s.word()
            let named = s.matches(name, "dragged")
            let piece = s.int(), id = s.int(), x = s.int(), y = s.int()
            let t = s.target()
            return ["\(seq!)", "\(named)", "\(piece!)", "\(id!)", "\(x!)", "\(y!)", "\(t!.valid),\(t!.row),\(t!.col)", "\(s.atEnd)"]
        }
        #expect(fields == ["12", "true", "7", "3", "-4", "16", "true,2,5", "true"])
    }

    @Test func refusesWhatIsNotANumber() {
        #expect(scan("12x 5") { $0.int() } == nil)
        #expect(scan("-") { $0.int() } == nil)
        #expect(scan("  42") { $0.int() } == 42)
        #expect(scan("-") { $0.target()?.valid } == false)
        #expect(scan("3,") { $0.target() == nil } == true)
    }
}

@Suite struct ReceivePathTests {
    @Test func draggedWordSpellsDragged() {
        let word = Array("dragged ".utf8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        #expect(word == LoadTest.draggedWord)
    }

    @Test func lineHashSeparatesLinesAndIsNeverZero() {
        let lines = ["EV 5 grabbed 3 1", "EV 5 grabbed 3 2", "EV 5 grabbed 13 1", "EV 50 grabbed 3 1", "", "x"]
        let hashes = lines.map { l in Array(l.utf8).withUnsafeBytes { lineHash($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, $0.count) } }
        #expect(Set(hashes).count == lines.count)
        #expect(!hashes.contains(0))
    }

    @Test func roomRecordsOneHashPerSeqAndRefusesADifferentLine() {
        let clock = RunClock()
        let room = ReferenceStream(name: "r", room: 0, clock: clock, tally: LoadTally(clock: clock))
        #expect(room.recordLine(seq: 3, hash: 11))
        #expect(room.recordLine(seq: 3, hash: 11))
        #expect(!room.recordLine(seq: 3, hash: 12))
        #expect(room.recordLine(seq: 1, hash: 7))
        #expect(room.lineHashes == [0, 7, 0, 11])
    }
}
