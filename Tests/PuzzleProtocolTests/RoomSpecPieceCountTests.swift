import Testing
import PuzzleCore
@testable import PuzzleProtocol

/// A room spec with a piece count in place of ROWSxCOLS (`den jigsaw 100`).
@Suite struct RoomSpecPieceCountTests {
    static func parse(_ text: String) throws(ProtocolError) -> RoomSpec {
        try RoomSpec.parse(text.split(separator: " "))
    }

    @Test func aCountIsKeptAndWrittenBackAsACount() throws {
        let spec = try Self.parse("den jigsaw 100 picture=rings seats=3")
        #expect(spec.pieces == 100 && spec.rows == 10 && spec.cols == 10 && spec.seats == 3)
        #expect(try Self.parse(spec.description) == spec)
        #expect(spec.description == "den jigsaw 100 picture=rings seats=3")
    }

    @Test func aCountOutOfRangeIsBadSize() {
        for text in ["den jigsaw 3", "den jigsaw 10001", "den jigsaw 1234567", "den jigsaw 99999999999999999999"] {
            #expect(throws: ProtocolError.self) { try Self.parse(text) }
            #expect((try? Self.parse(text)) == nil)
            do { _ = try Self.parse(text) } catch { #expect(error.code == .badSize, "\(text): \(error)") }
        }
    }
}
