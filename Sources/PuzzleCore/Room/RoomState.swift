/// The authoritative state of one room: the current puzzle, every piece, every
/// hold and every player. Pure: no clock, no I/O; times are passed in.
///
/// Made of parts that own their state and their own rules: the pieces
/// (`PieceBoard`), the players (`PlayerRoster`) and the play time
/// (`PuzzleClock`). The room keeps what ties them together: the holds (a
/// player with a piece in hand), the sequence number, and the rules that
/// cross parts, in `plan`/`perform` (what an action may do) and `apply` (what
/// an event does).
///
/// Change it only through `perform` (validated player actions), `expireLeases`
/// and `apply` (replaying events). Every lookup the hot paths need (piece by id,
/// occupant by cell, hold by piece) is O(1) in the number of pieces.
public struct RoomState: Hashable, Sendable {
    public internal(set) var settings: RoomSettings
    public internal(set) var puzzleIndex: Int
    /// The current puzzle's pieces.
    public internal(set) var board: PieceBoard
    /// The holds: which pieces are in whose hand, where they are being dragged.
    /// A part is held by one hold, on the piece grabbed (its grip).
    public internal(set) var locks: [Int: PieceLock]
    /// The grip of every held part, by part id (`PartTable`): how a piece of
    /// a part finds the hold that carries it, in O(1).
    public internal(set) var grips: [Int: Int]
    public internal(set) var roster: PlayerRoster
    /// Number of sequenced events applied so far.
    public internal(set) var seq: UInt64
    /// Play time on the current puzzle. It runs while the room has at least
    /// one player and the puzzle is not solved.
    public internal(set) var clock: PuzzleClock

    /// A room at its starting state: puzzle 0 built from the settings' seed,
    /// nobody in it, its clock at zero and paused.
    public init(settings: RoomSettings) {
        self.settings = settings
        puzzleIndex = 0
        board = PieceBoard(spec: settings.first, seed: settings.seed, index: 0)
        locks = [:]
        grips = [:]
        roster = PlayerRoster()
        seq = 0
        clock = PuzzleClock()
    }

    /// Rebuilds a room from a recorded state (a snapshot from the wire or from
    /// disk). The puzzle's shapes are regenerated from the seed; the pieces, holds
    /// and players are taken as given, after checking that every piece exists
    /// exactly once and every hold has a holder in the room. The clock is at
    /// `elapsed` and runs from `now` if `clockRunning` (a solved puzzle's clock
    /// stands at its solve time). `colorSlots` gives present players' colour
    /// slots (distinct); a player without one (a version 1 snapshot, an
    /// older file) gets the lowest free slot, in id order.
    public init(settings: RoomSettings, puzzleIndex: Int, spec: PuzzleSpec, pieces: [PieceState], parts: [[Int]] = [],
                locks: [Int: PieceLock], players: [PlayerID: PlayerInfo], absent: [PlayerID: PlayerInfo] = [:],
                former: (moves: Int, total: Int) = (0, 0), seq: UInt64,
                elapsed: Int64, clockRunning: Bool, solveMillis: Int64?, now: Int64,
                colorSlots: [PlayerID: Int] = [:]) throws(SnapshotError) {
        self.settings = settings
        self.puzzleIndex = puzzleIndex
        board = try PieceBoard(spec: spec, seed: settings.seed, index: puzzleIndex, pieces: pieces, parts: parts)
        let holds = locks.sorted(by: { $0.key < $1.key })
        grips = [:]
        for (piece, lock) in holds {
            guard piece >= 0 && piece < pieces.count, players[lock.holder] != nil else { throw .badHold(piece) }
            // One hold a part.
            if let part = board.parts.part(of: piece) {
                guard grips[part] == nil else { throw .badHold(piece) }
                grips[part] = piece
            }
        }
        roster = try PlayerRoster(players: players, absent: absent, former: former, colorSlots: colorSlots)
        for (piece, lock) in holds { roster.addHolding(piece, to: lock.holder) }
        self.locks = locks
        self.seq = seq
        clock = PuzzleClock(elapsed: elapsed, running: clockRunning, solveMillis: solveMillis, now: now)
    }

    /// Where every piece of puzzle `index` of a room with `seed` lies at its
    /// start: what a snapshot's `S pieces start` ranges refer to.
    public static func startPieces(spec: PuzzleSpec, seed: UInt64, index: Int) -> [PieceState] {
        PuzzleLayout(spec: spec, seed: seed, index: index).pieces
    }

    /// Fed in the order of the fields of the single struct this once was, so
    /// that hash values are what they were (equality does not depend on order).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(settings)
        hasher.combine(puzzleIndex)
        hasher.combine(board.spec)
        hasher.combine(board.geometry)
        hasher.combine(board.cut)
        hasher.combine(board.pieces)
        hasher.combine(board.startPieces)
        hasher.combine(board.occupant)
        hasher.combine(locks)
        hasher.combine(roster.players)
        hasher.combine(roster.absent)
        hasher.combine(roster.formerMoves)
        hasher.combine(roster.formerTotalMoves)
        hasher.combine(board.correctCount)
        hasher.combine(seq)
        hasher.combine(clock.base)
        hasher.combine(clock.runningSince)
        hasher.combine(clock.solveMillis)
        if !board.parts.isEmpty { hasher.combine(board.parts) }
    }

    /// Gives the room its host's picture library to cycle through (see
    /// `RoomSettings.pictures`): a server does so when it opens or restores
    /// a room. Nothing else about the room changes.
    public mutating func usePictures(_ names: [String]) {
        settings.pictures = names
    }

    // MARK: The pieces (`board`)

    public var spec: PuzzleSpec { board.spec }
    public var geometry: TableGeometry { board.geometry }
    public var cut: JigsawCut { board.cut }
    public var pieces: [PieceState] { board.pieces }
    /// Where every piece lay when the current puzzle started (`PieceBoard.startPieces`).
    public var startPieces: [PieceState] { board.startPieces }
    /// Piece id occupying each board cell (row-major), or -1.
    var occupant: [Int32] { board.occupant }
    public var correctCount: Int { board.correctCount }
    public var pieceCount: Int { board.pieceCount }

    /// The piece occupying a board cell, if any (a lifted piece still occupies its cell).
    public func occupant(of cell: Cell) -> Int? { board.occupant(of: cell) }

    /// Whether a piece is in its home cell at rotation 0.
    public func isCorrect(_ piece: Int) -> Bool { board.isCorrect(piece) }

    public func homeCell(of piece: Int) -> Cell { board.homeCell(of: piece) }

    /// Whether putting `piece` at `location` and `rotation` changes its
    /// committed place (`PieceBoard.changesPlace`): what counts as a move.
    public func changesPlace(_ piece: Int, to location: PieceLocation, rotation: Int) -> Bool {
        board.changesPlace(piece, to: location, rotation: rotation)
    }

    /// Whether a jigsaw piece may be placed in `cell` at `rotation` (`PieceBoard.fits`).
    public func fits(piece: Int, rotation: Int, in cell: Cell) -> Bool {
        board.fits(piece: piece, rotation: rotation, in: cell)
    }

    // MARK: The players (`roster`)

    /// The players in the room now.
    public var players: [PlayerID: PlayerInfo] { roster.players }
    /// Players who were in the room and left, with their counters (moves, hint
    /// used), kept for when they come back: a player is a person, not a visit.
    public var absent: [PlayerID: PlayerInfo] { roster.absent }
    /// Moves on the current puzzle, and on every puzzle, of the players the
    /// room has forgotten (absent too long): kept in the room's totals.
    public var formerMoves: Int { roster.formerMoves }
    public var formerTotalMoves: Int { roster.formerTotalMoves }
    /// Moves made on the current puzzle by everyone who played it (present or not).
    public var roomMoves: Int { roster.roomMoves }
    /// Moves made on every puzzle of the room's sequence.
    public var roomTotalMoves: Int { roster.roomTotalMoves }
    /// A player's counters whether present or away.
    public func playerRecord(_ id: PlayerID) -> PlayerInfo? { roster.record(id) }
    /// The lowest colour slot no present player other than `player` has: the
    /// slot a player arriving now gets. O(players).
    public func lowestFreeColorSlot(besides player: PlayerID? = nil) -> Int { roster.lowestFreeColorSlot(besides: player) }
    /// Each present player's colour slot (distinct within the room).
    public var colorSlots: [PlayerID: Int] { roster.colorSlots }

    // MARK: The play time (`clock`)

    /// The clock's play time while paused, 0 while running (`PuzzleClock.base`).
    var clockBase: Int64 { clock.base }
    /// The room-clock moment play time counts from while running (`PuzzleClock.runningSince`).
    var clockRunningSince: Int64? { clock.runningSince }
    /// Play time from the puzzle's start to its solve, once solved.
    public var solveMillis: Int64? { clock.solveMillis }
    public var isSolved: Bool { clock.isSolved }
    /// Whether the puzzle clock is running (someone is in the room and the puzzle is not solved).
    public var clockIsRunning: Bool { clock.isRunning }

    /// Play time on the current puzzle at room clock `now` (never negative;
    /// a `now` before the clock last started counts as that start).
    public func elapsed(at now: Int64) -> Int64 { clock.elapsed(at: now) }

    /// Sets the puzzle clock as its server reports it: `elapsed` play time at
    /// `now`, running or paused. A mirror that applied events late (a
    /// catch-up after a dropped link, whose events carry no time) takes the
    /// server's clock this way. A solved puzzle's clock stands at its solve.
    public mutating func adoptClock(elapsed: Int64, running: Bool, at now: Int64) {
        clock.adopt(elapsed: elapsed, running: running, at: now)
    }

    // MARK: The holds

    // MARK: Parts

    /// The pieces joined on the table (`PieceBoard.parts`).
    public var parts: PartTable { board.parts }

    /// The piece whose hold carries `piece`: itself when held, the grip of its
    /// part when its part is held, else nil.
    public func grip(of piece: Int) -> Int? {
        if locks[piece] != nil { return piece }
        guard let part = board.parts.part(of: piece) else { return nil }
        return grips[part]
    }

    /// Where a piece is drawn now: where its hold has dragged it (beside the
    /// grip, for a piece of a held part), else its committed place.
    public func position(of piece: Int) -> Point {
        guard let grip = grip(of: piece), let lock = locks[grip] else { return board.origin(of: piece) }
        return grip == piece ? lock.point : board.point(of: piece, grip: grip, at: lock.point, rotation: lock.rotation)
    }

    /// The rotation a piece is drawn at now (its in-hand rotation if held).
    public func displayRotation(of piece: Int) -> Int {
        grip(of: piece).flatMap { locks[$0]?.rotation } ?? pieces[piece].rotation
    }

    /// Whether a `placed` event for `piece` can be applied without breaking
    /// the board: every piece that moves with it lands on the table, or in a
    /// board cell that is free (or its own). For records from files or a
    /// replay, which may be damaged.
    public func canPlace(_ piece: Int, at location: PieceLocation, rotation: Int) -> Bool {
        guard spec.kind == .jigsaw, (0..<pieceCount).contains(piece), (0...3).contains(rotation) else { return false }
        switch location {
        case .table(let p):
            return geometry.contains(p) && board.fitsOnTable(piece, at: p, rotation: rotation)
        case .board(let c):
            for m in board.parts.pieces(with: piece) {
                let o = board.cellOffset(of: m, from: piece, rotation: rotation)
                let mc = Cell(row: c.row + o.dy, col: c.col + o.dx)
                guard geometry.isOnBoard(mc) else { return false }
                if let here = occupant(of: mc), here != m { return false }
            }
            return true
        }
    }

    /// Whether a `merged` event can be applied without breaking the board:
    /// two picture neighbours in different parts, both loose at one
    /// rotation, `other`'s part staying on the table when moved into place.
    public func canMerge(_ piece: Int, _ other: Int) -> Bool {
        guard spec.kind == .jigsaw, (0..<pieceCount).contains(piece), (0..<pieceCount).contains(other),
              board.homeNeighbours(of: piece).contains(other),
              board.parts.part(of: piece).map({ $0 != board.parts.part(of: other) }) ?? true,
              case .table = pieces[piece].location, case .table = pieces[other].location,
              pieces[piece].rotation == pieces[other].rotation else { return false }
        let want = board.point(of: other, grip: piece, at: board.origin(of: piece), rotation: pieces[piece].rotation)
        return board.fitsOnTable(other, at: want, rotation: pieces[other].rotation)
    }

    /// Who holds `piece` (or the part it is in).
    public func holder(of piece: Int) -> PlayerID? { grip(of: piece).flatMap { locks[$0]?.holder } }

    /// The hold of `player` whose lease runs out first, if it holds anything.
    public func soonestLapsingHold(of player: PlayerID) -> (piece: Int, expiresAt: Int64)? {
        locks.filter { $0.value.holder == player }.min { ($0.value.expiresAt, $0.key) < ($1.value.expiresAt, $1.key) }
            .map { ($0.key, $0.value.expiresAt) }
    }

    /// The earliest time a hold will lapse, for a server to schedule its next check.
    public var nextExpiry: Int64? { locks.values.lazy.map(\.expiresAt).min() }

    /// The cell a held piece would land in if dropped now with its top-left at `point`:
    /// the cell every client highlights (for a part, the grip's; its other
    /// pieces' cells lie beside it as in the picture). The board's target (`PieceBoard.dropTarget`),
    /// except that a swap tile cannot trade with a tile another player holds.
    /// O(1) in the number of pieces for a piece alone; O(size) for a part.
    public func dropTarget(piece: Int, at point: Point, rotation: Int, holder: PlayerID) -> Cell? {
        guard let cell = board.dropTarget(piece: piece, at: point, rotation: rotation, placement: settings.placement) else { return nil }
        if spec.kind == .swap, let other = board.occupant(of: cell), let lock = locks[other], lock.holder != holder {
            return nil
        }
        return cell
    }
}
