/// A room the bots play in: its members, the pieces they have claimed, and
/// its reference stream (the mirror that proves every member's view equal).
final class BenchRoom {
    let name: String
    /// Indices of the bots in this room.
    @exclusivity(unchecked) var members: [Int] = []
    /// Pieces a bot of this bench has asked to grab or holds: other bots
    /// leave them alone, so HELD refusals come only from others' players or
    /// from a mirror one event behind.
    @exclusivity(unchecked) var claimed = Set<Int>()
    /// The room's reference mirror and the stream checks.
    let stream: ReferenceStream

    init(name: String, stream: ReferenceStream) {
        self.name = name
        self.stream = stream
    }
}
