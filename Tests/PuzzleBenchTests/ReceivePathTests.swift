import Testing
@testable import PuzzleBench

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
