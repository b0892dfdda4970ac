/// A room turn's broadcast lines as WebSocket text frames, one a line, built
/// once and shared by every browser in the room: what `HostedRoom.chunk` is
/// for TCP members. Output queues hold slices of `chunk` without copying, so a
/// broadcast costs one framing whatever the number of browsers.
///
/// Built on demand, line by line, as far as the room's chunk goes when a
/// WebSocket member is handed it (`HostedRoom.webSocketFrames`): a room
/// without browsers frames nothing.
final class BroadcastFrames {
    /// The frames of this turn's lines framed so far, back to back.
    private(set) var chunk = ByteChunk(capacity: 4096)
    /// For each framed line: where its frame ends in `chunk`.
    private(set) var ends: [Int] = []

    /// Lines framed so far this turn.
    var lineCount: Int { ends.count }

    /// Frames one more line: `line` holds its bytes with or without its LF
    /// (the frame never carries it).
    func append(line: UnsafeRawBufferPointer) {
        let payload = line.last == 0x0A ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
        chunk.appendTextFrame(payload)
        ends.append(chunk.count)
    }

    /// Where line `i`'s frame starts (`i == lineCount`: the end of the frames).
    func start(ofLine i: Int) -> Int {
        i == 0 ? 0 : ends[i - 1]
    }

    /// Forgets this turn's frames. The chunk is replaced, not emptied, when
    /// anything was framed: queues still hold slices of it.
    func reset() {
        guard chunk.count > 0 else { return }
        chunk = ByteChunk(capacity: max(4096, chunk.count))
        ends.removeAll(keepingCapacity: true)
    }
}
