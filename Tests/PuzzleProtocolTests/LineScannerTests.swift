import Testing
@testable import PuzzleProtocol

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

    @Test func numbersAreCheckedNotWrapped() {
        #expect(scan("18446744073709551615") { $0.uint() } == UInt64.max)
        #expect(scan("18446744073709551616") { $0.uint() } == nil)
        #expect(scan("-3") { $0.uint() } == nil)
        #expect(scan("-9223372036854775808") { $0.int() } == Int.min)
        #expect(scan("9223372036854775808") { $0.int() } == nil)
        #expect(scan("+7") { $0.int() } == nil)
        #expect(scan("4x10 ") { $0.pair(UInt8(ascii: "x")).map { [$0.0, $0.1] } } == [4, 10])
        #expect(scan("4x10x") { $0.pair(UInt8(ascii: "x")) == nil } == true)
        #expect(scan("-5") { $0.target() == nil } == true)
    }

    /// Nineteen digits are summed unchecked, twenty or more checked: both
    /// sides of that line, leading zeros included.
    @Test func longRunsOfDigitsAreCheckedAtTheBoundary() {
        #expect(scan("9999999999999999999") { $0.uint() } == 9_999_999_999_999_999_999)
        #expect(scan("99999999999999999999") { $0.uint() } == nil)
        #expect(scan("00000000000000000000000000042") { $0.uint() } == 42)
        #expect(scan("0000000000000000000018446744073709551615") { $0.uint() } == UInt64.max)
        #expect(scan("000000000000000000000018446744073709551616") { $0.uint() } == nil)
        #expect(scan("-00000000000000000009223372036854775808") { $0.int() } == Int.min)
        #expect(scan("7,000000000000000000000000003") { $0.target().map { [$0.row, $0.col] } } == [7, 3])
        #expect(scan("999999999999999999") { $0.int() } == 999_999_999_999_999_999)
        #expect(scan("-999999999999999999") { $0.int() } == -999_999_999_999_999_999)
        #expect(scan("9223372036854775807") { $0.int() } == Int.max)
        #expect(scan("-0000000000000000000000000012 5") { $0.int() } == -12)
        #expect(scan("12a") { $0.int() } == nil)
        #expect(scan("0") { $0.uint() } == 0)
        #expect(scan("") { $0.uint() } == nil)
    }
}
