import PuzzleCore
import PuzzleProtocol

/// The journal's on-disk format.
///
/// Version 2 (written since checksums came in):
///
///     # puzzle-room journal 2 after=<seq>
///     @<store time> <event line> *<crc32 as 8 lowercase hex digits>
///
/// The header says which snapshot the journal continues (the room's sequence
/// number when it was started): `after=0` means the journal goes back to the
/// room's creation, so `snapshot.origin` plus this journal rebuild the room
/// even when every later snapshot is damaged. The CRC-32 covers the record's
/// bytes from `@` up to (not including) the space before `*`.
///
/// A clock mark, `@<store time> clock *<crc32>`, carries no event: it says
/// the room's puzzle clock may be counted as running up to that store time.
/// The server writes one ahead of time while a room's clock runs (see
/// `Journal.appendClockMark`), so that after a crash the loader never sets the
/// clock back below a play time a client was shown.
///
/// Version 1 (no header, no checksums) is still read, so that data written
/// before checksums loads; its records are accepted without one. The first
/// snapshot after loading rotates it out, and every journal written from then
/// on is version 2.
///
/// The time prefix exists because the wire line carries no absolute time, and a
/// replayed `next` must know when the new puzzle started (so that its elapsed
/// time carries on after a restart). Store time is the server clock plus the
/// room's `Journal.clockOffset`, which keeps it increasing across restarts.
struct JournalLine {
    var time: Int64
    var event: RoomEvent

    static let headerPrefix = "# puzzle-room journal "
    static let version = 2
    /// Store times are refused beyond this magnitude (2^61 ms, tens of millions
    /// of years), so that sums and differences of two of them cannot overflow.
    static let maxStoreTime: Int64 = 1 << 61
    static let storeTimes = -maxStoreTime...maxStoreTime

    static func header(after seq: UInt64) -> [UInt8] {
        Array("\(headerPrefix)\(version) after=\(seq)\n".utf8)
    }

    /// Appends one checksummed record line (with its LF).
    static func encode(_ event: RoomEvent, storeTime: Int64, into out: inout [UInt8]) {
        let start = out.count
        out.append(text: "@\(storeTime) ")
        EventCodec.encode(event, into: &out)
        out.removeLast() // EventCodec's LF: the checksum goes before it
        appendChecksum(from: start, into: &out)
    }

    /// The word of a clock mark record.
    static let clockMarkWord = "clock"

    /// Appends one checksummed clock mark line (with its LF).
    static func encodeClockMark(storeTime: Int64, into out: inout [UInt8]) {
        let start = out.count
        out.append(text: "@\(storeTime) \(clockMarkWord)")
        appendChecksum(from: start, into: &out)
    }

    private static func appendChecksum(from start: Int, into out: inout [UInt8]) {
        let crc = CRC32.checksum(out[start...])
        out.append(ascii: " *")
        for shift in stride(from: 28, through: 0, by: -4) {
            out.append(hexDigits[Int((crc >> UInt32(shift)) & 0xF)])
        }
        out.append(UInt8(ascii: "\n"))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A decoded line: an event record, or a clock mark with its store time.
    enum Record {
        case event(JournalLine)
        case clockMark(Int64)
    }

    /// Decodes a complete line (without its LF). `checksummed` says whether the
    /// file is version 2, where every record must carry a valid checksum.
    static func decode(_ line: ArraySlice<UInt8>, checksummed: Bool) -> Result<Record, Damage> {
        var body = line
        if let star = line.lastIndex(of: UInt8(ascii: "*")), star > line.startIndex, line[star - 1] == UInt8(ascii: " "),
           line.endIndex - star == 9 {
            guard let stored = UInt32(String(decoding: line[(star + 1)...], as: UTF8.self), radix: 16) else {
                return .failure(Damage(reason: "unreadable checksum"))
            }
            body = line[..<(star - 1)]
            guard CRC32.checksum(body) == stored else { return .failure(Damage(reason: "checksum mismatch")) }
        } else if checksummed {
            return .failure(Damage(reason: "no checksum"))
        }
        let text = String(decoding: body, as: UTF8.self)[...]
        guard text.first == "@", let space = text.firstIndex(of: " "),
              let time = Int64(text[text.index(after: text.startIndex)..<space]) else {
            return .failure(Damage(reason: "not a record"))
        }
        guard storeTimes.contains(time) else { return .failure(Damage(reason: "time out of range")) }
        let rest = text[text.index(after: space)...]
        if rest == clockMarkWord { return .success(.clockMark(time)) }
        // EventCodec range-checks the event's own numbers (sequence, puzzle, durations).
        guard case .room(let event)? = EventCodec.decode(rest, now: time) else {
            return .failure(Damage(reason: "bad event"))
        }
        guard event.body.isDurable else { return .failure(Damage(reason: "not a durable event")) }
        return .success(.event(JournalLine(time: time, event: event)))
    }

    /// Why a complete journal line was not used.
    struct Damage: Error, Hashable {
        var reason: String
    }

    /// What a journal file holds.
    struct Contents {
        /// 1 (no header, records need no checksum) or the header's version.
        var version = 1
        /// The header's `after=`: the sequence number of the snapshot it follows.
        var after: UInt64?
        /// Records of the complete lines, in file order, with their 1-based line numbers.
        var records: [(line: Int, record: JournalLine)] = []
        /// The latest clock mark's store time, if the file has any.
        var lastClockMark: Int64?
        /// Complete lines that could not be used, with why.
        var badLines: [(line: Int, reason: String)] = []
        /// Bytes up to and including the last LF: everything after is a torn write.
        var completeLength = 0
    }

    static func parseFile(_ bytes: [UInt8]) -> Contents {
        var contents = Contents()
        var start = 0
        var number = 0
        while let end = bytes[start...].firstIndex(of: 10) {
            number += 1
            let line = bytes[start..<end]
            start = end + 1
            if number == 1, line.starts(with: headerPrefix.utf8) {
                let words = String(decoding: line, as: UTF8.self).split(separator: " ")
                let after = words.first { $0.hasPrefix("after=") }.flatMap { UInt64($0.dropFirst(6)) }
                guard words.count >= 4, let version = Int(words[3]), version == Self.version, after != nil else {
                    // A header this server cannot read: require checksums anyway.
                    contents.version = Self.version
                    contents.badLines.append((number, "unreadable header"))
                    continue
                }
                contents.version = version
                contents.after = after
                continue
            }
            switch decode(line, checksummed: contents.version >= 2) {
            case .success(.event(let record)): contents.records.append((number, record))
            case .success(.clockMark(let time)): contents.lastClockMark = max(contents.lastClockMark ?? time, time)
            case .failure(let damage): contents.badLines.append((number, damage.reason))
            }
        }
        contents.completeLength = start
        return contents
    }
}
