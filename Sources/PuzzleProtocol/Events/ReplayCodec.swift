import PuzzleCore

/// The text of a puzzle's replay, as `REPLAY` sends it and as the server keeps
/// it on disk (each line without the leading `S ` in a snapshot file's `R`
/// lines; see PROTOCOL.md, *Replays*):
///
///     S replay-start <puzzle> <kind> <r>x<c> <on|off> <picture> seed=<u64> elapsed=<ms|-> moves=<n> players=<k> [joins=<n>] [truncated]
///     S replay-player <id> placed=<n> moves=<n> <name>            (k lines, in the order of first move)
///     S replay <elapsed-ms> <id> placed <piece> cell <row> <col> <rotation>
///     S replay <elapsed-ms> <id> placed <piece> table <x> <y> <rotation>
///     S replay <elapsed-ms> <id> swapped <piece> <other>
///     S replay <elapsed-ms> <id> merged <piece> <other>               (a join, right after its drop; not a move)
///
/// and a solved puzzle's summary, as `HISTORY` lists it:
///
///     S history <puzzle> <kind> <r>x<c> <on|off> <picture> elapsed=<ms> moves=<n> players=<k>
///     S history-player <puzzle> <id> placed=<n> moves=<n> <name>
public enum ReplayCodec {
    /// Appends the replay's lines (`prefix` before each: `S ` on the wire):
    /// its start and players (unless `header` is false: a later page), then
    /// the moves in `moves` (all by default).
    public static func encode(_ r: PuzzleReplay, prefix: String = "S ", header: Bool = true, moves range: Range<Int>? = nil,
                              into out: inout [UInt8]) {
        if header { encodeHeader(r, prefix: prefix, into: &out) }
        // Digits appended as bytes, not interpolated: a snapshot carries the
        // whole puzzle's moves so far, and this loop was most of its cost.
        let lead = Array((prefix + "replay ").utf8)
        for m in r.moves[range ?? r.moves.indices] {
            lead.withUnsafeBytes { out.append(bytes: $0) }
            out.append(decimal: Int(m.elapsed))
            out.append(UInt8(ascii: " "))
            out.append(decimal: m.player.rawValue)
            switch m.change {
            case .placed(let piece, .board(let c), let rotation):
                out.append(ascii: " placed ")
                words(piece, c.row, c.col, rotation, second: " cell ")
            case .placed(let piece, .table(let p), let rotation):
                out.append(ascii: " placed ")
                words(piece, p.x, p.y, rotation, second: " table ")
            case .swapped(let piece, let other):
                out.append(ascii: " swapped ")
                out.append(decimal: piece); out.append(UInt8(ascii: " ")); out.append(decimal: other)
            case .merged(let piece, let other):
                out.append(ascii: " merged ")
                out.append(decimal: piece); out.append(UInt8(ascii: " ")); out.append(decimal: other)
            }
            out.append(UInt8(ascii: "\n"))
        }
        func words(_ piece: Int, _ a: Int, _ b: Int, _ rotation: Int, second: StaticString) {
            out.append(decimal: piece)
            out.append(ascii: second)
            out.append(decimal: a); out.append(UInt8(ascii: " "))
            out.append(decimal: b); out.append(UInt8(ascii: " "))
            out.append(decimal: rotation)
        }
    }

    static func encodeHeader(_ r: PuzzleReplay, prefix: String, into out: inout [UInt8]) {
        out.append(text: "\(prefix)replay-start \(r.puzzle) \(specWords(r.spec)) seed=\(r.seed) elapsed=\(r.solvedMillis.map(String.init) ?? "-") moves=\(r.moveCount) players=\(r.players.count)\(r.joinCount > 0 ? " joins=\(r.joinCount)" : "")\(r.truncated ? " truncated" : "")\n")
        for p in r.players {
            out.append(text: "\(prefix)replay-player \(p.id.rawValue) placed=\(p.placed) moves=\(p.moves) \(p.name)\n")
        }
    }

    /// Appends a solved puzzle's `HISTORY` lines.
    public static func encodeHistory(_ r: PuzzleReplay, into out: inout [UInt8]) {
        out.append(text: "S history \(r.puzzle) \(specWords(r.spec)) elapsed=\(r.solvedMillis.map(String.init) ?? "-") moves=\(r.moveCount) players=\(r.players.count)\n")
        for p in r.players {
            out.append(text: "S history-player \(r.puzzle) \(p.id.rawValue) placed=\(p.placed) moves=\(p.moves) \(p.name)\n")
        }
    }

    static func specWords(_ s: PuzzleSpec) -> String {
        "\(s.kind.rawValue) \(s.rows)x\(s.cols) \(s.rotation ? "on" : "off") \(s.picture)"
    }

    /// Why replay lines could not be read.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
        public init(reason: String) { self.reason = reason }
    }

    /// Reads a replay back from its lines, one at a time (each without the
    /// `S ` or `R ` prefix, e.g. `replay-start 0 jigsaw ...`).
    public struct Reader: Sendable {
        public private(set) var replay: PuzzleReplay?
        var playersExpected = 0
        var movesExpected = 0

        public init() {}

        /// Whether the lines read so far make a whole replay (every player line there).
        public var isComplete: Bool { replay != nil && replay!.players.count == playersExpected }

        /// Takes one line. Lines that are not replay lines are refused.
        public mutating func take(_ line: Substring) throws(Problem) {
            let w = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let kind = w.first else { throw Problem(reason: "empty line") }
            func int(_ i: Int) throws(Problem) -> Int {
                guard i < w.count, w[i].count <= 12, let v = LineScanner.int(w[i]) else { throw Problem(reason: "bad number in \(kind)") }
                return v
            }
            func key(_ i: Int, _ name: String) throws(Problem) -> Substring {
                guard i < w.count, w[i].hasPrefix(name + "=") else { throw Problem(reason: "\(kind) needs \(name)=") }
                return w[i].dropFirst(name.count + 1)
            }
            func count(_ i: Int, _ name: String) throws(Problem) -> Int {
                guard let v = LineScanner.int(try key(i, name)), v >= 0 else { throw Problem(reason: "bad \(name)= in \(kind)") }
                return v
            }
            switch kind {
            case "replay-start":
                guard replay == nil, w.count >= 10 else { throw Problem(reason: "bad replay-start") }
                let puzzle = try int(1)
                let size = w[3].split(separator: "x")
                guard puzzle >= 0, let k = PuzzleKind(rawValue: String(w[2])), size.count == 2,
                      let rows = LineScanner.int(size[0]), let cols = LineScanner.int(size[1]), w[4] == "on" || w[4] == "off",
                      NameRule.isValid(String(w[5])),
                      let spec = try? PuzzleSpec(kind: k, rows: rows, cols: cols, rotation: w[4] == "on", picture: String(w[5])),
                      let seed = LineScanner.uint(try key(6, "seed")) else { throw Problem(reason: "bad replay-start") }
                let elapsed = try key(7, "elapsed")
                let solved: Int64? = elapsed == "-" ? nil : LineScanner.int(elapsed).map(Int64.init)
                guard elapsed == "-" || (solved ?? -1) >= 0 else { throw Problem(reason: "bad elapsed=") }
                movesExpected = try count(8, "moves")
                playersExpected = try count(9, "players")
                var rest = w.dropFirst(10)
                // The joins (`merged` lines) come on top of the moves.
                if let word = rest.first, word.hasPrefix("joins=") {
                    guard let joins = LineScanner.int(word.dropFirst(6)), joins >= 0, joins <= PuzzleReplay.maxMoves else {
                        throw Problem(reason: "bad joins= in replay-start")
                    }
                    movesExpected += joins
                    rest = rest.dropFirst()
                }
                replay = PuzzleReplay(puzzle: puzzle, spec: spec, seed: seed, solvedMillis: solved,
                                      truncated: rest.first == "truncated")
            case "replay-player":
                guard replay != nil, w.count == 5, replay!.players.count < playersExpected else { throw Problem(reason: "bad replay-player") }
                let id = try int(1)
                let name = String(w[4])
                guard RoomLimits.playerIDs.contains(id), NameRule.isValid(name) else { throw Problem(reason: "bad replay-player") }
                replay!.players.append(ReplayPlayer(id: PlayerID(id), name: name, placed: try count(2, "placed"), moves: try count(3, "moves")))
            case "replay":
                guard replay != nil, replay!.moves.count < PuzzleReplay.maxMoves else { throw Problem(reason: "replay line out of place") }
                replay!.moves.append(try ReplayCodec.move(words: w))
            default:
                throw Problem(reason: "not a replay line: \(kind)")
            }
        }

        /// The whole replay, once every line is read.
        public func finish() throws(Problem) -> PuzzleReplay {
            guard let replay, isComplete else { throw Problem(reason: "replay cut short") }
            guard replay.moves.count <= movesExpected else { throw Problem(reason: "more moves than moves= says") }
            return replay
        }
    }
}

extension ReplayCodec {
    /// The solved puzzles a HISTORY reply lists (its `S history` and
    /// `S history-player` lines, with or without the `S `), oldest first,
    /// without moves or seed. Unreadable lines are skipped.
    public static func decodeHistory(_ lines: [String]) -> [PuzzleReplay] {
        var out: [PuzzleReplay] = []
        for line in lines {
            let text = line.hasPrefix("S ") ? line.dropFirst(2) : line[...]
            let w = text.split(separator: " ")
            func value(_ word: Substring, _ key: String) -> Int? {
                word.hasPrefix(key + "=") ? LineScanner.int(word.dropFirst(key.count + 1)) : nil
            }
            if w.first == "history", w.count == 9, let puzzle = LineScanner.int(w[1]), let kind = PuzzleKind(rawValue: String(w[2])) {
                let size = w[3].split(separator: "x").compactMap { LineScanner.int($0) }
                guard size.count == 2, let spec = try? PuzzleSpec(kind: kind, rows: size[0], cols: size[1], rotation: w[4] == "on", picture: String(w[5])),
                      let elapsed = value(w[6], "elapsed") else { continue }
                out.append(PuzzleReplay(puzzle: puzzle, spec: spec, seed: 0, solvedMillis: Int64(elapsed)))
            } else if w.first == "history-player", w.count == 6, let puzzle = LineScanner.int(w[1]), let id = LineScanner.int(w[2]),
                      let placed = value(w[3], "placed"), let moves = value(w[4], "moves"), out.last?.puzzle == puzzle {
                out[out.count - 1].players.append(ReplayPlayer(id: PlayerID(id), name: String(w[5]), placed: placed, moves: moves))
            }
        }
        return out
    }
}

extension ReplayCodec {
    /// One move's line, in words (`replay <elapsed-ms> <id> placed ...` or `... swapped ...`).
    static func move(words w: [Substring]) throws(Problem) -> ReplayMove {
        func int(_ i: Int) throws(Problem) -> Int {
            guard i < w.count, w[i].count <= 12, let v = LineScanner.int(w[i]) else { throw Problem(reason: "bad number in replay") }
            return v
        }
        let elapsed = Int64(try int(1)), id = try int(2)
        guard elapsed >= 0, RoomLimits.playerIDs.contains(id), w.count >= 5 else { throw Problem(reason: "bad replay line") }
        let change: ReplayMove.Change
        switch w[3] {
        case "placed" where w.count == 9 && (w[5] == "cell" || w[5] == "table"):
            let piece = try int(4), a = try int(6), b = try int(7), rotation = try int(8)
            guard piece >= 0, (0...3).contains(rotation) else { throw Problem(reason: "bad replay line") }
            change = .placed(piece: piece, at: w[5] == "cell" ? .board(Cell(row: a, col: b)) : .table(Point(x: a, y: b)), rotation: rotation)
        case "swapped" where w.count == 6:
            let piece = try int(4), other = try int(5)
            guard piece >= 0, other >= 0 else { throw Problem(reason: "bad replay line") }
            change = .swapped(piece: piece, other: other)
        case "merged" where w.count == 6:
            let piece = try int(4), other = try int(5)
            guard piece >= 0, other >= 0 else { throw Problem(reason: "bad replay line") }
            change = .merged(piece: piece, other: other)
        default:
            throw Problem(reason: "bad replay line")
        }
        return ReplayMove(elapsed: elapsed, player: PlayerID(id), change: change)
    }
}

extension ReplayCodec {
    /// One page of a `REPLAY` reply, as typed values: its `S` lines, in the
    /// order the server sends them (PROTOCOL.md, *Replays*):
    ///
    ///     S replay-start ... / S replay-player ...   (the first page only)
    ///     S replay ...                                (this page's moves)
    ///     S picture <w> <h> / S px <row> (h lines)     (the first page, when the server has the picture)
    public struct Page: Equatable, Sendable {
        /// The replay's start and players, without moves: on the first page only.
        public var start: PuzzleReplay?
        /// How many moves the whole replay has (its start's `moves=`), with `start`.
        public var totalMoves: Int?
        /// This page's moves, in order.
        public var moves: [ReplayMove] = []
        /// The puzzle's picture as a terminal shows it (the puzzle's, which may
        /// not be the room's now): on the first page, when the server has it.
        public var picture: Picture?

        public init(start: PuzzleReplay? = nil, totalMoves: Int? = nil, moves: [ReplayMove] = [], picture: Picture? = nil) {
            self.start = start
            self.totalMoves = totalMoves
            self.moves = moves
            self.picture = picture
        }
    }

    /// Why a `REPLAY` page, or the pages of one replay, could not be read.
    public enum PageError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Line `line` of the page (from 0) is no line a replay page has there.
        case unexpectedLine(line: Int, kind: String)
        /// Line `line` of the page (from 0) is a replay line that does not read.
        case unreadable(line: Int, reason: String)
        /// The start names more players than its page lists.
        case startCutShort
        /// The replay's first page has no start.
        case missingStart
        /// A later page of the replay starts it again.
        case startAgain
        /// More moves than the start says (`moves=`), or than a replay keeps (`PuzzleReplay.maxMoves`).
        case tooManyMoves
        /// The picture's size or its rows do not make a picture.
        case badPicture(String)

        public var description: String {
            switch self {
            case .unexpectedLine(let line, let kind): "line \(line + 1) of a replay page is a '\(kind)' line"
            case .unreadable(let line, let reason): "line \(line + 1): \(reason)"
            case .startCutShort: "replay cut short"
            case .missingStart: "the replay's first page has no replay-start"
            case .startAgain: "a later page of the replay starts it again"
            case .tooManyMoves: "more moves than moves= says"
            case .badPicture(let reason): "bad picture: \(reason)"
            }
        }
    }

    /// The largest picture side a replay page may bring (a terminal's picture is far smaller).
    public static let maxPagePictureSide = 4096

    /// Reads one `REPLAY` page from its `S` lines (each with its `S `).
    public static func decodePage(_ lines: [String]) throws(PageError) -> Page {
        var page = Page()
        var header: Reader?
        var pictureSize: (width: Int, height: Int)?
        var rows: [String] = []
        for (i, line) in lines.enumerated() {
            guard line.utf8.count >= 2, line.utf8.first == UInt8(ascii: "S"), line.utf8.dropFirst().first == 0x20 else {
                throw .unexpectedLine(line: i, kind: String(line.prefix { $0 != " " }.prefix(20)))
            }
            let text = line.dropFirst(2)
            let kind = text.prefix { $0 != " " }
            switch kind {
            case "replay-start", "replay-player":
                // The start comes first, before any move or picture.
                guard page.moves.isEmpty, pictureSize == nil, kind == "replay-player" || header == nil else {
                    throw .unexpectedLine(line: i, kind: String(kind))
                }
                var reader = header ?? Reader()
                do { try reader.take(text) } catch { throw .unreadable(line: i, reason: error.reason) }
                header = reader
            case "replay":
                if let header, !header.isComplete { throw .startCutShort }
                guard page.moves.count < PuzzleReplay.maxMoves else { throw .tooManyMoves }
                do { page.moves.append(try move(words: text.split(separator: " "))) } catch { throw .unreadable(line: i, reason: error.reason) }
            case "picture":
                // A replay's picture comes with its pixels: no hash.
                guard pictureSize == nil, case .size(let width, let height, nil)? = PictureLines.decode(text) else {
                    throw .unexpectedLine(line: i, kind: String(kind))
                }
                guard (1...maxPagePictureSide).contains(width), (1...maxPagePictureSide).contains(height) else {
                    throw .badPicture("size \(width)x\(height)")
                }
                pictureSize = (width, height)
            case "px":
                guard let size = pictureSize, rows.count < size.height, case .row(let row)? = PictureLines.decode(text) else {
                    throw .unexpectedLine(line: i, kind: String(kind))
                }
                rows.append(row)
            default:
                throw .unexpectedLine(line: i, kind: String(kind.prefix(20)))
            }
        }
        if let header {
            guard header.isComplete else { throw .startCutShort }
            page.start = header.replay
            page.totalMoves = header.movesExpected
        }
        if let size = pictureSize {
            do { page.picture = try Picture(width: size.width, height: size.height, hexRows: rows) } catch {
                throw .badPicture("\(error)")
            }
        }
        return page
    }

    /// Appends one page of a `REPLAY` reply (its lines with their `S `), as
    /// the server sends it for `REPLAY <puzzle> <from>`: at most `pageMoves`
    /// moves (at least one) from move `from` on; on the first page (`from`
    /// 0) the replay's start and players before them and, when given, the
    /// puzzle's picture after them. Returns the moves the page holds, which
    /// `OK replay <puzzle> <count> [more=<upperBound>]` reports.
    @discardableResult
    public static func encodePage(_ r: PuzzleReplay, from: Int, pageMoves: Int, picture: Picture?,
                                  into out: inout [UInt8]) -> Range<Int> {
        let start = min(max(0, from), r.moves.count)
        let end = start + min(r.moves.count - start, max(1, pageMoves))
        // The first page is the one asked from 0 (not any page that starts
        // at move 0: a replay without moves asked from 5 has no header).
        let first = from == 0
        encode(r, header: first, moves: start..<end, into: &out)
        if first, let picture { PictureLines.encodePixels(picture, into: &out) }
        return start..<end
    }
}
