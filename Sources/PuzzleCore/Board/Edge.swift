/// One side of a jigsaw piece.
public enum Edge: UInt8, Hashable, Sendable, CaseIterable {
    case flat = 0
    case tab = 1
    case blank = 2

    /// The edge that fits against this one: tab meets blank; flat meets nothing.
    public var complement: Edge {
        switch self {
        case .flat: return .flat
        case .tab: return .blank
        case .blank: return .tab
        }
    }
}

/// The four sides of a piece, clockwise from the top.
public enum Side: Int, Hashable, Sendable, CaseIterable {
    case top = 0, right = 1, bottom = 2, left = 3

    public var opposite: Side { Side(rawValue: (rawValue + 2) & 3)! }

    /// Row and column step to the neighbour on this side.
    public var step: (dr: Int, dc: Int) {
        switch self {
        case .top: return (-1, 0)
        case .right: return (0, 1)
        case .bottom: return (1, 0)
        case .left: return (0, -1)
        }
    }
}
