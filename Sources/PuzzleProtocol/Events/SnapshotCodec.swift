import PuzzleCore

/// A room as a client (or the disk) needs it to draw and mirror everything.
public struct RoomSnapshot: Equatable, Sendable {
    public var name: String
    public var state: RoomState
    /// The room's picture, scaled to what a terminal can show (nil in a
    /// compact snapshot, which names it by `pictureHash` instead).
    public var picture: Picture?
    /// The picture's `Picture.contentHashHex`: written by the compact form in
    /// place of the pixels (computed from `picture` when nil), and read back
    /// from `S picture <w> <h> <hash>`.
    public var pictureHash: String?
    /// The picture's size, as `S picture` says it (also when only its hash came).
    public var pictureSize: (width: Int, height: Int)? {
        get { picture.map { ($0.width, $0.height) } ?? size }
        set { size = newValue }
    }
    private var size: (width: Int, height: Int)?

    public init(name: String, state: RoomState, picture: Picture?, pictureHash: String? = nil) {
        self.name = name
        self.state = state
        self.picture = picture
        self.pictureHash = pictureHash
    }

    public static func == (a: RoomSnapshot, b: RoomSnapshot) -> Bool {
        a.name == b.name && a.state == b.state && a.picture == b.picture && a.pictureHash == b.pictureHash
            && a.pictureSize?.width == b.pictureSize?.width && a.pictureSize?.height == b.pictureSize?.height
    }
}

/// Encodes a room as `S ...` state lines (sent before the OK of JOIN and SYNC,
/// and written as a room's snapshot file on disk) and decodes them back.
/// Times travel as durations relative to the sender's clock (`now`).
///
/// `extended` adds what protocol version 1 does not have (and the disk keeps):
/// `clock=running|paused` on the room line, `S total <id> <moves>` for each
/// player (moves on every puzzle of the sequence), `S color <id> <slot>` for
/// each player (its colour slot, see `PlayerInfo.colorSlot`), the room's
/// `pictures=cycle|fixed` and `lid=on|off` on the room line, `S absent ...` for the
/// players who left, with their counters, and `S former <moves> <total>` for
/// the counters of players the room has forgotten (when not zero). Without it the lines are exactly
/// version 1's.
///
/// `layout` (version 2 on the wire; never on disk, where it would only repeat
/// what the seed gives) adds what a client could otherwise only get by
/// re-running the core: `S table <width> <height> <board-x> <board-y>` and,
/// for jigsaws, `S edges <right> <bottom>` (see `layoutLines`).
///
/// `compact` (version 2 on the wire) names what a client can have without
/// being sent it again: the pieces in their home cell at rotation 0 and those
/// still where the puzzle's start layout put them as ranges (`S pieces home
/// 0-9,12`, `S pieces start ...`) or, when shorter, a bitmap (`S pieces home
/// bits <base64>`: pieces scattered mid-game), one `S piece` line only for each other
/// piece; and the picture as `S picture <w> <h> <hash>`, without pixel rows
/// (a client that lacks it asks `PICTURE`).
public enum SnapshotCodec {
    /// Longest `S pieces` line's list of ranges, in bytes (more ranges take more lines).
    static let rangeLineBytes = 1000

    /// `layoutBytes`: the `S table` and `S edges` lines as `encodeLayout`
    /// wrote them for this puzzle (a server keeps them), instead of making them again.
    public static func encode(_ s: RoomSnapshot, now: Int64, extended: Bool = true, layout: Bool = false,
                              compact: Bool = false, layoutBytes: [UInt8]? = nil, into out: inout [UInt8]) {
        let st = s.state
        let set = st.settings
        func onOff(_ b: Bool) -> String { b ? "on" : "off" }
        let first = "\(set.first.kind.rawValue),\(set.first.rows)x\(set.first.cols),\(onOff(set.first.rotation)),\(set.first.picture)"
        out.append(text: "S room \(s.name) kind=\(st.spec.kind.rawValue) size=\(st.spec.rows)x\(st.spec.cols) rotation=\(onOff(st.spec.rotation)) picture=\(st.spec.picture) puzzle=\(st.puzzleIndex) seq=\(st.seq) seed=\(set.seed) lease=\(set.leaseMillis) hint=\(set.hintMillis) hold=\(set.maxHeld) elapsed=\(st.elapsed(at: now)) solved=\(st.solveMillis.map { "\($0)" } ?? "-") first=\(first)")
        out.append(text: extended ? " clock=\(st.clockIsRunning ? "running" : "paused") pictures=\(set.cyclesPictures ? "cycle" : "fixed") lid=\(onOff(set.lid))\(set.seats.map { " seats=\($0)" } ?? "") place=\(set.placement.rawValue)\n" : "\n")
        // Sorted once: a room of a thousand players writes three lines each.
        let players = st.players.sorted(by: { $0.key < $1.key })
        func line(_ kind: StaticString, _ id: PlayerID, _ value: Int) {
            out.append(ascii: kind); out.append(decimal: id.rawValue)
            out.append(UInt8(ascii: " ")); out.append(decimal: value); out.append(UInt8(ascii: "\n"))
        }
        for (id, p) in players {
            out.append(ascii: "S player "); out.append(decimal: id.rawValue); out.append(UInt8(ascii: " "))
            out.append(decimal: p.moves); out.append(ascii: p.hintUsed ? " 1 " : " 0 ")
            if let until = p.hintUntil { out.append(decimal: Int(max(0, until.clampedSubtracting(now)))) } else { out.append(UInt8(ascii: "-")) }
            out.append(UInt8(ascii: " ")); out.append(text: p.name); out.append(UInt8(ascii: "\n"))
        }
        if extended {
            for (id, p) in players { line("S total ", id, p.totalMoves) }
            for (id, p) in players { line("S color ", id, p.colorSlot) }
            for (id, p) in st.absent.sorted(by: { $0.key < $1.key }) {
                out.append(text: "S absent \(id.rawValue) \(p.moves) \(p.totalMoves) \(p.hintUsed ? 1 : 0) \(p.name)\n")
            }
            if st.formerMoves > 0 || st.formerTotalMoves > 0 {
                out.append(text: "S former \(st.formerMoves) \(st.formerTotalMoves)\n")
            }
        }
        if layout {
            if let layoutBytes { out.append(contentsOf: layoutBytes) } else { encodeLayout(st, into: &out) }
        }
        if compact { encodeCompactPieces(st, into: &out) } else { encodePieces(st, only: nil, into: &out) }
        encodeParts(st, into: &out)
        for (piece, lock) in st.locks.sorted(by: { $0.key < $1.key }) {
            let t = lock.target.map { "\($0.row),\($0.col)" } ?? "-"
            out.append(text: "S hold \(piece) \(lock.holder.rawValue) \(lock.point.x) \(lock.point.y) \(lock.rotation) \(t) \(max(0, lock.expiresAt.clampedSubtracting(now)))\n")
        }
        if let picture = s.picture {
            if compact {
                PictureLines.encodeSize(width: picture.width, height: picture.height, hash: s.pictureHash ?? picture.contentHashHex, into: &out)
            } else {
                PictureLines.encodePixels(picture, into: &out)
            }
        }
    }

    /// Where a piece is for the compact form: home, at its start, neither,
    /// or in a part and not its lowest piece (its place follows from the
    /// lowest's: `S part`).
    private enum PieceClass { case home, start, other, joined }

    /// `S part <id> <ranges>` for each part (pieces joined on the table),
    /// in id order: its pieces as ranges of ids (`0-2,10-12`), one line a
    /// part. A line stays under `RoomLimits`' longest line: a 10,000-piece
    /// part's ranges are at most about 60 KB.
    private static func encodeParts(_ st: RoomState, into out: inout [UInt8]) {
        guard !st.parts.isEmpty else { return }
        for (id, members) in st.parts.members.sorted(by: { $0.key < $1.key }) {
            out.append(ascii: "S part "); out.append(decimal: id); out.append(UInt8(ascii: " "))
            var i = 0
            while i < members.count {
                var j = i
                while j + 1 < members.count && members[j + 1] == members[j] + 1 { j += 1 }
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(decimal: members[i])
                if j > i { out.append(UInt8(ascii: "-")); out.append(decimal: members[j]) }
                i = j + 1
            }
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// `S pieces home|start <ranges>` lines, then `S piece` lines for the rest.
    private static func encodeCompactPieces(_ st: RoomState, into out: inout [UInt8]) {
        var classes: [PieceClass] = []
        classes.reserveCapacity(st.pieces.count)
        for i in st.pieces.indices {
            if let part = st.parts.part(of: i), part != i { classes.append(.joined) }
            else if st.isCorrect(i) { classes.append(.home) }
            else if i < st.startPieces.count && st.pieces[i] == st.startPieces[i] { classes.append(.start) }
            else { classes.append(.other) }
        }
        for (kind, name) in [(PieceClass.home, "home"), (.start, "start")] {
            // A scattered set is shorter as a bitmap (5,000 random pieces of
            // 10,000 take about 19 KB of ranges, 1.7 KB of bits): the text of
            // the ranges ("0-3,5-8") against " bits " and the base64.
            func digits(_ v: Int) -> Int { v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10_000 ? 4 : 5 }
            var rangeChars = 0
            for i in classes.indices where classes[i] == kind && (i == 0 || classes[i - 1] != kind) {
                var j = i
                while j + 1 < classes.count && classes[j + 1] == kind { j += 1 }
                rangeChars += digits(i) + 1 + (j > i ? digits(j) + 1 : 0)
            }
            if rangeChars > ((classes.count + 7) / 8 + 2) / 3 * 4 + 5 {
                var bits = [UInt8](repeating: 0, count: (classes.count + 7) / 8)
                for i in classes.indices where classes[i] == kind { bits[i >> 3] |= 0x80 >> UInt8(i & 7) }
                out.append(ascii: "S pieces "); out.append(text: name); out.append(ascii: " bits ")
                out.append(text: UploadChunk.encode(bits[...])); out.append(UInt8(ascii: "\n"))
                continue
            }
            var line: [UInt8] = []
            var i = 0
            while i < classes.count {
                guard classes[i] == kind else { i += 1; continue }
                var j = i
                while j + 1 < classes.count && classes[j + 1] == kind { j += 1 }
                if line.count >= rangeLineBytes {
                    out.append(ascii: "S pieces "); out.append(text: name); out.append(UInt8(ascii: " "))
                    out.append(contentsOf: line); out.append(UInt8(ascii: "\n"))
                    line.removeAll(keepingCapacity: true)
                }
                if !line.isEmpty { line.append(UInt8(ascii: ",")) }
                line.append(decimal: i)
                if j > i { line.append(UInt8(ascii: "-")); line.append(decimal: j) }
                i = j + 1
            }
            if !line.isEmpty {
                out.append(ascii: "S pieces "); out.append(text: name); out.append(UInt8(ascii: " "))
                out.append(contentsOf: line); out.append(UInt8(ascii: "\n"))
            }
        }
        encodePieces(st, only: classes.map { $0 == .other }, into: &out)
    }

    /// The `LAYOUT` reply's lines: an `S piece` line for every piece where
    /// the current puzzle's start layout put it (what `S pieces start` names).
    public static func encodeStartLayout(_ st: RoomState, into out: inout [UInt8]) {
        encodePieces(st.startPieces, only: nil, into: &out)
    }

    private static func encodePieces(_ st: RoomState, only: [Bool]?, into out: inout [UInt8]) {
        encodePieces(st.pieces, only: only, into: &out)
    }

    /// `S piece` lines, in order; with `only`, for the pieces it marks.
    private static func encodePieces(_ pieces: [PieceState], only: [Bool]?, into out: inout [UInt8]) {
        for (i, piece) in pieces.enumerated() {
            if let only, !only[i] { continue }
            out.append(ascii: "S piece ")
            out.append(decimal: i)
            switch piece.location {
            case .board(let c):
                out.append(ascii: " cell "); out.append(decimal: c.row); out.append(UInt8(ascii: " ")); out.append(decimal: c.col)
            case .table(let p):
                out.append(ascii: " table "); out.append(decimal: p.x); out.append(UInt8(ascii: " ")); out.append(decimal: p.y)
            }
            out.append(UInt8(ascii: " "))
            out.append(decimal: piece.rotation)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// `layoutLines` as bytes, each line with its LF.
    public static func encodeLayout(_ st: RoomState, into out: inout [UInt8]) {
        for line in layoutLines(st) { out.append(text: line); out.append(UInt8(ascii: "\n")) }
    }

    /// The table's size and the board's corner, in the units of `S piece ...
    /// table x y`; and for a jigsaw every piece's right edge (pieces not in
    /// the last column, row-major) and bottom edge (pieces not in the last
    /// row), `t` for a tab and `b` for a blank, at rotation 0. The edges not
    /// listed are flat (the puzzle's outline) or the complements of these
    /// (a piece's left edge fits its left neighbour's right edge).
    public static func layoutLines(_ st: RoomState) -> [String] {
        let g = st.geometry
        var lines = ["S table \(g.width) \(g.height) \(g.boardOrigin.x) \(g.boardOrigin.y)"]
        guard st.spec.kind == .jigsaw else { return lines }
        func letter(_ e: Edge) -> Character { e == .tab ? "t" : "b" }
        var right = "", bottom = ""
        right.reserveCapacity(g.rows * g.cols)
        bottom.reserveCapacity(g.rows * g.cols)
        for r in 0..<g.rows {
            for c in 0..<g.cols {
                if c < g.cols - 1 { right.append(letter(st.cut.baseEdge(row: r, col: c, side: .right))) }
                if r < g.rows - 1 { bottom.append(letter(st.cut.baseEdge(row: r, col: c, side: .bottom))) }
            }
        }
        lines.append("S edges \(right) \(bottom)")
        return lines
    }

    public static func lines(_ s: RoomSnapshot, now: Int64, extended: Bool = true, layout: Bool = false,
                             compact: Bool = false) -> [String] {
        var out: [UInt8] = []
        encode(s, now: now, extended: extended, layout: layout, compact: compact, into: &out)
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Rebuilds a room from its state lines (each with or without the `S ` prefix).
    public static func decode(_ lines: [Substring], now: Int64) throws(SnapshotError) -> RoomSnapshot {
        var header: [Substring: Substring] = [:]
        var name = ""
        var players: [PlayerID: PlayerInfo] = [:]
        var absent: [PlayerID: PlayerInfo] = [:]
        var former = (moves: 0, total: 0)
        var totals: [PlayerID: Int] = [:]
        var colorSlots: [PlayerID: Int] = [:]
        var pieces: [PieceState] = []
        // The compact form: ranges of pieces home or at their start, and the
        // other pieces' lines by number.
        var ranges: [(home: Bool, first: Int, last: Int)] = []
        var bitmaps: [(home: Bool, bits: [UInt8])] = []
        var listed: [(id: Int, piece: PieceState)] = []
        var locks: [Int: PieceLock] = [:]
        var parts: [[Int]] = []
        // Pieces named by `S part` lines in all: bounded before allocating.
        var partPieces = 0
        var pictureSize: (Int, Int)?
        var pictureHash: String?
        var pixelRows: [String] = []
        for raw in lines {
            let utf8 = raw.utf8
            let line = utf8.first == UInt8(ascii: "S") && utf8.dropFirst().first == 0x20 ? Substring(utf8.dropFirst(2)) : raw
            // Nearly every line of a big room is a piece's: read in place
            // (a word split by Characters made a restart of 200 rooms of
            // 100x100 take seconds). Anything unusual falls through to the
            // general reader, which says what is wrong with it.
            if let piece = pieceLine(line) {
                listed.append(piece)
                continue
            }
            // Words split by bytes, not Characters: a room's player lines (four
            // a player) are most of a small room's snapshot.
            let w = line.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true).map { Substring($0) }
            guard let kind = w.first else { continue }
            func int(_ i: Int) throws(SnapshotError) -> Int {
                guard i < w.count, let v = LineScanner.int(w[i]) else { throw .malformed(String(line.prefix(80))) }
                return v
            }
            func ranged(_ i: Int, _ range: ClosedRange<Int>) throws(SnapshotError) -> Int {
                let v = try int(i)
                guard range.contains(v) else { throw .malformed(String(line.prefix(80))) }
                return v
            }
            // A remaining time (hint, lease): never negative, never past the longest duration.
            func duration(_ i: Int) throws(SnapshotError) -> Int {
                let v = try int(i)
                guard (0...Int(RoomLimits.maxDurationMillis)).contains(v) else { throw .malformed(String(line.prefix(80))) }
                return v
            }
            switch kind {
            case "room":
                guard w.count >= 2 else { throw .malformed(String(line)) }
                name = String(w[1])
                for kv in w.dropFirst(2) {
                    let parts = kv.split(separator: "=", maxSplits: 1)
                    if parts.count == 2 { header[parts[0]] = parts[1] }
                }
            case "player":
                // Names follow the name rule wherever they are written (a
                // replay lists them too, and is read back strictly).
                guard w.count == 6, NameRule.isValid(w[5]) else { throw .malformed(String(line)) }
                var info = PlayerInfo(name: w[5...].joined(separator: " "))
                info.moves = try ranged(2, RoomLimits.moves)
                info.hintUsed = w[3] == "1"
                if w[4] != "-" { info.hintUntil = try offset(now, try duration(4)) }
                players[PlayerID(try ranged(1, RoomLimits.playerIDs))] = info
            case "total":
                guard w.count == 3 else { throw .malformed(String(line)) }
                totals[PlayerID(try ranged(1, RoomLimits.playerIDs))] = try ranged(2, RoomLimits.moves)
            case "color":
                guard w.count == 3 else { throw .malformed(String(line)) }
                colorSlots[PlayerID(try ranged(1, RoomLimits.playerIDs))] = try ranged(2, RoomLimits.colorSlots)
            case "former":
                guard w.count == 3 else { throw .malformed(String(line)) }
                former = (try ranged(1, RoomLimits.moves), try ranged(2, RoomLimits.moves))
            case "absent":
                guard w.count == 6, NameRule.isValid(w[5]) else { throw .malformed(String(line)) }
                var info = PlayerInfo(name: w[5...].joined(separator: " "))
                info.moves = try ranged(2, RoomLimits.moves)
                info.totalMoves = try ranged(3, RoomLimits.moves)
                info.hintUsed = w[4] == "1"
                absent[PlayerID(try ranged(1, RoomLimits.playerIDs))] = info
            case "piece":
                guard w.count == 6 else { throw .malformed(String(line)) }
                let id = try ranged(1, 0...RoomLimits.maxPieceIndex)
                let a = try int(3), b = try int(4), r = try int(5)
                switch w[2] {
                case "cell": listed.append((id, PieceState(location: .board(Cell(row: a, col: b)), rotation: r)))
                case "table": listed.append((id, PieceState(location: .table(Point(x: a, y: b)), rotation: r)))
                default: throw .malformed(String(line))
                }
            case "pieces" where w.count == 4 && w[2] == "bits":
                guard w[1] == "home" || w[1] == "start" else { throw .malformed(String(line.prefix(80))) }
                var bytes: [UInt8] = []
                guard w[3].utf8.count <= (RoomLimits.maxPieceIndex / 8 + 4) / 3 * 4 + 4, UploadChunk.decode(w[3].utf8, into: &bytes) else {
                    throw .malformed(String(line.prefix(80)))
                }
                bitmaps.append((w[1] == "home", bytes))
            case "pieces":
                guard w.count == 3, w[1] == "home" || w[1] == "start" else { throw .malformed(String(line.prefix(80))) }
                for part in w[2].split(separator: ",", omittingEmptySubsequences: false) {
                    let ends = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                    guard let a = LineScanner.int(ends[0]), let b = ends.count == 2 ? LineScanner.int(ends[1]) : a,
                          0 <= a, a <= b, b <= RoomLimits.maxPieceIndex else { throw .malformed(String(line.prefix(80))) }
                    ranges.append((w[1] == "home", a, b))
                }
            case "part":
                guard w.count == 3, parts.count <= RoomLimits.maxPieceIndex, let id = LineScanner.int(w[1]) else { throw .malformed(String(line.prefix(80))) }
                var members: [Int] = []
                for range in w[2].split(separator: ",", omittingEmptySubsequences: false) {
                    let ends = range.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                    guard let a = LineScanner.int(ends[0]), let b = ends.count == 2 ? LineScanner.int(ends[1]) : a,
                          a <= b, a > (members.last ?? -1), b <= RoomLimits.maxPieceIndex,
                          partPieces + b - a < RoomLimits.maxPieceIndex else { throw .malformed(String(line.prefix(80))) }
                    partPieces += b - a + 1
                    members.append(contentsOf: a...b)
                }
                guard members.first == id else { throw .badPart(id) }
                parts.append(members)
            case "hold":
                guard w.count == 8 else { throw .malformed(String(line)) }
                var target: Cell?
                if w[6] != "-" {
                    let rc = w[6].split(separator: ",")
                    guard rc.count == 2, let r = LineScanner.int(rc[0]), let c = LineScanner.int(rc[1]) else { throw .malformed(String(line)) }
                    target = Cell(row: r, col: c)
                }
                locks[try int(1)] = PieceLock(holder: PlayerID(try int(2)), expiresAt: try offset(now, try duration(7)),
                                              point: Point(x: try int(3), y: try int(4)), rotation: try int(5), target: target)
            case "picture":
                guard case .size(let width, let height, let hash)? = PictureLines.decode(line) else { throw .malformed(String(line.prefix(80))) }
                pictureSize = (width, height)
                if let hash { pictureHash = hash }
            case "px":
                guard case .row(let row)? = PictureLines.decode(line) else { throw .malformed(String(line.prefix(80))) }
                pixelRows.append(row)
            default:
                // Unknown state lines are skipped so that newer servers can add some.
                continue
            }
        }
        func field(_ k: Substring) throws(SnapshotError) -> Substring {
            guard let v = header[k] else { throw .malformed("room line lacks \(k)=") }
            return v
        }
        func intField(_ k: Substring) throws(SnapshotError) -> Int {
            guard let v = LineScanner.int(try field(k)) else { throw .malformed("room line has a bad \(k)=") }
            return v
        }
        func spec(kind: Substring, size: Substring, rotation: Substring, picture: Substring) throws(SnapshotError) -> PuzzleSpec {
            let rc = size.split(separator: "x")
            // A picture name follows the name rule wherever it is written (a
            // replay's start line repeats it, and is read back strictly).
            guard NameRule.isValid(picture), let k = PuzzleKind(rawValue: String(kind)), rc.count == 2, let r = LineScanner.int(rc[0]), let c = LineScanner.int(rc[1]),
                  let s = try? PuzzleSpec(kind: k, rows: r, cols: c, rotation: rotation == "on", picture: String(picture))
            else { throw .malformed("bad puzzle spec") }
            return s
        }
        let current = try spec(kind: try field("kind"), size: try field("size"), rotation: try field("rotation"), picture: try field("picture"))
        let f = try field("first").split(separator: ",", maxSplits: 3)
        guard f.count == 4 else { throw .malformed("bad first=") }
        let first = try spec(kind: f[0], size: f[1], rotation: f[2], picture: f[3])
        guard let seed = LineScanner.uint(try field("seed")), let seq = LineScanner.uint(try field("seq")) else { throw .malformed("bad seed or seq") }
        // Every number below is checked against its range: the lines may come
        // from a damaged file or a hostile server, and an extreme value would
        // otherwise trap later, in the arithmetic of a lease, a hint or a clock.
        guard seq <= RoomLimits.maxSeq else { throw .malformed("room line has seq= out of range") }
        func ranged<T: Comparable>(_ key: Substring, _ value: T, _ range: ClosedRange<T>) throws(SnapshotError) -> T {
            guard range.contains(value) else { throw .malformed("room line has \(key)= out of range") }
            return value
        }
        // Without pictures= (version 1, older files): the default, cycle.
        func cycle() throws(SnapshotError) -> Bool {
            switch header["pictures"] {
            case nil, "cycle": return true
            case "fixed": return false
            default: throw .malformed("room line has a bad pictures=")
            }
        }
        // Without lid= (version 1, older files): the default for the kind.
        func lid() throws(SnapshotError) -> Bool? {
            switch header["lid"] {
            case nil: return nil
            case "on": return true
            case "off": return false
            default: throw .malformed("room line has a bad lid=")
            }
        }
        // Without place= (version 1, files from before parts): the rule
        // rooms played by then, any cell where the shape fits.
        guard let placement = header["place"].map({ Placement(rawValue: String($0)) }) ?? .shape else {
            throw .malformed("room line has a bad place=")
        }
        var seats: Int?
        if let v = header["seats"] { seats = try ranged("seats", LineScanner.int(v) ?? -1, 1...1000) }
        let settings = RoomSettings(first: first,
                                    leaseMillis: try ranged("lease", Int64(try intField("lease")), RoomLimits.leaseMillis),
                                    hintMillis: try ranged("hint", Int64(try intField("hint")), RoomLimits.hintMillis),
                                    maxHeld: try ranged("hold", try intField("hold"), RoomLimits.maxHeld), seed: seed,
                                    cyclesPictures: try cycle(), lid: try lid(), seats: seats, placement: placement)
        let duration = 0...RoomLimits.maxDurationMillis
        let elapsed = try ranged("elapsed", Int64(try intField("elapsed")), duration)
        let solveMillis: Int64? = try field("solved") == "-" ? nil : try ranged("solved", Int64(try intField("solved")), duration)
        // Without clock= (version 1, older files) the clock runs unless solved.
        let clockRunning: Bool
        switch header["clock"] {
        case nil, "running": clockRunning = true
        case "paused": clockRunning = false
        default: throw .malformed("room line has a bad clock=")
        }
        // A total is at least the current puzzle's moves (older files have none).
        for (id, total) in totals where players[id] != nil { players[id]?.totalMoves = total }
        for id in players.keys { players[id]!.totalMoves = max(players[id]!.totalMoves, players[id]!.moves) }
        for id in absent.keys { absent[id]!.totalMoves = max(absent[id]!.totalMoves, absent[id]!.moves) }
        // A negative index would trap when the puzzle is rebuilt from its seed.
        let puzzleIndex = try ranged("puzzle", try intField("puzzle"), 0...RoomLimits.maxPuzzleIndex)
        // A bitmap has a bit for every piece, high bit first, and no other bits set.
        for map in bitmaps {
            let n = current.pieceCount
            guard map.bits.count == (n + 7) / 8, n % 8 == 0 || map.bits[n / 8] & (0xFF >> UInt8(n % 8)) == 0 else {
                throw .malformed("S pieces \(map.home ? "home" : "start") bits: not \(n) pieces")
            }
            var i = 0
            while i < n {
                guard map.bits[i >> 3] & (0x80 >> UInt8(i & 7)) != 0 else { i += 1; continue }
                var j = i
                while j + 1 < n && map.bits[(j + 1) >> 3] & (0x80 >> UInt8((j + 1) & 7)) != 0 { j += 1 }
                ranges.append((map.home, i, j))
                i = j + 1
            }
        }
        if ranges.isEmpty && bitmaps.isEmpty && parts.isEmpty {
            // The full form: every piece, in order. Reserved exactly: grown
            // by appends, a big room kept up to twice the memory its pieces
            // need for as long as it was hosted (issue 31's memory after a restart).
            pieces.reserveCapacity(listed.count)
            for (k, entry) in listed.enumerated() {
                guard entry.id == k else { throw .malformed("piece \(entry.id) out of order") }
                pieces.append(entry.piece)
            }
        } else {
            pieces = try compactPieces(ranges: ranges, listed: listed, parts: parts, spec: current, seed: seed, index: puzzleIndex)
        }
        let state = try RoomState(settings: settings, puzzleIndex: puzzleIndex, spec: current, pieces: pieces, parts: parts,
                                  locks: locks, players: players, absent: absent, former: former, seq: seq,
                                  elapsed: elapsed, clockRunning: clockRunning, solveMillis: solveMillis, now: now,
                                  colorSlots: colorSlots)
        // The core checks who holds what; what a hold shows (its turn, point and
        // target) is checked here so that a mirror never draws an impossible piece.
        for (piece, lock) in locks {
            guard (0...3).contains(lock.rotation), state.geometry.contains(lock.point),
                  lock.target.map(state.geometry.isOnBoard) ?? true else { throw .badHold(piece) }
        }
        var picture: Picture?
        if let (w, h) = pictureSize, pictureHash == nil || !pixelRows.isEmpty {
            do { picture = try Picture(width: w, height: h, hexRows: pixelRows) } catch { throw .malformed("bad picture: \(error)") }
        }
        var snapshot = RoomSnapshot(name: name, state: state, picture: picture, pictureHash: pictureHash)
        if picture == nil, let (w, h) = pictureSize {
            guard (1...Picture.maxSide).contains(w), (1...Picture.maxSide).contains(h) else { throw .malformed("bad picture size") }
            snapshot.pictureSize = (w, h)
        }
        return snapshot
    }

    /// The pieces of a compact snapshot: each exactly once, in a range or on a line of its own.
    /// A part's pieces other than its lowest may be left out: each lies
    /// beside the lowest as in the picture, at its rotation.
    private static func compactPieces(ranges: [(home: Bool, first: Int, last: Int)], listed: [(id: Int, piece: PieceState)],
                                      parts: [[Int]], spec: PuzzleSpec, seed: UInt64, index: Int) throws(SnapshotError) -> [PieceState] {
        let n = spec.pieceCount
        var slots = [PieceState?](repeating: nil, count: n)
        // The start layout is worked out only when a range needs it.
        var start: [PieceState]?
        for r in ranges {
            guard r.last < n else { throw .pieceCount(expected: n, got: r.last + 1) }
            if !r.home && start == nil { start = RoomState.startPieces(spec: spec, seed: seed, index: index) }
            for i in r.first...r.last {
                guard slots[i] == nil else { throw .malformed("piece \(i) given twice") }
                slots[i] = r.home ? PieceState(location: .board(Cell(row: i / spec.cols, col: i % spec.cols)), rotation: 0) : start![i]
            }
        }
        for entry in listed {
            guard entry.id < n, slots[entry.id] == nil else { throw .malformed("piece \(entry.id) given twice or out of range") }
            slots[entry.id] = entry.piece
        }
        let unit = TableGeometry.unitsPerCell
        for members in parts {
            guard let first = members.first, members.allSatisfy({ $0 < n }),
                  let lowest = slots[first], case .table(let p) = lowest.location else { throw .badPart(members.first ?? -1) }
            for m in members.dropFirst() where slots[m] == nil {
                var dx = m % spec.cols - first % spec.cols, dy = m / spec.cols - first / spec.cols
                for _ in 0..<(lowest.rotation & 3) { (dx, dy) = (-dy, dx) }
                slots[m] = PieceState(location: .table(Point(x: p.x + dx * unit, y: p.y + dy * unit)), rotation: lowest.rotation)
            }
        }
        var pieces: [PieceState] = []
        pieces.reserveCapacity(n)
        for (i, p) in slots.enumerated() {
            guard let p else { throw .malformed("piece \(i) missing") }
            pieces.append(p)
        }
        return pieces
    }

    /// `base + delta`, refusing what does not fit: times come from untrusted text.
    /// A well-formed `piece <id> table|cell <a> <b> <rotation>` line read
    /// without building words; nil for any other line (or a malformed one).
    private static func pieceLine(_ line: Substring) -> (id: Int, piece: PieceState)? {
        guard line.utf8.first == UInt8(ascii: "p") else { return nil }
        var line = line
        return line.withUTF8 { bytes -> (id: Int, piece: PieceState)? in
            guard !bytes.isEmpty else { return nil }
            var scan = LineScanner(UnsafeRawBufferPointer(bytes))
            guard scan.matches(scan.word(), "piece"), let id = scan.int(), (0...RoomLimits.maxPieceIndex).contains(id) else { return nil }
            let kind = scan.word()
            let onBoard = scan.matches(kind, "cell")
            guard onBoard || scan.matches(kind, "table"), let a = scan.int(), let b = scan.int(), let r = scan.int(),
                  scan.atLineEnd() else { return nil }
            return (id, PieceState(location: onBoard ? .board(Cell(row: a, col: b)) : .table(Point(x: a, y: b)), rotation: r))
        }
    }

    private static func offset(_ base: Int64, _ delta: Int) throws(SnapshotError) -> Int64 {
        let (sum, overflow) = base.addingReportingOverflow(Int64(delta))
        guard !overflow else { throw .malformed("time out of range") }
        return sum
    }
}
