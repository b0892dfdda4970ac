import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// Solved puzzles' replays: one file per puzzle in the room's directory,
/// `replay.<puzzle>`, written once, whole, when the puzzle is solved:
///
///     # puzzle-room replay 1
///     S replay-start ... / S replay-player ... / S replay ...   (ReplayCodec lines, as REPLAY sends them)
///     # end crc=<crc32 of every byte before this line, 8 lowercase hex digits>
///
/// Written to `replay.<puzzle>.tmp`, synced and renamed into place, so a
/// crash leaves the whole file or none (the journal still holds the solve:
/// the next start writes it then). The room keeps its latest
/// `replaysKept`; older files are deleted once a newer one is durable.
/// Replay files sit beside the snapshot (not in a folder of their own) so a
/// room's directory keeps holding only files, as its removal expects.
extension RoomStore {
    static let replayHeader = "# puzzle-room replay 1"
    static let replayPrefix = "replay."

    static func replayPath(_ paths: RoomPaths, puzzle: Int) -> String { paths.directory + "/\(Self.replayPrefix)\(puzzle)" }

    /// Writes a solved puzzle's replay durably, then deletes the room's
    /// oldest replays beyond `replaysKept` (0 keeps none: nothing is written).
    /// - Returns: the puzzles whose replays were deleted.
    @discardableResult
    public func saveReplay(_ replay: PuzzleReplay, room: String) throws(RoomStoreError) -> [Int] {
        let paths = try paths(room)
        guard replaysKept > 0 else { return [] }
        var bytes = Array("\(Self.replayHeader)\n".utf8)
        ReplayCodec.encode(replay, into: &bytes)
        let crc = CRC32.checksum(bytes[...])
        bytes.append(text: "# end crc=\(Self.hex(crc))\n")
        let path = Self.replayPath(paths, puzzle: replay.puzzle)
        let temporary = path + ".tmp"
        let device = device, sync = syncs
        try onPath(path) { () throws(Errno) in
            do throws(Errno) {
                try device.writeFile(temporary, bytes, sync: sync)
            } catch {
                try? FileSystem.removeFile(temporary, ignoringMissing: true)
                throw error
            }
            try FileSystem.rename(temporary, to: path)
            if sync { try Directory.sync(paths.directory) }
        }
        let kept = try Self.replayPuzzles(paths)
        let extra = kept.dropLast(replaysKept)
        for puzzle in extra {
            let old = Self.replayPath(paths, puzzle: puzzle)
            try onPath(old) { () throws(Errno) in try FileSystem.removeFile(old, ignoringMissing: true) }
        }
        return Array(extra)
    }

    /// Puzzle numbers with a replay file in the room's directory, ascending.
    static func replayPuzzles(_ paths: RoomPaths) throws(RoomStoreError) -> [Int] {
        let directory = paths.directory
        let entries = try onPath(directory) { () throws(Errno) in try Directory.entries(directory) }
        return entries.compactMap { name -> Int? in
            guard name.hasPrefix(Self.replayPrefix) else { return nil }
            let digits = name.dropFirst(Self.replayPrefix.count)
            guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
            return Int(digits)
        }.sorted()
    }

    /// Reads one kept replay. Nil when the room keeps no replay of that puzzle.
    public func loadReplay(room: String, puzzle: Int) throws(RoomStoreError) -> PuzzleReplay? {
        try Self.readReplay(at: replayPath(room: room, puzzle: puzzle), room: room, puzzle: puzzle)
    }

    /// Where the room keeps the replay of `puzzle` (whether or not it does).
    func replayPath(room: String, puzzle: Int) throws(RoomStoreError) -> String {
        Self.replayPath(try paths(room), puzzle: puzzle)
    }

    /// Reads the replay file at `path`: nil when there is none. Touches
    /// nothing of any store's, so a worker thread may call it.
    static func readReplay(at path: String, room: String, puzzle: Int) throws(RoomStoreError) -> PuzzleReplay? {
        guard let bytes = try onPath(path, { () throws(Errno) in try FileSystem.readFileIfPresent(path) }) else { return nil }
        do throws(ReplayCodec.Problem) {
            let replay = try Self.decodeReplay(bytes)
            guard replay.puzzle == puzzle else { throw ReplayCodec.Problem(reason: "puzzle \(replay.puzzle) in the file of \(puzzle)") }
            return replay
        } catch {
            throw .badReplay(room: room, file: "\(Self.replayPrefix)\(puzzle)", reason: error.reason)
        }
    }

    /// Every kept replay of the room, oldest first, without its moves (what
    /// HISTORY lists). Unreadable files are reported in `loadIssues` and left
    /// in place. Replays beyond `replaysKept` (the setting was lowered) are
    /// deleted, oldest first.
    func loadHistory(_ paths: RoomPaths) throws(RoomStoreError) -> [PuzzleReplay] {
        // Leftovers of a write that never finished.
        let directory = paths.directory
        for entry in try onPath(directory, { () throws(Errno) in try Directory.entries(directory) })
        where entry.hasPrefix(Self.replayPrefix) && entry.hasSuffix(".tmp") {
            try onPath(directory + "/" + entry) { () throws(Errno) in try FileSystem.removeFile(directory + "/" + entry, ignoringMissing: true) }
        }
        var puzzles = try Self.replayPuzzles(paths)
        for puzzle in puzzles.dropLast(replaysKept) {
            let old = Self.replayPath(paths, puzzle: puzzle)
            try onPath(old) { () throws(Errno) in try FileSystem.removeFile(old, ignoringMissing: true) }
        }
        puzzles = Array(puzzles.suffix(replaysKept))
        var history: [PuzzleReplay] = []
        for puzzle in puzzles {
            do throws(RoomStoreError) {
                if var replay = try loadReplay(room: paths.name, puzzle: puzzle) {
                    replay.moves = []
                    history.append(replay)
                }
            } catch {
                loadIssues.append(RoomLoadIssue(room: paths.name, error: error, roomSkipped: false))
            }
        }
        return history
    }

    static func decodeReplay(_ bytes: [UInt8]) throws(ReplayCodec.Problem) -> PuzzleReplay {
        guard bytes.last == 10 else { throw ReplayCodec.Problem(reason: "cut short") }
        let body = bytes.dropLast()
        guard let lastBreak = body.lastIndex(of: 10) else { throw ReplayCodec.Problem(reason: "no end line") }
        let trailer = String(decoding: body[(lastBreak + 1)...], as: UTF8.self)
        guard trailer.hasPrefix("# end crc="), let stored = UInt32(trailer.dropFirst(10), radix: 16) else {
            throw ReplayCodec.Problem(reason: "no end line")
        }
        guard CRC32.checksum(bytes[..<(lastBreak + 1)]) == stored else { throw ReplayCodec.Problem(reason: "checksum mismatch") }
        var lines = bytes[..<lastBreak].split(separator: 10, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard lines.first == replayHeader else { throw ReplayCodec.Problem(reason: "bad header") }
        lines.removeFirst()
        var reader = ReplayCodec.Reader()
        for line in lines {
            guard line.hasPrefix("S ") else { throw ReplayCodec.Problem(reason: "unexpected line") }
            try reader.take(line.dropFirst(2))
        }
        return try reader.finish()
    }

    private static func hex(_ crc: UInt32) -> String {
        let digits = String(crc, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
