import PuzzleCore

/// Which loose piece lies on which on the table: the piece (with its part)
/// last taken or put down on the table lies on top, the way the page stacks
/// them, so that a press in the terminal takes the piece a browser player
/// sees on top there. A room freshly read (a snapshot, the next puzzle)
/// stacks by piece number, higher above. The server keeps no stacking: it is
/// the clients' convention, derived from the events alone (PROTOCOL.md,
/// *Parts*: "Stacking").
public struct TableStack: Equatable, Sendable {
    /// Every piece, bottom to top; empty: by piece number. Kept in order
    /// rather than as heights so that drawing walks it once, with no sort
    /// (10,000 pieces on a 100x100, redrawn after every drop).
    private var order: [Int32] = []

    public init() {}

    /// A room read afresh: by piece number.
    public mutating func reset() { order = [] }

    /// `piece` and every piece joined to it were taken, or put down on the
    /// table: they go on top, in the order of their numbers. O(pieces).
    public mutating func raise(_ piece: Int, in st: RoomState) {
        let n = st.pieceCount
        guard piece >= 0 && piece < n else { return }
        if order.count != n { order = (0..<Int32(n)).map { $0 } }
        let members = st.parts.pieces(with: piece)
        // A piece on its own (every grab and drop of a room without parts): moved to the
        // top in place, with no flags made for every piece.
        if members.count == 1, let i = order.lastIndex(of: Int32(piece)) {
            order.remove(at: i)
            order.append(Int32(piece))
            return
        }
        var rising = [Bool](repeating: false, count: n)
        for m in members { rising[m] = true }
        order.removeAll { rising[Int($0)] }
        order += members.sorted().map { Int32($0) }
    }

    /// Every piece, bottom to top.
    private func sequence(_ n: Int) -> [Int] { order.count == n ? order.map(Int.init) : Array(0..<n) }

    /// How high a piece lies (a part: as high as its highest piece), for
    /// picking the top one under a point. O(pieces).
    func heights(in st: RoomState) -> (Int) -> Int {
        let n = st.pieceCount
        var height = [Int](repeating: 0, count: n)
        for (i, p) in sequence(n).enumerated() { height[p] = i }
        guard !st.parts.isEmpty else { return { [height] in height[$0] } }
        for (_, members) in st.parts.members {
            let top = members.lazy.map { height[$0] }.max() ?? 0
            for m in members { height[m] = top }
        }
        return { [height] in height[$0] }
    }

    /// Of `pieces` (loose ones), bottom to top, a part once (named by its
    /// lowest piece, as `PartTable` names it) where its highest piece lies.
    func bottomToTop(_ pieces: [Int], in st: RoomState) -> [Int] {
        let n = st.pieceCount
        guard order.count == n || !st.parts.isEmpty else { return pieces }
        var wanted = [Bool](repeating: false, count: n)
        for p in pieces where p >= 0 && p < n { wanted[p] = true }
        var topDown: [Int] = []
        var seen = Set<Int>()
        for p in sequence(n).reversed() where wanted[p] {
            if let part = st.parts.part(of: p) {
                if seen.insert(part).inserted { topDown.append(part) }
            } else {
                topDown.append(p)
            }
        }
        return topDown.reversed()
    }
}
