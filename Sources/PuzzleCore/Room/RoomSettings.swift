/// The rules a room plays by, fixed when it is created.
public struct RoomSettings: Hashable, Sendable {
    /// The first puzzle; later ones follow `PuzzleSpec.next()`, with their
    /// picture from `picture(forPuzzle:)`.
    public var first: PuzzleSpec
    /// How long a hold lasts without activity from its holder.
    public var leaseMillis: Int64
    /// How long a hint shows the whole picture.
    public var hintMillis: Int64
    /// How many pieces one player may hold at once.
    public var maxHeld: Int
    /// Seed from which every puzzle of the room is built.
    public var seed: UInt64
    /// Whether each next puzzle takes another picture from `pictures` (the
    /// room option `pictures=cycle`, the default) or every puzzle keeps the
    /// first one's (`pictures=fixed`). Recorded with the room.
    public var cyclesPictures: Bool
    /// The pictures the room may cycle through: its host's picture library
    /// (a server's built-in and configured pictures). Not recorded: the host
    /// supplies them when it opens or restores the room; a mirror needs none,
    /// since every `next` event names its picture.
    public var pictures: [String]
    /// The box lid (room option `lid=on|off`): on, players may look at the
    /// whole picture at will (a reference window, a faint copy in the board's
    /// empty cells); off, they see it only through their hint (once per
    /// puzzle, `hintMillis`). Clients have the picture either way, so the
    /// server enforces nothing more; it tells every client which it is.
    /// Default: on for a jigsaw room, off for a swap room (whose puzzle is
    /// finding where each tile belongs). Recorded with the room.
    public var lid: Bool
    /// Most players the room takes at once (room option `seats=N`); nil: no
    /// cap. A full room refuses JOIN (`ROOM_FULL`) and offers watching.
    /// Recorded with the room.
    public var seats: Int?
    /// Where a jigsaw piece may go into the board (room option
    /// `place=own|shape`, see `Placement`). Recorded with the room; a room
    /// recorded before the option existed played by `.shape`.
    public var placement: Placement

    /// `lid` nil: the default for the first puzzle's kind (`defaultLid`).
    public init(first: PuzzleSpec, leaseMillis: Int64 = 30_000, hintMillis: Int64 = 2_000, maxHeld: Int = 1, seed: UInt64,
                cyclesPictures: Bool = true, pictures: [String] = [], lid: Bool? = nil, seats: Int? = nil, placement: Placement = .own) {
        self.first = first
        self.leaseMillis = leaseMillis
        self.hintMillis = hintMillis
        self.maxHeld = max(1, maxHeld)
        self.seed = seed
        self.cyclesPictures = cyclesPictures
        self.pictures = pictures
        self.lid = lid ?? Self.defaultLid(for: first.kind)
        self.seats = seats.map { max(1, $0) }
        self.placement = placement
    }

    /// The box lid a room has unless it says otherwise: on for jigsaw, off for swap.
    public static func defaultLid(for kind: PuzzleKind) -> Bool { kind == .jigsaw }

    /// The picture of the room's puzzle number `index`. A room that fixed its
    /// picture, or has no other, shows the first puzzle's picture throughout.
    /// Otherwise the pictures form a cycle: the first puzzle's picture, then
    /// every other picture (each name once) in an order shuffled by the room's
    /// seed; puzzle `index` shows entry `index % count`. So two puzzles in a
    /// row never share a picture, every picture comes round, and the same
    /// seed, library and number give the same picture (a replay, a restart).
    public func picture(forPuzzle index: Int) -> String {
        guard cyclesPictures else { return first.picture }
        var others = Array(Set(pictures).subtracting([first.picture])).sorted()
        guard !others.isEmpty else { return first.picture }
        // Fisher-Yates with the core's own generator: the standard library's
        // shuffle may change between releases, and a replay must not.
        var rng = SeededGenerator(seed: SeededGenerator.derive(seed, 0x7069_6374))  // "pict"
        for i in stride(from: others.count - 1, to: 0, by: -1) {
            others.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        let position = index % (others.count + 1)
        return position == 0 ? first.picture : others[position - 1]
    }
}
