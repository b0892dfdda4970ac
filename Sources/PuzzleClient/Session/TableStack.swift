import PuzzleCore

/// Which loose piece lies on which on the table: the piece (with its part)
/// last taken or put down on the table lies on top, the way the page stacks
/// them, so that a press in the terminal takes the piece a browser player
/// sees on top there. A room freshly read (a snapshot, the next puzzle)
/// stacks by piece number, higher above. The server keeps no stacking: it is
/// the clients' convention, derived from the events alone (PROTOCOL.md,
/// *Parts*: "Stacking").
public struct TableStack: Equatable, Sendable {
    /// Each piece's height (higher lies above); empty: by piece number.
    private var heights: [UInt32] = []
    private var top: UInt32 = 0

    public init() {}

    /// A room read afresh: by piece number.
    public mutating func reset() {
        heights = []
        top = 0
    }

    /// `piece` and every piece joined to it were taken, or put down on the
    /// table: they lie on top, in the order of their numbers.
    public mutating func raise(_ piece: Int, in st: RoomState) {
        guard piece >= 0 && piece < st.pieceCount else { return }
        if heights.count != st.pieceCount {
            heights = (0..<st.pieceCount).map { UInt32($0) }
            top = UInt32(st.pieceCount)
        }
        for m in st.parts.pieces(with: piece) {
            top += 1
            heights[m] = top
        }
    }

    /// How high a piece lies: a part as high as its highest piece.
    func heights(in st: RoomState) -> (Int) -> UInt32 {
        let fresh = heights.count != st.pieceCount
        let own: (Int) -> UInt32 = fresh ? { UInt32($0) } : { [heights] in heights[$0] }
        guard !st.parts.isEmpty else { return own }
        var partTop: [Int: UInt32] = [:]
        for (part, members) in st.parts.members { partTop[part] = members.lazy.map(own).max() }
        let parts = st.parts
        return { piece in parts.part(of: piece).flatMap { partTop[$0] } ?? own(piece) }
    }

    /// Of `pieces` (loose ones), bottom to top: by height, a part's pieces
    /// together at its height.
    func bottomToTop(_ pieces: [Int], in st: RoomState) -> [Int] {
        guard heights.count == st.pieceCount || !st.parts.isEmpty else { return pieces }
        let height = heights(in: st)
        return pieces.map { (height($0), $0) }.sorted { $0 < $1 }.map(\.1)
    }
}
