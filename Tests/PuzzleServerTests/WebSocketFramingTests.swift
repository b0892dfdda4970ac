import PuzzleCore
import PuzzleProtocol
import PuzzleSystem
import PuzzleWeb
import Testing
@testable import PuzzleServer

/// The server's WebSocket framing without a server: frames written straight
/// into chunks, a room's broadcast framed once for all its browsers, and a
/// browser's output queue mixing shared frames, its own lines and wire bytes.
@Suite struct WebSocketFramingTests {
    private static func bytes(_ chunk: ByteChunk, _ start: Int = 0, _ end: Int? = nil) -> [UInt8] {
        Array(chunk.bytes(start, end ?? chunk.count))
    }

    private static func textFrame(_ line: String) -> [UInt8] {
        WebSocketFrame(opcode: .text, payload: Array(line.utf8)).encoded()
    }

    @Test(arguments: [0, 1, 125, 126, 127, 65535, 65536, 70000])
    func aTextFrameInAChunkIsTheFrameEncoder(length: Int) {
        let payload = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        let chunk = ByteChunk(capacity: 1)
        payload.withUnsafeBytes { chunk.appendTextFrame($0) }
        #expect(Self.bytes(chunk) == WebSocketFrame(opcode: .text, payload: payload).encoded())
    }

    @Test func linesBecomeOneFrameEachAndAnUnfinishedLineIsLeft() {
        let chunk = ByteChunk()
        let text = Array("EV 1 say 2 hi\n\nOK said\nEV 2 dra".utf8)
        let used = text.withUnsafeBytes { chunk.appendTextFrames(lines: $0) }
        #expect(used == text.count - "EV 2 dra".utf8.count)
        #expect(Self.bytes(chunk) == Self.textFrame("EV 1 say 2 hi") + Self.textFrame("") + Self.textFrame("OK said"))
    }

    private static func room() throws -> HostedRoom {
        var state = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 2, cols: 2), seed: 1))
        try state.perform(.join(name: "ann"), by: PlayerID(1), at: 0)
        return HostedRoom(name: "den", password: nil, state: state, picture: nil, run: 1)
    }

    private static func drag(_ seq: UInt64, _ piece: Int, _ x: Int) -> RoomEvent {
        RoomEvent(seq: seq, time: 0, body: .dragged(piece: piece, by: PlayerID(1), to: Point(x: x, y: 3), target: nil))
    }

    /// The room frames its turn once, line for line with its chunk, as far as
    /// the chunk goes when asked; asking again frames only the lines since.
    @Test func aRoomFramesItsTurnOnceAndLineForLine() throws {
        let room = try Self.room()
        room.broadcast([Self.drag(5, 0, 1), Self.drag(6, 1, 2)])
        let frames = room.webSocketFrames
        #expect(frames.lineCount == 2)
        let long = "EV 6 say 1 " + String(repeating: "x", count: 300)
        room.broadcast(line: Array((long + "\n").utf8))
        room.broadcast([Self.drag(7, 0, 9)])
        #expect(room.webSocketFrames === frames)
        #expect(frames.lineCount == 4)
        let lines = String(decoding: Self.bytes(room.chunk), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 4 && lines[2] == long)
        #expect(Self.bytes(frames.chunk) == lines.flatMap(Self.textFrame))
        // Each line's frame is where `ends` says (what a slow reader's sync takes one by one).
        for (i, line) in lines.enumerated() {
            #expect(Self.bytes(frames.chunk, frames.start(ofLine: i), frames.ends[i]) == Self.textFrame(line))
        }
        // A new turn frames afresh; the old frames stay whole for the queues that hold them.
        let old = frames.chunk, oldBytes = Self.bytes(old)
        room.endTurn()
        #expect(frames.lineCount == 0 && frames.chunk !== old)
        room.broadcast([Self.drag(8, 1, 4)])
        #expect(Self.bytes(room.webSocketFrames.chunk) == Self.textFrame("EV 8 dragged 1 1 4 3 -"))
        #expect(Self.bytes(old) == oldBytes)
    }

    /// Everything a queue sends, read off the other end of a socket pair.
    private static func sent(_ queue: inout OutputQueue) throws -> [UInt8] {
        let (a, b) = try Socket.pair()
        defer { try? a.close(); try? b.close() }
        var got: [UInt8] = []
        while queue.queuedBytes > 0 {
            _ = try queue.flush(to: a)
            while case .processed(let n) = try b.receive(appendingTo: &got), n > 0 {}
        }
        return got
    }

    /// A browser's queue: the room's shared frames as they are, its own lines
    /// framed one message a line (a line split over two appends included),
    /// wire bytes after what came before them, coalesced drags framed when
    /// they are released. Twice, so that the queue's own frame chunk is
    /// reused after it drained.
    @Test func aBrowsersQueueFramesItsLinesAndPassesSharedFramesThrough() throws {
        var queue = OutputQueue()
        queue.appendWire(bytes: Array("HTTP/1.1 101 Switching Protocols\r\n\r\n".utf8))
        queue.framesLines = true
        for round in 0..<2 {
            let shared = ByteChunk()
            _ = Array("EV 1 dragged 0 1 2 3 -\nEV 2 dragged 0 1 2 4 -\n".utf8).withUnsafeBytes { shared.appendTextFrames(lines: $0) }
            let replies = ByteChunk()
            replies.append(Array("OK dragged 0 2 3 -\nOK dra".utf8))
            let split = replies.count
            replies.append(Array("gged 0 2 4 -\n".utf8))
            queue.appendFrames(shared, from: 0, to: shared.count)
            queue.append(replies, from: 0, to: split)
            queue.append(replies, from: split, to: replies.count)
            queue.appendWire(bytes: [0x89, 0x00])
            let drag = ByteChunk()
            drag.append(Array("EV 3 dragged 5 1 7 7 -\n".utf8))
            queue.heldDrags.hold(piece: 5, chunk: drag, start: 0, end: drag.count)
            queue.releaseHeldDrags()
            var expected = round == 0 ? Array("HTTP/1.1 101 Switching Protocols\r\n\r\n".utf8) : []
            expected += Self.bytes(shared) + Self.textFrame("OK dragged 0 2 3 -") + Self.textFrame("OK dragged 0 2 4 -")
            expected += [0x89, 0x00] + Self.textFrame("EV 3 dragged 5 1 7 7 -")
            #expect(try Self.sent(&queue) == expected)
            #expect(queue.isEmpty)
        }
    }

    /// A TCP member's queue is untouched by all this: lines go out as they are.
    @Test func aLineClientsQueueSendsLinesAsTheyAre() throws {
        var queue = OutputQueue()
        let chunk = ByteChunk()
        chunk.append(Array("OK said\nEV 4 say 1 hi\n".utf8))
        queue.append(chunk, from: 0, to: 8)
        queue.append(chunk, from: 8, to: chunk.count)
        #expect(queue.slices.count == 1)
        #expect(try Self.sent(&queue) == Array("OK said\nEV 4 say 1 hi\n".utf8))
    }
}
