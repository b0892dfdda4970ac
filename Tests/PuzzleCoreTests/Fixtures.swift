@testable import PuzzleCore

let alice = PlayerID(1)
let bob = PlayerID(2)

/// A room of the given kind with alice and bob joined at time 0.
func makeRoom(_ kind: PuzzleKind, _ rows: Int = 4, _ cols: Int = 4, rotation: Bool = false,
              maxHeld: Int = 1, lease: Int64 = 10_000, seed: UInt64 = 42) throws -> RoomState {
    let spec = try PuzzleSpec(kind: kind, rows: rows, cols: cols, rotation: rotation)
    var room = RoomState(settings: RoomSettings(first: spec, leaseMillis: lease, maxHeld: maxHeld, seed: seed), startedAt: 0)
    try room.perform(.join(name: "alice"), by: alice, at: 0)
    try room.perform(.join(name: "bob"), by: bob, at: 0)
    return room
}

extension RoomState {
    /// Grabs, drags to the cell's origin and drops; returns the events of the drop.
    @discardableResult
    mutating func move(_ piece: Int, to cell: Cell, by player: PlayerID = alice, at time: Int64 = 1) throws -> [RoomEvent] {
        try perform(.grab(piece: piece), by: player, at: time)
        try perform(.drag(piece: piece, to: geometry.origin(of: cell)), by: player, at: time)
        return try perform(.drop(piece: piece), by: player, at: time)
    }

    /// Checks that every piece exists exactly once and no piece has two holders.
    func checkInvariants() -> Bool {
        var seen = Set<Int>()
        for (i, p) in occupant.enumerated() where p >= 0 {
            guard pieces[Int(p)].location == .board(geometry.cell(at: i)), seen.insert(Int(p)).inserted else { return false }
        }
        for (i, piece) in pieces.enumerated() {
            switch piece.location {
            case .board(let c): if occupant[geometry.index(of: c)] != Int32(i) { return false }
            case .table(let p): if !geometry.contains(p) || seen.contains(i) { return false }
            }
        }
        var held = 0
        for (id, info) in players {
            for piece in info.holding {
                guard locks[piece]?.holder == id else { return false }
                held += 1
            }
        }
        guard held == locks.count else { return false }
        let correct = (0..<pieces.count).filter { isCorrect($0) }.count
        return correct == correctCount
    }
}
