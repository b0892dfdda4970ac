import PuzzleCore
import PuzzleProtocol

/// Snapshots reach clients on every JOIN and SYNC and are the rooms' files on
/// disk: whatever decodes must be a room that encodes to lines that decode
/// again, to the same room. (Times left on holds and hints are clamped at zero
/// when written, so the fixed point is reached after one encoding.)
enum SnapshotCheck {
    static let now: Int64 = 1 << 36

    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        // Split on the LF byte, as clients frame lines ("\r\n" is one Character).
        let lines = input.split(separator: UInt8(ascii: "\n")).map { Substring(String(decoding: $0, as: UTF8.self)) }
        let first: RoomSnapshot
        do { first = try SnapshotCodec.decode(lines, now: now) } catch { return }
        try require(first.state.pieceCount == first.state.spec.pieceCount, .snapshot, "\(first.state.pieceCount) pieces for a \(first.state.spec.rows)x\(first.state.spec.cols) puzzle")

        let encoded = SnapshotCodec.lines(first, now: now)
        let second: RoomSnapshot
        do { second = try SnapshotCodec.decode(encoded.map { Substring($0) }, now: now) } catch {
            throw FuzzFailure(.snapshot, "a decoded room encodes to lines that do not decode (\(error)):\n\(encoded.prefix(12).joined(separator: "\n"))")
        }
        let reencoded = SnapshotCodec.lines(second, now: now)
        try require(reencoded == encoded, .snapshot, "encoding is not stable:\n\(encoded.prefix(12).joined(separator: "\n"))\nthen\n\(reencoded.prefix(12).joined(separator: "\n"))")
        let third = try? SnapshotCodec.decode(reencoded.map { Substring($0) }, now: now)
        try require(third == second, .snapshot, "decoding the same lines twice gives different rooms")
        try require(second.state.digest == first.state.digest, .snapshot, "digest changed from \(first.state.digest) to \(second.state.digest) through encoding")
        // The compact form (version 2 on the wire) reads back as the same room.
        let compact = SnapshotCodec.lines(second, now: now, compact: true)
        let fromCompact: RoomSnapshot
        do { fromCompact = try SnapshotCodec.decode(compact.map { Substring($0) }, now: now) } catch {
            throw FuzzFailure(.snapshot, "a room's compact lines do not decode (\(error)):\n\(compact.prefix(12).joined(separator: "\n"))")
        }
        try require(fromCompact.state == second.state, .snapshot, "the compact form reads back as another room")
    }
}
