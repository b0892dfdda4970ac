import PuzzleCore
import PuzzleProtocol
import Testing
@testable import PuzzleServer

/// The codecs write straight into a server chunk (`ByteSink`): the bytes must
/// be the ones they write into an array, also when the chunk grows mid-line.
@Suite struct ByteChunkTests {
    private static let events: [RoomEvent] = [
        RoomEvent(seq: 7, time: 0, body: .dragged(piece: 12, by: PlayerID(3), to: Point(x: -4, y: 40), target: Cell(row: 2, col: 9))),
        RoomEvent(seq: 8, time: 0, body: .placed(piece: 12, by: PlayerID(3), at: .board(Cell(row: 2, col: 9)), rotation: 0)),
        RoomEvent(seq: 9, time: 0, body: .joined(PlayerID(1_234_567), name: "zo\u{EB}")),
        RoomEvent(seq: RoomLimits.maxSeq, time: 0, body: .left(PlayerID(Int.max))),
    ]
    private static let replies: [Reply] = [
        .dragged(piece: 12, to: Point(x: 1, y: -2), target: nil),
        .dropped(piece: 5, outcome: .swapped(Cell(row: 1, col: 0)), solved: true),
        .error(.rateLimited),
        .pong(token: "a b  c"),
    ]

    @Test func eventsAndRepliesEncodeIntoAChunkAsIntoAnArray() {
        // 16 bytes, the least: every line makes it grow.
        var chunk = ByteChunk(capacity: 1)
        var array: [UInt8] = []
        for e in Self.events {
            EventCodec.encode(e, into: &chunk)
            EventCodec.encode(e, into: &array)
        }
        for r in Self.replies {
            ReplyCodec.encode(r, into: &chunk)
            ReplyCodec.encode(r, into: &array)
        }
        #expect(Array(chunk.bytes(0, chunk.count)) == array)
        #expect(String(decoding: array, as: UTF8.self).hasPrefix("EV 7 dragged 12 3 -4 40 2,9\nEV 8 placed 12 3 cell 2 9 0\n"))
    }
}
