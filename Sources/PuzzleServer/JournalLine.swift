import PuzzleCore
import PuzzleProtocol

/// One journal record: `@<store time> ` followed by the event's EventCodec line.
///
/// The time prefix exists because the wire line carries no absolute time, and a
/// replayed `next` must know when the new puzzle started (so that its elapsed
/// time carries on after a restart). Store time is the server clock plus the
/// room's `Journal.clockOffset`, which keeps it increasing across restarts.
struct JournalLine {
    var time: Int64
    var event: RoomEvent

    static func encode(_ event: RoomEvent, storeTime: Int64, into out: inout [UInt8]) {
        out.append(text: "@\(storeTime) ")
        EventCodec.encode(event, into: &out)
    }

    /// Decodes a complete line (without its LF); nil if it is not a durable event record.
    static func decode(_ line: Substring) -> JournalLine? {
        guard line.first == "@", let space = line.firstIndex(of: " "),
              let time = Int64(line[line.index(after: line.startIndex)..<space]),
              case .room(let event)? = EventCodec.decode(line[line.index(after: space)...], now: time),
              event.body.isDurable else { return nil }
        return JournalLine(time: time, event: event)
    }

    /// What a journal file holds.
    struct Contents {
        /// Records of the complete lines, in file order, with their 1-based line numbers.
        var records: [(line: Int, record: JournalLine)] = []
        /// 1-based numbers of complete lines that did not decode.
        var badLines: [Int] = []
        /// Bytes up to and including the last LF: everything after is a torn write.
        var completeLength = 0
    }

    static func parseFile(_ bytes: [UInt8]) -> Contents {
        var contents = Contents()
        var start = 0
        var number = 0
        for (i, byte) in bytes.enumerated() where byte == 10 {
            number += 1
            let line = String(decoding: bytes[start..<i], as: UTF8.self)
            if let record = decode(line[...]) {
                contents.records.append((number, record))
            } else {
                contents.badLines.append(number)
            }
            start = i + 1
        }
        contents.completeLength = start
        return contents
    }
}
