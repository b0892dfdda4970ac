import PuzzleCore

/// A room to open, in one syntax with one set of rules wherever it comes from:
/// the arguments of `CREATE` and a config file's `room =` line (and `--room`):
///
///     NAME KIND ROWSxCOLS [picture=NAME] [rotation=on|off] [password=SECRET] [lease=MS] [hint=MS] [hold=N] [pictures=cycle|fixed] [lid=on|off] [seats=N] [place=own|shape]
public struct RoomSpec: Hashable, Sendable, CustomStringConvertible {
    /// Longest password, in bytes.
    public static let maxPasswordLength = 64

    /// Room name (`NameRule`).
    public var name: String
    public var kind: PuzzleKind
    /// Rows and columns of the first puzzle, each in `PuzzleSpec.sizeRange`.
    public var rows: Int
    public var cols: Int
    /// A piece count given instead of `ROWSxCOLS` (`CREATE den jigsaw 100`):
    /// the server picks the rows and columns closest to it that match the
    /// picture's shape (`PuzzleSpec.size(forPieces:...)`); `rows` and `cols`
    /// hold the square choice until then.
    public var pieces: Int?
    /// A built-in picture or one the server's config declares (the server checks it exists).
    public var picture: String
    /// Whether pieces start turned and may be rotated (jigsaw only).
    public var rotation: Bool
    /// Secret a player must give to join, or nil for an open room.
    public var password: String?
    /// Overrides of the server's defaults for this room.
    public var leaseMillis: Int?
    public var hintMillis: Int?
    public var maxHeld: Int?
    /// `pictures=cycle` (the default: each next puzzle takes another of the
    /// server's pictures) or `pictures=fixed` (every puzzle keeps `picture`).
    public var cyclesPictures: Bool = true
    /// `lid=on|off`: whether players may look at the picture at will (the box
    /// lid); nil: the default for the kind (`RoomSettings.defaultLid`).
    public var lid: Bool?
    /// `seats=N`: most players at once (1...1000); nil: no cap.
    public var seats: Int?
    /// `place=own|shape`: where a jigsaw piece may go into the board
    /// (`Placement`); nil: the default, `own`.
    public var placement: Placement?

    public init(name: String, kind: PuzzleKind, rows: Int, cols: Int, picture: String = PuzzleSpec.defaultPicture,
                rotation: Bool = false, password: String? = nil, leaseMillis: Int? = nil, hintMillis: Int? = nil, maxHeld: Int? = nil,
                cyclesPictures: Bool = true, lid: Bool? = nil, seats: Int? = nil, placement: Placement? = nil) {
        self.name = name
        self.kind = kind
        self.rows = rows
        self.cols = cols
        self.picture = picture
        self.rotation = rotation
        self.password = password
        self.leaseMillis = leaseMillis
        self.hintMillis = hintMillis
        self.maxHeld = maxHeld
        self.cyclesPictures = cyclesPictures
        self.lid = lid
        self.seats = seats
        self.placement = placement
    }

    /// The spec in the syntax `parse` reads (options at their default left out),
    /// so that parsing it gives the spec back.
    public var arguments: [String] {
        var a = [name, kind.rawValue, pieces.map { "\($0)" } ?? "\(rows)x\(cols)"]
        if picture != PuzzleSpec.defaultPicture { a.append("picture=\(picture)") }
        if rotation { a.append("rotation=on") }
        if let password { a.append("password=\(password)") }
        if let leaseMillis { a.append("lease=\(leaseMillis)") }
        if let hintMillis { a.append("hint=\(hintMillis)") }
        if let maxHeld { a.append("hold=\(maxHeld)") }
        if !cyclesPictures { a.append("pictures=fixed") }
        if let lid { a.append("lid=\(lid ? "on" : "off")") }
        if let seats { a.append("seats=\(seats)") }
        if let placement { a.append("place=\(placement.rawValue)") }
        return a
    }

    public var description: String { arguments.joined(separator: " ") }

    /// Parses the words of a spec. Each refusal says which word is wrong:
    /// `BAD_NAME` (room name), `BAD_PICTURE` (picture name), `BAD_SIZE`,
    /// `BAD_NUMBER` (lease, hint, hold), `BAD_ARGS` (anything else).
    public static func parse(_ words: [Substring]) throws(ProtocolError) -> RoomSpec {
        func bad(_ why: String) -> ProtocolError { ProtocolError(.badArgs, why) }
        guard words.count >= 3 else {
            throw bad("expected NAME KIND ROWSxCOLS [picture=NAME] [rotation=on|off] [password=SECRET] [lease=MS] [hint=MS] [hold=N] [pictures=cycle|fixed] [lid=on|off] [seats=N] [place=own|shape]")
        }
        let name = String(words[0])
        guard NameRule.isValid(name) else { throw .badRoomName(name) }
        guard let kind = PuzzleKind(rawValue: words[1].lowercased()) else {
            throw bad("kind \"\(words[1].prefix(32))\" must be jigsaw or swap")
        }
        // A piece count instead of a size: the server fits it to the picture.
        if !words[2].isEmpty, words[2].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard words[2].utf8.count <= 6, let count = LineScanner.int(words[2]), PuzzleSpec.pieceCountRange.contains(count) else {
                throw ProtocolError(.badSize, "\(words[2].prefix(12)) pieces out of range: \(PuzzleSpec.pieceCountRange.lowerBound)...\(PuzzleSpec.pieceCountRange.upperBound)")
            }
            let square = PuzzleSpec.size(forPieces: count, aspectWidth: 1, aspectHeight: 1)
            var spec = try parse([words[0], words[1], Substring("\(square.rows)x\(square.cols)")] + words.dropFirst(3))
            spec.pieces = count
            return spec
        }
        let size = words[2].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, size.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
              let rows = LineScanner.int(size[0]), let cols = LineScanner.int(size[1]) else {
            throw bad("size \"\(words[2].prefix(32))\" must be ROWSxCOLS, e.g. 4x4, or a number of pieces")
        }
        let range = PuzzleSpec.sizeRange
        guard range.contains(rows), range.contains(cols) else {
            throw ProtocolError(.badSize, "size \(rows)x\(cols) out of range: rows and cols must each be \(range.lowerBound)...\(range.upperBound)")
        }
        var spec = RoomSpec(name: name, kind: kind, rows: rows, cols: cols)
        var seen: Set<Substring> = []
        for option in words.dropFirst(3) {
            guard let equals = option.firstIndex(of: "=") else { throw bad("option \"\(option.prefix(32))\" must look like key=value") }
            let key = option[..<equals].lowercased()[...]
            let value = option[option.index(after: equals)...]
            guard seen.insert(key).inserted else { throw bad("option \"\(key)\" given twice") }
            switch key {
            case "picture":
                guard NameRule.isValid(value) else { throw ProtocolError(.badPicture, "picture name \"\(value.prefix(32))\" must be \(NameRule.summary)") }
                spec.picture = String(value)
            case "rotation":
                switch value.lowercased() {
                case "on": spec.rotation = true
                case "off": spec.rotation = false
                default: throw bad("rotation must be on or off, not \"\(value.prefix(32))\"")
                }
            case "password":
                guard !value.isEmpty, value.utf8.count <= maxPasswordLength else { throw bad("password must be 1 to \(maxPasswordLength) bytes") }
                // A CR or LF could not be stored on the snapshot's password line.
                guard !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { throw bad("password must not contain control characters") }
                spec.password = String(value)
            case "lease": spec.leaseMillis = try Request.number(value, 100...3_600_000)
            case "hint": spec.hintMillis = try Request.number(value, 0...60_000)
            case "hold": spec.maxHeld = try Request.number(value, 1...100)
            case "pictures":
                switch value.lowercased() {
                case "cycle": spec.cyclesPictures = true
                case "fixed": spec.cyclesPictures = false
                default: throw bad("pictures must be cycle or fixed, not \"\(value.prefix(32))\"")
                }
            case "lid":
                switch value.lowercased() {
                case "on": spec.lid = true
                case "off": spec.lid = false
                default: throw bad("lid must be on or off, not \"\(value.prefix(32))\"")
                }
            case "seats": spec.seats = try Request.number(value, 1...1000)
            case "place":
                guard let placement = Placement(rawValue: value.lowercased()) else {
                    throw bad("place must be own or shape, not \"\(value.prefix(32))\"")
                }
                spec.placement = placement
            default:
                throw bad("unknown option \"\(key.prefix(32))\" (known: picture, rotation, password, lease, hint, hold, pictures, lid, seats, place)")
            }
        }
        if spec.rotation && spec.kind == .swap { throw bad("rotation=on is only for jigsaw rooms: a swap tile is always upright") }
        return spec
    }
}
