/// The rules a room plays by, fixed when it is created.
public struct RoomSettings: Hashable, Sendable {
    /// The first puzzle; later ones follow `PuzzleSpec.next()`.
    public var first: PuzzleSpec
    /// How long a hold lasts without activity from its holder.
    public var leaseMillis: Int64
    /// How long a hint shows the whole picture.
    public var hintMillis: Int64
    /// How many pieces one player may hold at once.
    public var maxHeld: Int
    /// Seed from which every puzzle of the room is built.
    public var seed: UInt64

    public init(first: PuzzleSpec, leaseMillis: Int64 = 30_000, hintMillis: Int64 = 2_000, maxHeld: Int = 1, seed: UInt64) {
        self.first = first
        self.leaseMillis = leaseMillis
        self.hintMillis = hintMillis
        self.maxHeld = max(1, maxHeld)
        self.seed = seed
    }
}
