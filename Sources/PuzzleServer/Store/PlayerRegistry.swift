import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// Who the server's players are, kept in the data directory so that neither
/// a token nor an id is lost to a restart.
///
/// `<data>/players`: the players version 2 greeted, by resume token, so that
/// a token still brings its player back after a restart:
///
///     <id> <token> <name> *<crc32 as 8 lowercase hex digits>
///
/// One line per player, appended and synced (unless the policy is `never`)
/// before the HELLO reply that hands the token out: the lines of one loop
/// turn are synced together (`commit`, one `fdatasync` however many players
/// were greeted), before any of the turn's replies leaves. A line that fails its
/// checksum or range checks is skipped (that token no longer resumes); the
/// rest still load.
///
/// `<data>/player-ids`: how far ids have been handed out, so that ids are
/// never reused, also for a version 1 player that never joined a room (no
/// room and no token remembers it):
///
///     <largest id reserved> *<crc32>
///
/// Ids are reserved a block at a time: a line is appended (and synced, at
/// the turn's `commit`) before the first id of a block is handed out, so a HELLO costs a write
/// only once per block. After a restart, ids go on after the largest id any
/// line, token or room remembers; the unused rest of the last block is
/// skipped, never handed out.
///
/// `<data>/player-colors`: each player's colour slot, the one it had last
/// in any room, so that it takes it again in the next room it joins (and
/// after a restart) whenever nobody present there has it:
///
///     <id> <slot> *<crc32>
///
/// A line is appended when a player's slot changes (not synced: a colour
/// lost to a power cut costs only a colour); the last line of an id wins. At
/// load a file with many superseded lines is written again, one per player.
///
/// Not thread-safe: owned by the server's event loop.
final class PlayerRegistry {
    /// Who a token belongs to.
    struct Entry: Equatable {
        var id: PlayerID
        var name: String
    }

    /// Ids reserved by one `player-ids` line.
    static let reservationBlock = 64

    private let tokens: ChecksummedLineFile
    private let ids: ChecksummedLineFile
    private let colorFile: ChecksummedLineFile
    /// Each player's colour slot, as `player-colors` last recorded it.
    private(set) var colors: [PlayerID: Int] = [:]
    var path: String { tokens.path }
    private(set) var byToken: [String: Entry] = [:]
    /// The id `issueID` hands out next.
    private(set) var nextID = 1
    /// Ids up to this one are reserved on disk.
    private var reservedThrough = 0
    /// Lines skipped at load, with why (for the log).
    private(set) var skippedLines: [String] = []
    /// Where appends and syncs go (tests count and fail them).
    private let device: StorageDevice
    /// Files appended to since the last `commit`.
    private var tokensUnsynced = false
    private var idsUnsynced = false

    init(directory: String, sync: Bool, device: StorageDevice = SystemStorageDevice()) throws(RoomStoreError) {
        self.device = device
        tokens = ChecksummedLineFile(path: directory + "/players", sync: sync)
        ids = ChecksummedLineFile(path: directory + "/player-ids", sync: sync)
        colorFile = ChecksummedLineFile(path: directory + "/player-colors", sync: false)
        var largest = 0
        let players = try tokens.loadRecords(file: "players", consequence: "its token no longer resumes", decode: Self.decodeToken)
        skippedLines += players.problems
        for (token, entry) in players.records {
            byToken[token] = entry
            largest = max(largest, entry.id.rawValue)
        }
        let reserved = try ids.loadRecords(file: "player-ids", consequence: "skipped", decode: Self.decodeID)
        skippedLines += reserved.problems
        for id in reserved.records { largest = max(largest, id) }
        continueAfter(largest)
        let slots = try colorFile.loadRecords(file: "player-colors", consequence: "skipped", decode: Self.decodeColor)
        skippedLines += slots.problems
        for (id, slot) in slots.records { colors[id] = slot }
        // Superseded lines only grow the file: written again when they are
        // most of it (a failure keeps the old file, which reads the same).
        if slots.records.count > 2 * colors.count + Self.colorLinesKept {
            let lines = colors.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }
            do { try colorFile.rewrite(lines, directory: directory) } catch { skippedLines.append("player-colors not compacted: \(error)") }
        }
    }

    /// Superseded `player-colors` lines tolerated beyond two per player.
    static let colorLinesKept = 1024

    /// The colour slot `player` had last (in any room), if any is recorded.
    func colorSlot(of player: PlayerID) -> Int? { colors[player] }

    /// `player` has colour slot `slot` now: recorded (appended) if it changed.
    func recordColor(_ slot: Int, of player: PlayerID) throws(RoomStoreError) {
        guard colors[player] != slot else { return }
        colors[player] = slot
        try colorFile.append("\(player.rawValue) \(slot)")
    }

    /// Ids up to `id` are taken (a room remembers a player of that id):
    /// none of them is handed out.
    func continueAfter(_ id: Int) {
        guard id >= nextID else { return }
        nextID = id + 1
        reservedThrough = max(reservedThrough, id)
    }

    /// A new player's id, never handed out before (also before a restart):
    /// its reservation is written before it is returned, and durable once
    /// `commit` returns (call it before the id is told to anyone). A failed
    /// write hands out nothing.
    func issueID() throws(RoomStoreError) -> PlayerID {
        let id = nextID
        if id > reservedThrough {
            let through = id + Self.reservationBlock - 1
            try ids.appendUnsynced("\(through)", device: device)
            idsUnsynced = true
            reservedThrough = through
        }
        nextID = id + 1
        return PlayerID(id)
    }

    /// Records a new player's token: written now, durable once `commit`
    /// returns (call it before the token is handed out). A failed write
    /// records nothing.
    func register(token: String, _ entry: Entry) throws(RoomStoreError) {
        try tokens.appendUnsynced("\(entry.id.rawValue) \(token) \(entry.name)", device: device)
        tokensUnsynced = true
        byToken[token] = entry
        continueAfter(entry.id.rawValue)
    }

    /// Makes every token and id reservation written since the last commit
    /// durable: one sync per file written, however many players were greeted
    /// (as a turn's moves are synced together). The server calls it once a
    /// loop turn, before the turn's replies go out.
    /// - Throws: when a sync fails. Whether those lines reached the disk is
    ///   then unknown (a failed sync cannot be retried safely), so none of
    ///   the turn's replies may be sent.
    func commit() throws(RoomStoreError) {
        if idsUnsynced {
            idsUnsynced = false
            try ids.syncAppended(device: device)
        }
        if tokensUnsynced {
            tokensUnsynced = false
            try tokens.syncAppended(device: device)
        }
    }

    private static func decodeToken(_ line: ArraySlice<UInt8>) -> (String, Entry)? {
        let words = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard words.count == 3, let id = Int(words[0]), RoomLimits.playerIDs.contains(id),
              ResumeToken.isWellFormed(words[1]), NameRule.isValid(String(words[2])) else { return nil }
        return (String(words[1]), Entry(id: PlayerID(id), name: String(words[2])))
    }

    private static func decodeColor(_ line: ArraySlice<UInt8>) -> (PlayerID, Int)? {
        let words = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard words.count == 2, let id = LineScanner.int(words[0]), RoomLimits.playerIDs.contains(id),
              let slot = LineScanner.int(words[1]), RoomLimits.colorSlots.contains(slot) else { return nil }
        return (PlayerID(id), slot)
    }

    private static func decodeID(_ line: ArraySlice<UInt8>) -> Int? {
        guard let id = Int(String(decoding: line, as: UTF8.self)), RoomLimits.playerIDs.contains(id) else { return nil }
        return id
    }
}
