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

    /// `key=value` words are found wherever they are from a start, whole
    /// keys only, and not when their value is empty; the scanner stays put.
    @Test func fieldsAreFoundByWholeKey() {
        let found = scan("OK joined den seq=17 id=4 runs=x run= idx=9") { s -> [String] in
            _ = s.word(); _ = s.word()
            let from = s.position
            func value(_ key: StaticString) -> String { s.field(key, from: from).map { s.text($0) } ?? "-" }
            return [value("id"), value("seq"), value("run"), value("runs"), value("x"), "\(s.wordCount(from: from))", "\(s.position == from)"]
        }
        #expect(found == ["4", "17", "-", "x", "-", "6", "true"])
    }

    /// A part of a word read as a number: exactly that part, as `int()` and `uint()` read words.
    @Test func numbersInRanges() {
        scan("a=-12 b=+3 c=007 d=4x e=18446744073709551615 f=18446744073709551616") { s in
            func range(_ key: StaticString) -> Range<Int> { s.field(key, from: 0)! }
            #expect(s.int(in: range("a")) == -12)
            #expect(s.int(in: range("b")) == nil && s.uint(in: range("b")) == nil)
            #expect(s.int(in: range("c")) == 7)
            #expect(s.int(in: range("d")) == nil)
            #expect(s.uint(in: range("e")) == .max && s.int(in: range("e")) == nil)
            #expect(s.uint(in: range("f")) == nil)
            #expect(s.int(in: 0..<0) == nil, "an empty range is no number, and does not read on")
            #expect(s.uint(in: range("a")) == nil, "no sign for unsigned")
            #expect(s.firstIndex(of: UInt8(ascii: "="), in: range("c")) == nil)
            #expect(s.firstIndex(of: UInt8(ascii: "="), in: 0..<5) == 1)
        }
    }
}
