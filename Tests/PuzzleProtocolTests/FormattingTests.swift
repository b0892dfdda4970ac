import Testing
@testable import PuzzleProtocol

@Suite struct FormattingTests {
    private func text(_ build: (inout [UInt8]) -> Void) -> String {
        var out: [UInt8] = []
        build(&out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func signedDecimals() {
        for v in [0, 9, 10, 99, 100, 12_345, -1, -9, -10, -12_345, Int.max, Int.min, Int.min + 1] {
            #expect(text { $0.append(decimal: v) } == String(v), "\(v)")
        }
    }

    @Test func unsignedDecimals() {
        for v: UInt64 in [0, 1, 9, 10, 11, 1_000_000_007, UInt64(Int.max) + 1, .max] {
            #expect(text { $0.append(decimal: v) } == String(v), "\(v)")
        }
        #expect(text { $0.append(decimal: UInt64.max) } == "18446744073709551615")
    }

    @Test func appendsAfterExistingBytes() {
        let s = text {
            $0.append(ascii: "EV ")
            $0.append(decimal: 42)
            $0.append(text: " ☃ ")
            $0.append(decimal: -7)
        }
        #expect(s == "EV 42 ☃ -7")
    }

    @Test func everyPowerOfTenAndItsNeighbours() {
        var p: UInt64 = 1
        for _ in 0..<19 {
            for v in [p - 1, p, p + 1] {
                #expect(text { $0.append(decimal: v) } == String(v))
                #expect(text { $0.append(decimal: -Int(v)) } == String(-Int(v)))
            }
            p *= 10
        }
    }
}
