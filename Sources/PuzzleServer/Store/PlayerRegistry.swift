import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// The players version 2 greeted, by resume token, kept in `<data>/players`
/// so that a token still brings its player back after a restart:
///
///     <id> <token> <name> *<crc32 as 8 lowercase hex digits>
///
/// One line per player, appended (and synced, unless the policy is `never`)
/// before the HELLO reply that hands the token out. A line that fails its
/// checksum or range checks is skipped (that token no longer resumes); the
/// rest still load. The largest id recorded is where new ids continue.
///
/// Not thread-safe: owned by the server's event loop.
final class PlayerRegistry {
    /// Who a token belongs to.
    struct Entry: Equatable {
        var id: PlayerID
        var name: String
    }

    let path: String
    let sync: Bool
    private(set) var byToken: [String: Entry] = [:]
    /// The largest player id recorded (0 if none).
    private(set) var largestID = 0
    /// Lines skipped at load, with why (for the log).
    private(set) var skippedLines: [String] = []

    init(directory: String, sync: Bool) throws(RoomStoreError) {
        path = directory + "/players"
        self.sync = sync
        let path = path
        let bytes = try onPath(path) { () throws(Errno) in try FileSystem.readFileIfPresent(path) } ?? []
        // A line cut short by a crash mid-append is cut off: the next line
        // appended would otherwise be glued to it and lost with it.
        let complete = (bytes.lastIndex(of: 10).map { $0 + 1 }) ?? 0
        if complete < bytes.count {
            try onPath(path) { () throws(Errno) in
                let fd = try FileDescriptor.open(path, FileOpenOptions(access: .writeOnly))
                defer { try? fd.close() }
                try fd.truncate(to: Int64(complete))
                if sync { try fd.sync() }
            }
            skippedLines.append("players file ends in a torn line (\(bytes.count - complete) bytes); cut off")
        }
        var number = 0
        for line in bytes[..<complete].split(separator: 10, omittingEmptySubsequences: false).dropLast() {
            number += 1
            guard let (token, entry) = Self.decode(line) else {
                skippedLines.append("players line \(number) is damaged; its token no longer resumes")
                continue
            }
            byToken[token] = entry
            largestID = max(largestID, entry.id.rawValue)
        }
    }

    /// Records a new player's token durably.
    func register(token: String, _ entry: Entry) throws(RoomStoreError) {
        var line = Array("\(entry.id.rawValue) \(token) \(entry.name)".utf8)
        let crc = CRC32.checksum(line[...])
        line.append(contentsOf: Array(" *\(Self.hex(crc))\n".utf8))
        let path = path
        let sync = sync
        try onPath(path) { () throws(Errno) in
            let fd = try FileDescriptor.open(path, FileOpenOptions(access: .writeOnly, create: true, append: true))
            defer { try? fd.close() }
            try fd.writeAll(line)
            if sync { try fd.sync() }
        }
        byToken[token] = entry
        largestID = max(largestID, entry.id.rawValue)
    }

    private static func hex(_ crc: UInt32) -> String {
        let digits = String(crc, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    private static func decode(_ line: ArraySlice<UInt8>) -> (String, Entry)? {
        guard let star = line.lastIndex(of: UInt8(ascii: "*")), star > line.startIndex + 1,
              line[star - 1] == UInt8(ascii: " "), line.endIndex - star == 9,
              let stored = UInt32(String(decoding: line[(star + 1)...], as: UTF8.self), radix: 16),
              CRC32.checksum(line[..<(star - 1)]) == stored else { return nil }
        let words = String(decoding: line[..<(star - 1)], as: UTF8.self).split(separator: " ")
        guard words.count == 3, let id = Int(words[0]), RoomLimits.playerIDs.contains(id),
              ResumeToken.isWellFormed(words[1]), NameRule.isValid(String(words[2])) else { return nil }
        return (String(words[1]), Entry(id: PlayerID(id), name: String(words[2])))
    }
}
