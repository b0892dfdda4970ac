/// The authoritative state of one room: the current puzzle, every piece, every
/// hold and every player. Pure: no clock, no I/O; times are passed in.
///
/// Change it only through `perform` (validated player actions), `expireLeases`
/// and `apply` (replaying events). Every lookup the hot paths need (piece by id,
/// occupant by cell, hold by piece) is O(1) in the number of pieces.
public struct RoomState: Hashable, Sendable {
    public internal(set) var settings: RoomSettings
    public internal(set) var puzzleIndex: Int
    public internal(set) var spec: PuzzleSpec
    public internal(set) var geometry: TableGeometry
    public internal(set) var cut: JigsawCut
    public internal(set) var pieces: [PieceState]
    /// Where every piece lay when the current puzzle started (its layout from
    /// the seed): kept so that a snapshot can name the pieces still there
    /// instead of listing them (`SnapshotCodec`'s compact form).
    public internal(set) var startPieces: [PieceState]
    /// Piece id occupying each board cell (row-major), or -1.
    var occupant: [Int32]
    public internal(set) var locks: [Int: PieceLock]
    /// The players in the room now.
    public internal(set) var players: [PlayerID: PlayerInfo]
    /// Players who were in the room and left, with their counters (moves, hint
    /// used), kept for when they come back: a player is a person, not a visit.
    public internal(set) var absent: [PlayerID: PlayerInfo]
    /// Moves on the current puzzle, and on every puzzle, of the players the
    /// room has forgotten (absent too long): kept in the room's totals.
    public internal(set) var formerMoves: Int
    public internal(set) var formerTotalMoves: Int
    public internal(set) var correctCount: Int
    /// Number of sequenced events applied so far.
    public internal(set) var seq: UInt64
    /// The puzzle clock: play time on the current puzzle. It runs while the
    /// room has at least one player and the puzzle is not solved. Paused (an
    /// empty room, or solved): `clockRunningSince` is nil and `clockBase` is
    /// the play time. Running: `clockBase` is 0 and `clockRunningSince` is the
    /// room-clock moment from which the play time counts.
    public internal(set) var clockBase: Int64
    public internal(set) var clockRunningSince: Int64?
    /// Play time from the puzzle's start to its solve, once solved.
    public internal(set) var solveMillis: Int64?

    /// A room at its starting state: puzzle 0 built from the settings' seed,
    /// nobody in it, its clock at zero and paused.
    public init(settings: RoomSettings) {
        self.settings = settings
        let layout = PuzzleLayout(spec: settings.first, seed: settings.seed, index: 0)
        puzzleIndex = 0
        spec = settings.first
        geometry = layout.geometry
        cut = layout.cut
        pieces = layout.pieces
        startPieces = layout.pieces
        occupant = layout.occupant
        locks = [:]
        players = [:]
        absent = [:]
        formerMoves = 0
        formerTotalMoves = 0
        correctCount = 0
        seq = 0
        clockBase = 0
        clockRunningSince = nil
        solveMillis = nil
        correctCount = (0..<pieces.count).reduce(0) { $0 + (isCorrect($1) ? 1 : 0) }
    }

    /// Gives the room its host's picture library to cycle through (see
    /// `RoomSettings.pictures`): a server does so when it opens or restores
    /// a room. Nothing else about the room changes.
    public mutating func usePictures(_ names: [String]) {
        settings.pictures = names
    }

    public var pieceCount: Int { pieces.count }
    public var isSolved: Bool { solveMillis != nil }

    /// Play time on the current puzzle at room clock `now` (never negative;
    /// a `now` before the clock last started counts as that start).
    public func elapsed(at now: Int64) -> Int64 {
        guard let since = clockRunningSince else { return clockBase }
        return clockBase.clampedAdding(max(0, now.clampedSubtracting(since)))
    }

    /// Sets the puzzle clock as its server reports it: `elapsed` play time at
    /// `now`, running or paused. A mirror that applied events late (a
    /// catch-up after a dropped link, whose events carry no time) takes the
    /// server's clock this way. A solved puzzle's clock stands at its solve.
    public mutating func adoptClock(elapsed: Int64, running: Bool, at now: Int64) {
        guard solveMillis == nil else { return }
        if running {
            clockBase = 0
            clockRunningSince = now.clampedSubtracting(max(0, elapsed))
        } else {
            clockBase = max(0, elapsed)
            clockRunningSince = nil
        }
    }

    /// Whether the puzzle clock is running (someone is in the room and the puzzle is not solved).
    public var clockIsRunning: Bool { clockRunningSince != nil }

    /// Moves made on the current puzzle by everyone who played it (present or not).
    public var roomMoves: Int {
        players.values.reduce(0) { $0 + $1.moves } + absent.values.reduce(0) { $0 + $1.moves } + formerMoves
    }

    /// Moves made on every puzzle of the room's sequence.
    public var roomTotalMoves: Int {
        players.values.reduce(0) { $0 + $1.totalMoves } + absent.values.reduce(0) { $0 + $1.totalMoves } + formerTotalMoves
    }

    /// A player's counters whether present or away.
    public func playerRecord(_ id: PlayerID) -> PlayerInfo? { players[id] ?? absent[id] }

    /// The piece occupying a board cell, if any (a lifted piece still occupies its cell).
    public func occupant(of cell: Cell) -> Int? {
        guard geometry.isOnBoard(cell) else { return nil }
        let p = occupant[geometry.index(of: cell)]
        return p < 0 ? nil : Int(p)
    }

    /// Whether a piece is in its home cell at rotation 0.
    public func isCorrect(_ piece: Int) -> Bool {
        isCorrect(piece, at: pieces[piece].location, rotation: pieces[piece].rotation)
    }

    /// Whether a piece would be in its home cell at rotation 0 if it were at `location`.
    func isCorrect(_ piece: Int, at location: PieceLocation, rotation: Int) -> Bool {
        guard rotation == 0, case .board(let c) = location else { return false }
        return c.row * spec.cols + c.col == piece
    }

    public func homeCell(of piece: Int) -> Cell { geometry.cell(at: piece) }

    /// Where a piece is drawn now: its drag point if held, else its committed place.
    public func position(of piece: Int) -> Point {
        if let lock = locks[piece] { return lock.point }
        switch pieces[piece].location {
        case .board(let c): return geometry.origin(of: c)
        case .table(let p): return p
        }
    }

    /// The rotation a piece is drawn at now (its in-hand rotation if held).
    public func displayRotation(of piece: Int) -> Int {
        locks[piece]?.rotation ?? pieces[piece].rotation
    }

    public func holder(of piece: Int) -> PlayerID? { locks[piece]?.holder }

    /// The lowest colour slot no present player other than `player` has: the
    /// slot a player arriving now gets. O(players).
    public func lowestFreeColorSlot(besides player: PlayerID? = nil) -> Int {
        var taken = [Bool](repeating: false, count: players.count + 1)
        for (id, info) in players where id != player && info.colorSlot < taken.count { taken[info.colorSlot] = true }
        return taken.firstIndex(of: false) ?? taken.count
    }

    /// Each present player's colour slot (distinct within the room).
    public var colorSlots: [PlayerID: Int] { players.mapValues(\.colorSlot) }

    /// The hold of `player` whose lease runs out first, if it holds anything.
    public func soonestLapsingHold(of player: PlayerID) -> (piece: Int, expiresAt: Int64)? {
        locks.filter { $0.value.holder == player }.min { ($0.value.expiresAt, $0.key) < ($1.value.expiresAt, $1.key) }
            .map { ($0.key, $0.value.expiresAt) }
    }
}
