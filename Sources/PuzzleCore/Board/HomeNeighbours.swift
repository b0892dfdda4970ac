/// The pieces beside one piece in the picture (above, right, below, left;
/// two to four of them), as a sequence held inline: a drop looks at every
/// member's neighbours for joins, and an array a member would cost an
/// allocation each (issue 28: a part's drop must cost the relay next to
/// nothing more than a piece's).
struct HomeNeighbours: Sequence, IteratorProtocol {
    private var pending: (Int?, Int?, Int?, Int?)
    private var index = 0

    init(above: Int?, right: Int?, below: Int?, left: Int?) {
        pending = (above, right, below, left)
    }

    mutating func next() -> Int? {
        while index < 4 {
            let value: Int?
            switch index {
            case 0: value = pending.0
            case 1: value = pending.1
            case 2: value = pending.2
            default: value = pending.3
            }
            index += 1
            if let value { return value }
        }
        return nil
    }
}
