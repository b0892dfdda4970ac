import Testing
import PuzzleProtocol

/// `EventHead`: an event line's start, read from its bytes as the decoder would word it.
struct EventHeadTests {
    static func head(_ line: String) -> EventHead? {
        Array(line.utf8).withUnsafeBytes { EventHead.read($0) }
    }

    @Test func readsTheKindAndTheFirstTwoNumbers() {
        #expect(Self.head("EV 23967 dragged 260 2 194 33 -") == EventHead(seq: 23967, kind: .dragged, first: 260, second: 2))
        #expect(Self.head("EV 5 placed 4 1 cell 1 1 0") == EventHead(seq: 5, kind: .placed, first: 4, second: 1))
        #expect(Self.head("EV 9 say 3 hello there") == EventHead(seq: 9, kind: .say, first: 3, second: nil))
        #expect(Self.head("EV 9 solved 0 12000") == EventHead(seq: 9, kind: .solved, first: 0, second: 12000))
        #expect(Self.head("EV 9 next 1 jigsaw 4x4 off sunset") == EventHead(seq: 9, kind: .next, first: 1, second: nil))
        #expect(Self.head("EV 9 left 3") == EventHead(seq: 9, kind: .left, first: 3, second: nil))
        #expect(Self.head("EV 9 frobbed 3 4") == EventHead(seq: 9, kind: .other, first: 3, second: 4))
    }

    /// Every kind the encoder writes is read as that kind, and sequenced as PROTOCOL.md says.
    @Test func everyEncodedKindIsKnown() {
        let unsequenced: Set<String> = ["dragged", "say", "watching", "unwatching"]
        for word in ["joined", "left", "grabbed", "dragged", "rotated", "placed", "swapped", "merged", "released",
                     "expired", "returned", "solved", "next", "hint", "forgotten", "say", "watching", "unwatching"] {
            let head = Self.head("EV 1 \(word) 2 3")
            #expect(head != nil && head?.kind != .other, "\(word)")
            #expect(head?.isSequenced == !unsequenced.contains(word), "\(word)")
        }
    }

    @Test func onlyWellFormedStartsAreRead() {
        for line in ["", "EV", "EV ", "EV x dragged 1 2", "EV  dragged 1 2", "ev 1 dragged 1 2", "OK dragged 1 2 3 -", "EV 1 ", "S piece 1"] {
            #expect(Self.head(line) == nil, "\(line)")
        }
        // A number that is not one, or too long, is not read (nor what follows it).
        #expect(Self.head("EV 1 dragged x 2")?.first == nil)
        #expect(Self.head("EV 1 dragged 1234567890 2")?.first == nil)
        #expect(Self.head("EV 1 dragged 3 x")?.second == nil)
    }
}
