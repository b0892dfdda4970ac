/// A stable 64-bit digest (FNV-1a) of a room's board, so two copies of a room
/// (the server's and a client's mirror, or a replay) can be compared cheaply.
///
/// Covers the puzzle (index, kind, size, rotation rule), the sequence number, every
/// piece's committed place and rotation, every hold (piece, holder, in-hand
/// rotation), the parts (each one's id and size) and whether it is solved. Leaves out what is transient (drag points,
/// lease deadlines) and per-connection (players).
public struct StateDigest: Hashable, Sendable, CustomStringConvertible {
    public var value: UInt64

    public init(value: UInt64) { self.value = value }

    public var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    public init?(hex: String) {
        guard hex.count == 16, let v = UInt64(hex, radix: 16) else { return nil }
        value = v
    }
}

/// FNV-1a over 64-bit words.
struct FNV1a {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ v: Int) { add(UInt64(bitPattern: Int64(v))) }

    mutating func add(_ v: UInt64) {
        var x = v
        for _ in 0..<8 {
            value = (value ^ (x & 0xFF)) &* 0x0000_0100_0000_01B3
            x >>= 8
        }
    }
}

extension RoomState {
    public var digest: StateDigest {
        var h = FNV1a()
        h.add(puzzleIndex)
        h.add(spec.kind == .jigsaw ? 1 : 0)
        h.add(spec.rows)
        h.add(spec.cols)
        h.add(spec.rotation ? 1 : 0)
        h.add(seq)
        h.add(isSolved ? 1 : 0)
        for piece in pieces {
            switch piece.location {
            case .board(let c):
                h.add(1); h.add(c.row); h.add(c.col)
            case .table(let p):
                h.add(2); h.add(p.x); h.add(p.y)
            }
            h.add(piece.rotation)
        }
        // Parts only when there are some, so that a room without any keeps
        // the digest it had before parts existed.
        if !parts.isEmpty {
            for (id, members) in parts.members.sorted(by: { $0.key < $1.key }) {
                h.add(3); h.add(id); h.add(members.count)
            }
        }
        for (piece, lock) in locks.sorted(by: { $0.key < $1.key }) {
            h.add(piece); h.add(lock.holder.rawValue); h.add(lock.rotation)
        }
        return StateDigest(value: h.value)
    }
}
