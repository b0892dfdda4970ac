import PuzzleCore
import PuzzleProtocol

/// The on-disk form of a room snapshot:
///
///     # puzzle-room snapshot 1 time=<store time>
///     P <password>                  (only if the room has one)
///     S room ... / S player ...     (SnapshotCodec lines, extended: players, absent players, totals, the clock; no holds, no picture)
///     R replay-start ... / R replay-player ... / R replay ...   (the current puzzle's replay so far: ReplayCodec lines)
///     # end
///
/// `time` is the store's room clock when the snapshot was taken (see
/// `Journal.clockOffset`); the `# end` trailer tells a complete file from a cut one.
enum RoomSnapshotFile {
    static let header = "# puzzle-room snapshot 1"
    static let trailer = "# end"

    /// A parsed file whose state lines are not decoded yet (decoding needs the
    /// clock offset, which depends on the journal too).
    struct Parsed {
        var time: Int64
        var password: String?
        var stateLines: [Substring]
        var replayLines: [Substring] = []
    }

    static func encode(_ room: StoredRoom, now: Int64, storeTime: Int64) throws(RoomStoreError) -> [UInt8] {
        var out: [UInt8] = []
        out.append(text: "\(header) time=\(storeTime)\n")
        if let password = room.password {
            guard !password.utf8.contains(where: { $0 == 10 || $0 == 13 }) else { throw .invalidPassword(room: room.name) }
            out.append(text: "P \(password)\n")
        }
        // Holds do not survive a restart; players do (who they are, their
        // counters): the journal after this snapshot replays their joins,
        // leaves and hints onto them.
        var state = room.snapshot.state
        state.releaseHolds()
        SnapshotCodec.encode(RoomSnapshot(name: room.name, state: state, picture: nil), now: now, extended: true, into: &out)
        // The puzzle's moves so far: the journal that follows holds only the
        // moves after this snapshot, so without them a replay would lose its
        // beginning at every compaction.
        if let replay = room.replay { ReplayCodec.encode(replay, prefix: "R ", into: &out) }
        out.append(text: "\(trailer)\n")
        return out
    }

    static func parse(_ bytes: [UInt8]) throws(Problem) -> Parsed {
        guard bytes.last == 10 else { throw Problem(reason: "not terminated by a line feed") }
        // Split on LF bytes: split on the Character "\n" would not break "\r\n",
        // which Swift reads as one Character, and would glue two lines together.
        // One string for the file, its lines slices of it: a string per line
        // was an allocation for each of a big room's ten thousand pieces.
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { Substring($0) }
        lines.removeLast() // the empty piece after the final LF
        guard let first = lines.first, first.hasPrefix(header + " time="),
              let time = Int64(first.dropFirst(header.count + 6)) else { throw Problem(reason: "bad header") }
        guard JournalLine.storeTimes.contains(time) else { throw Problem(reason: "time= out of range") }
        guard lines.last == Substring(trailer) else { throw Problem(reason: "no end trailer (cut short)") }
        var parsed = Parsed(time: time, password: nil, stateLines: [])
        for line in lines.dropFirst().dropLast() {
            // By bytes: a Character prefix test on every line of a big room
            // took a third of a restart.
            let utf8 = line.utf8
            let tag: UInt8? = utf8.count >= 2 && utf8.dropFirst().first == 0x20 ? utf8.first : nil
            if tag == UInt8(ascii: "P") {
                let password = Substring(utf8.dropFirst(2))
                // The writer never writes one (RoomSpec refuses control characters):
                // such a line is damage, and kept it would make the room unwritable.
                guard !password.isEmpty, !password.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
                    throw Problem(reason: "password line holds a control character")
                }
                parsed.password = String(password)
            } else if tag == UInt8(ascii: "S") {
                parsed.stateLines.append(line)
            } else if tag == UInt8(ascii: "R") {
                parsed.replayLines.append(Substring(utf8.dropFirst(2)))
            } else if utf8.first != UInt8(ascii: "#") {
                throw Problem(reason: "unexpected line \"\(line.prefix(40))\"")
            }
        }
        return parsed
    }

    static func decode(_ parsed: Parsed, name: String, now: Int64) throws(Problem) -> StoredRoom {
        do {
            var snapshot = try SnapshotCodec.decode(parsed.stateLines, now: now)
            snapshot.name = name
            var replay: PuzzleReplay?
            if !parsed.replayLines.isEmpty {
                var reader = ReplayCodec.Reader()
                for line in parsed.replayLines { try reader.take(line) }
                replay = try reader.finish()
            }
            return StoredRoom(snapshot: snapshot, password: parsed.password, replay: replay)
        } catch {
            throw Problem(reason: "\(error)")
        }
    }

    /// Why a snapshot file could not be read back.
    struct Problem: Error {
        var reason: String
    }
}
