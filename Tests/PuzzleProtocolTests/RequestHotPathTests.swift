import Testing
import PuzzleCore
@testable import PuzzleProtocol

@Suite struct RequestHotPathTests {
    private func hot(_ s: String) -> Request? {
        Array(s.utf8).withUnsafeBytes { Request.parseHot($0) }
    }

    @Test func hotVerbsParseLikeTheFullParser() {
        let lines = ["DRAG 3 12 -4", "DRAG 12 12", "GRAB 0", "GRAB 9999", "DROP", "DROP 5", "RELEASE", "RELEASE 2",
                     "ROTATE", "ROTATE 1", "DRAG 0 0 0", "DRAG -1 2"]
        for line in lines {
            let fast = hot(line)
            #expect(fast != nil, "\(line) should take the hot path")
            #expect(Request.parse(line) == .success(fast!), "\(line)")
        }
    }

    @Test func byteEntryPointUsesTheHotPathAndFallsBackForErrors() {
        #expect(Request.parse(Array("DRAG 3 12 -4".utf8)) == .success(.drag(3, Point(x: 12, y: -4))))
        guard case .failure(let e)? = Request.parse(Array("GRAB -1".utf8)) else { Issue.record("GRAB -1 accepted"); return }
        #expect(e.code == .badNumber)
    }

    @Test func anythingUnusualFallsBackToTheFullParser() {
        for line in ["drag 1 2 3", "DRAG  1 2", "DRAG 1 2 3 4", "DRAG 1", "GRAB", "GRAB -1", "GRAB 1 2", "DROP x",
                     "DRAG 1 2 ", "GRAB 123456789", "PING", "DRAGON 1", "DROP -", "ROTATE 1 2", "SAY DROP"] {
            #expect(hot(line) == nil, "\(line) must go to the full parser")
        }
    }

    /// Whatever the hot path accepts, the full parser accepts identically.
    @Test func randomLinesNeverDisagree() {
        var rng = SeededGenerator(seed: 11)
        let alphabet = Array("DRAGOPLETS 0123456789-".utf8)
        for _ in 0..<20_000 {
            let len = Int(rng.next() % 16)
            let verbs = ["DRAG ", "GRAB ", "DROP", "RELEASE", "ROTATE ", ""]
            var bytes = Array(verbs[Int(rng.next() % UInt64(verbs.count))].utf8)
            for _ in 0..<len { bytes.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            let fast = bytes.withUnsafeBytes { Request.parseHot($0) }
            if let fast {
                // The text entry point never takes the hot path: it is the reference.
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(Request.parse(text) == .success(fast), "\(text)")
            }
        }
    }
}
