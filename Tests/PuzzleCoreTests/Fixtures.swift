@testable import PuzzleCore

let alice = PlayerID(1)
let bob = PlayerID(2)

/// A room of the given kind with alice and bob joined at time 0.
func makeRoom(_ kind: PuzzleKind, _ rows: Int = 4, _ cols: Int = 4, rotation: Bool = false,
              maxHeld: Int = 1, lease: Int64 = 10_000, seed: UInt64 = 42, placement: Placement = .own) throws -> RoomState {
    let spec = try PuzzleSpec(kind: kind, rows: rows, cols: cols, rotation: rotation)
    var room = RoomState(settings: RoomSettings(first: spec, leaseMillis: lease, maxHeld: maxHeld, seed: seed, placement: placement))
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

    /// Checks that every piece exists exactly once (its place and the cell index
    /// agree, no cell holds two pieces, loose pieces lie on the table) and no
    /// piece has two holders (every hold is listed by exactly its holder).
    func checkInvariants() -> Bool {
        let n = pieces.count
        var onBoard = [Bool](repeating: false, count: n)
        for i in 0..<occupant.count {
            let p = Int(occupant[i])
            guard p >= 0 else { continue }
            guard p < n, !onBoard[p], pieces[p].location == .board(geometry.cell(at: i)) else { return false }
            onBoard[p] = true
        }
        var correct = 0
        for i in 0..<n {
            switch pieces[i].location {
            case .board: if !onBoard[i] { return false }
            case .table(let p): if onBoard[i] || !geometry.contains(p) { return false }
            }
            if isCorrect(i) { correct += 1 }
        }
        var held = 0
        for (id, info) in players {
            for piece in info.holding {
                guard locks[piece]?.holder == id else { return false }
                held += 1
            }
        }
        return held == locks.count && correct == correctCount
    }
}
