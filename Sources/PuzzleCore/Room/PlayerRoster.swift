/// Who plays in a room: the players there now, those who left (kept with
/// their counters for when they come back: a player is a person, not a
/// visit), and the moves of those the room has forgotten. Owns the rules that
/// concern only players: colour slots, coming back, counting moves, per-puzzle
/// counters, forgetting. Which pieces a player holds is kept here
/// (`PlayerInfo.holding`), but holds themselves are the room's (they tie a
/// player to a piece).
public struct PlayerRoster: Hashable, Sendable {
    /// The players in the room now.
    public private(set) var players: [PlayerID: PlayerInfo]
    /// Players who were in the room and left, with their counters (moves, hint used).
    public private(set) var absent: [PlayerID: PlayerInfo]
    /// Moves on the current puzzle, and on every puzzle, of the players the
    /// room has forgotten (absent too long): kept in the room's totals.
    public private(set) var formerMoves: Int
    public private(set) var formerTotalMoves: Int

    /// Nobody, nobody away, no former moves.
    public init() {
        players = [:]
        absent = [:]
        formerMoves = 0
        formerTotalMoves = 0
    }

    /// A roster as recorded, holding nothing. `colorSlots` gives present
    /// players' colour slots (distinct, in range); a player without one gets
    /// the lowest free slot, in id order. A player both present and away is
    /// present. Former total moves are never fewer than former moves.
    init(players: [PlayerID: PlayerInfo], absent: [PlayerID: PlayerInfo], former: (moves: Int, total: Int),
         colorSlots: [PlayerID: Int]) throws(SnapshotError) {
        self.init()
        var used = Set<Int>()
        for (id, slot) in colorSlots.sorted(by: { $0.key < $1.key }) {
            guard var info = players[id] else { continue }
            guard RoomLimits.colorSlots.contains(slot), used.insert(slot).inserted else {
                throw .badColorSlot(id.rawValue)
            }
            info.colorSlot = slot
            info.holding = []
            self.players[id] = info
        }
        for (id, info) in players.sorted(by: { $0.key < $1.key }) where self.players[id] == nil {
            var info = info
            info.colorSlot = lowestFreeColorSlot()
            info.holding = []
            self.players[id] = info
        }
        self.absent = absent.filter { players[$0.key] == nil }.mapValues { var p = $0; p.holding = []; return p }
        formerMoves = former.moves
        formerTotalMoves = max(former.total, former.moves)
    }

    /// A player's counters whether present or away.
    public func record(_ id: PlayerID) -> PlayerInfo? { players[id] ?? absent[id] }

    /// Moves made on the current puzzle by everyone who played it (present or not).
    public var roomMoves: Int {
        players.values.reduce(0) { $0 + $1.moves } + absent.values.reduce(0) { $0 + $1.moves } + formerMoves
    }

    /// Moves made on every puzzle of the room's sequence.
    public var roomTotalMoves: Int {
        players.values.reduce(0) { $0 + $1.totalMoves } + absent.values.reduce(0) { $0 + $1.totalMoves } + formerTotalMoves
    }

    /// The lowest colour slot no present player other than `player` has: the
    /// slot a player arriving now gets. O(players).
    public func lowestFreeColorSlot(besides player: PlayerID? = nil) -> Int {
        var taken = [Bool](repeating: false, count: players.count + 1)
        for (id, info) in players where id != player && info.colorSlot < taken.count { taken[info.colorSlot] = true }
        return taken.firstIndex(of: false) ?? taken.count
    }

    /// Each present player's colour slot (distinct within the room).
    public var colorSlots: [PlayerID: Int] { players.mapValues(\.colorSlot) }

    /// The colour slot `player` takes on arriving: `preferred` (its own
    /// colour, the one it had last, anywhere) when that is a slot and no
    /// other present player has it; else the lowest free. So a player keeps
    /// its colour across reconnects, restarts and rooms whenever it can, and
    /// two players present never share one. O(players).
    public func slot(preferring preferred: Int?, for player: PlayerID) -> Int {
        if let preferred, RoomLimits.colorSlots.contains(preferred),
           !players.contains(where: { $0.key != player && $0.value.colorSlot == preferred }) {
            return preferred
        }
        return lowestFreeColorSlot(besides: player)
    }

    /// A player arrives (or, present already, renames): someone coming back
    /// gets their counters back (moves, hint used), and someone arriving a
    /// colour no one else present has (`color` if free, else the lowest
    /// free), kept while they stay. Holds nothing.
    mutating func join(_ id: PlayerID, name: String, color: Int? = nil) {
        let present = players[id] != nil
        var info = players[id] ?? absent.removeValue(forKey: id) ?? PlayerInfo(name: name)
        info.name = name
        info.holding = []
        if !present { info.colorSlot = slot(preferring: color, for: id) }
        players[id] = info
    }

    /// A player leaves and is kept as away; returns what it was (with the
    /// pieces it held), or nil if it was not present.
    mutating func leave(_ id: PlayerID) -> PlayerInfo? {
        guard let info = players.removeValue(forKey: id) else { return nil }
        keepAway(id, info)
        return info
    }

    /// Every present player leaves (a restart): all are kept as away.
    mutating func leaveAll() {
        for (id, info) in players { keepAway(id, info) }
        players.removeAll()
    }

    private mutating func keepAway(_ id: PlayerID, _ info: PlayerInfo) {
        var kept = info
        kept.holding = []
        absent[id] = kept
    }

    /// Forgets an away player; its moves stay in the room's totals. A present
    /// player is not forgotten.
    mutating func forget(_ id: PlayerID) {
        guard let info = absent.removeValue(forKey: id) else { return }
        formerMoves += info.moves
        formerTotalMoves += info.totalMoves
    }

    /// Counts a move by `player` on this puzzle and in its total.
    mutating func countMove(by player: PlayerID) {
        players[player]?.moves += 1
        players[player]?.totalMoves += 1
    }

    /// `player` takes its hint, showing until `until`.
    mutating func useHint(_ player: PlayerID, until: Int64) {
        players[player]?.hintUsed = true
        players[player]?.hintUntil = until
    }

    /// A new puzzle: moves and hints are per puzzle (for the away too);
    /// totals carry on across the sequence. Nobody holds anything.
    mutating func startPuzzle() {
        for id in players.keys {
            players[id]?.holding.removeAll()
            players[id]?.moves = 0
            players[id]?.hintUsed = false
            players[id]?.hintUntil = nil
        }
        for id in absent.keys {
            absent[id]?.moves = 0
            absent[id]?.hintUsed = false
            absent[id]?.hintUntil = nil
        }
        formerMoves = 0
    }

    /// `player` now holds `piece` too (last in its order).
    mutating func addHolding(_ piece: Int, to player: PlayerID) {
        players[player]?.holding.append(piece)
    }

    /// `player` no longer holds `piece`.
    mutating func removeHolding(_ piece: Int, from player: PlayerID) {
        if let i = players[player]?.holding.firstIndex(of: piece) {
            players[player]?.holding.remove(at: i)
        }
    }

    /// Nobody holds anything.
    mutating func dropHoldings() {
        for id in players.keys { players[id]?.holding.removeAll() }
    }

    /// `player` holds nothing.
    mutating func dropHoldings(of player: PlayerID) {
        players[player]?.holding.removeAll()
    }

    /// Gives a present player colour slot `slot`, whatever others have: a
    /// replay shows its players in the colours they had when they played.
    mutating func setColorSlot(_ slot: Int, of player: PlayerID) {
        players[player]?.colorSlot = slot
    }
}
