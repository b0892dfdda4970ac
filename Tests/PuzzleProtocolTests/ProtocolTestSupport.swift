import PuzzleTestSupport
import PuzzleCore
@testable import PuzzleProtocol

/// A seeded random game, as the core's randomized test plays it: players grab,
/// drag (mostly towards home), rotate, drop, release, ask hints and move on to
/// the next puzzle when one is solved. Keeps the room's full event log.
struct RandomGame {
    let settings: RoomSettings
    let players: [PlayerID]
    /// The room before anyone joined: what a replay starts from.
    let start: RoomState
    var room: RoomState
    var log: [RoomEvent] = []
    var time: Int64 = 0
    var rng: SeededGenerator
    var refused = 0

    init(kind: PuzzleKind, rows: Int, cols: Int, players count: Int = 4, maxHeld: Int = 2, seed: UInt64) throws {
        let spec = try PuzzleSpec(kind: kind, rows: rows, cols: cols, rotation: kind == .jigsaw)
        settings = RoomSettings(first: spec, leaseMillis: 2_000, hintMillis: 1_500, maxHeld: maxHeld, seed: seed)
        start = RoomState(settings: settings)
        room = start
        rng = SeededGenerator(seed: seed &* 31 &+ 7)
        players = (1...count).map(PlayerID.init)
        for p in players { try room.perform(.join(name: "p\(p.rawValue)"), by: p, at: time, into: &log) }
    }

    /// Plays `steps` random actions (refusals are counted, not fatal).
    mutating func play(_ steps: Int) {
        for _ in 0..<steps { step() }
    }

    mutating func step() {
        time += Int64(rng.next() % 40)
        room.expireLeases(at: time, into: &log)
        let player = players[Int(rng.next() % UInt64(players.count))]
        let action: Action
        // Now and then someone leaves (dropping their holds) and comes back.
        if rng.next() % 200 == 0 {
            do {
                try room.perform(.leave, by: player, at: time, into: &log)
                try room.perform(.join(name: "p\(player.rawValue)"), by: player, at: time, into: &log)
            } catch {
                refused += 1
            }
            return
        }
        action = RandomActions.next(for: player, in: room, using: &rng)
        do {
            try room.perform(action, by: player, at: time, into: &log)
        } catch {
            refused += 1
        }
        if room.isSolved {
            try? room.perform(.next, by: player, at: time, into: &log)
        }
    }

    /// Solves a swap puzzle on the spot: every hold is released, then the first
    /// player swaps each tile into its home cell. Then asks for the next puzzle.
    mutating func solveSwapAndMoveOn() throws {
        precondition(room.spec.kind == .swap)
        for (piece, lock) in room.locks.sorted(by: { $0.key < $1.key }) {
            try room.perform(.release(piece: piece), by: lock.holder, at: time, into: &log)
        }
        let p = players[0]
        for piece in 0..<room.pieceCount where !room.isCorrect(piece) {
            try room.perform(.grab(piece: piece), by: p, at: time, into: &log)
            try room.perform(.drag(piece: piece, to: room.geometry.origin(of: room.homeCell(of: piece))), by: p, at: time, into: &log)
            try room.perform(.drop(piece: piece), by: p, at: time, into: &log)
        }
        try room.perform(.next, by: p, at: time, into: &log)
    }
}

extension RoomState {
    /// Grabs a piece, drags it onto a cell's origin and drops it there.
    mutating func move(_ piece: Int, to cell: Cell, by player: PlayerID, at time: Int64, into log: inout [RoomEvent]) throws {
        try perform(.grab(piece: piece), by: player, at: time, into: &log)
        try perform(.drag(piece: piece, to: geometry.origin(of: cell)), by: player, at: time, into: &log)
        try perform(.drop(piece: piece), by: player, at: time, into: &log)
    }

    /// Puts every jigsaw piece home (the puzzle must have rotation off).
    mutating func solveJigsaw(by player: PlayerID, at time: Int64, into log: inout [RoomEvent]) throws {
        for piece in 0..<pieceCount where !isCorrect(piece) {
            try move(piece, to: homeCell(of: piece), by: player, at: time, into: &log)
        }
    }
}

/// Text helpers.
extension String {
    var bytes: [UInt8] { Array(utf8) }
}

/// Random damage to a valid line, for decoders that must never crash.
struct LineMutator {
    var rng: SeededGenerator

    private static let pieces: [String] = [
        " ", "  ", "-", ",", "x", "0", "1", "9", "-1", "=", "EV", "S", "cell", "table", "-", "on", "off",
        "9223372036854775807", "-9223372036854775808", "18446744073709551615", "99999999999999999999",
        "\u{0}", "\u{301}", "é", "\r", "\t", "4x4", "0x0", "101x2",
    ]

    mutating func next(_ max: Int) -> Int { Int(rng.next() % UInt64(max)) }

    /// One to four random edits: truncation, deletion, insertion, word swap or duplication.
    mutating func mutate(_ line: String) -> String {
        var chars = Array(line)
        for _ in 0..<(1 + next(4)) {
            switch next(7) {
            case 0:
                chars = Array(chars.prefix(next(chars.count + 1)))
            case 1 where !chars.isEmpty:
                let at = next(chars.count)
                chars.removeSubrange(at..<min(chars.count, at + 1 + next(4)))
            case 2, 3:
                let insert = Array(Self.pieces[next(Self.pieces.count)])
                chars.insert(contentsOf: insert, at: next(chars.count + 1))
            case 4:
                var words = String(chars).split(separator: " ", omittingEmptySubsequences: false)
                if words.count > 1 {
                    let a = next(words.count), b = next(words.count)
                    words.swapAt(a, b)
                }
                chars = Array(words.joined(separator: " "))
            case 5:
                var words = String(chars).split(separator: " ", omittingEmptySubsequences: false)
                if !words.isEmpty {
                    let a = next(words.count)
                    words.insert(words[a], at: next(words.count + 1))
                }
                chars = Array(words.joined(separator: " "))
            default:
                // Replace a digit run with an extreme number.
                if let i = chars.indices.filter({ chars[$0].isNumber }).randomElement(using: &rng) {
                    var j = i
                    while j < chars.count && chars[j].isNumber { j += 1 }
                    chars.replaceSubrange(i..<j, with: Array(["0", "-7", "4294967296", "9223372036854775807", "-9223372036854775808"][next(5)]))
                }
            }
        }
        return String(chars)
    }
}
