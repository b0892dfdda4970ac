import PuzzleCore

extension Request {
    /// Parses one request line (terminator already removed). Empty lines are not
    /// requests: the caller skips them (`nil`).
    public static func parse(_ bytes: some Collection<UInt8>) -> Result<Request, ProtocolError>? {
        if let parsed = bytes.withContiguousStorageIfAvailable({ parse(UnsafeRawBufferPointer($0)) }) { return parsed }
        return Array(bytes).withUnsafeBytes { parse($0) }
    }

    /// Parses one request line from the bytes where it lies (the server's
    /// framer hands out its lines in place): the hot verbs build no string.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<Request, ProtocolError>? {
        // Nearly all traffic under load: no strings built for it.
        if let hot = parseHot(bytes) { return .success(hot) }
        var ascii = true
        for b in bytes {
            if b == 0 { return .failure(.nulByte) }
            if b >= 0x80 { ascii = false }
        }
        let text: String
        if ascii {
            text = String(decoding: bytes, as: UTF8.self)
        } else {
            guard let valid = String(validating: bytes, as: UTF8.self) else { return .failure(.badUTF8) }
            text = valid
        }
        return parse(text)
    }

    /// Parses one request from text.
    public static func parse(_ text: String) -> Result<Request, ProtocolError>? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = words.first else { return nil }
        let verb = first.uppercased()
        let args = words.dropFirst()
        do {
            return .success(try parse(verb: verb, args: Array(args), text: text))
        } catch {
            return .failure(error)
        }
    }

    private static func parse(verb: String, args: [Substring], text: String) throws(ProtocolError) -> Request {
        func usage() -> ProtocolError { .badArgs(Request.usage[verb] ?? verb) }
        func count(_ range: ClosedRange<Int>) throws(ProtocolError) {
            guard range.contains(args.count) else { throw usage() }
        }
        switch verb {
        case "HELLO":
            try count(2...3)
            let version = try number(args[0], 0...1_000_000)
            let name = String(args[1])
            guard NameRule.isValid(name) else { throw .badName }
            guard args.count == 3 else { return .hello(version: version, name: name) }
            // A token is version 2's: 32 lowercase hex digits.
            guard version >= 2, ResumeToken.isWellFormed(args[2]) else { throw usage() }
            return .hello(version: version, name: name, token: String(args[2]))
        case "PING":
            // The token is echoed back as it was sent, spaces included.
            let rest = text.drop { $0 == " " }.dropFirst(4).drop { $0 == " " }
            return .ping(String(rest))
        case "ROOMS": try count(0...0); return .rooms
        case "CREATE":
            guard args.count >= 3 else { throw usage() }
            return .create(try RoomSpec.parse(args))
        case "JOIN":
            try count(1...2)
            // An argument check like CREATE's, so it comes before NO_HELLO
            // and a name no room can have is not looked up.
            guard NameRule.isValid(args[0]) else { throw .badRoomName(String(args[0])) }
            return .join(room: String(args[0]), password: args.count > 1 ? String(args[1]) : nil)
        case "LEAVE": try count(0...0); return .leave
        case "WATCH":
            try count(1...2)
            guard NameRule.isValid(args[0]) else { throw .badRoomName(String(args[0])) }
            return .watch(room: String(args[0]), password: args.count > 1 ? String(args[1]) : nil)
        case "REJOIN":
            try count(3...4)
            guard NameRule.isValid(args[0]) else { throw .badRoomName(String(args[0])) }
            return .rejoin(room: String(args[0]), seq: try sequenceNumber(args[1]), run: try run(args[2], usage()),
                           password: args.count > 3 ? String(args[3]) : nil)
        case "SYNC":
            try count(0...2)
            guard !args.isEmpty else { return .sync }
            guard args.count == 2 else { throw usage() }
            return .syncFrom(seq: try sequenceNumber(args[0]), run: try run(args[1], usage()))
        case "GRAB": try count(1...1); return .grab(try piece(args[0]))
        case "DRAG":
            try count(2...3)
            let p = args.count == 3 ? try piece(args[0]) : nil
            let x = try number(args[args.count - 2], -1_000_000...1_000_000)
            let y = try number(args[args.count - 1], -1_000_000...1_000_000)
            return .drag(p, Point(x: x, y: y))
        case "ROTATE": try count(0...1); return .rotate(try args.first.map(piece))
        case "DROP": try count(0...1); return .drop(try args.first.map(piece))
        case "RELEASE": try count(0...1); return .release(try args.first.map(piece))
        case "KEEP": try count(0...1); return .keep(try args.first.map(piece))
        case "HINT": try count(0...0); return .hint
        case "NEXT": try count(0...0); return .next
        case "SAY":
            guard !args.isEmpty else { throw usage() }
            let rest = text.drop { $0 == " " }.dropFirst(3).drop { $0 == " " }
            return .say(String(rest))
        case "UPLOAD":
            try count(2...2)
            guard NameRule.isValid(args[0]) else { throw .badPictureName(String(args[0])) }
            return .upload(name: String(args[0]), bytes: try number(args[1], 1...Self.maxUploadBytes))
        case "DATA":
            try count(1...1)
            var bytes: [UInt8] = []
            guard UploadChunk.decode(args[0].utf8, into: &bytes) else {
                throw .badArgs("DATA <base64>: whole quads of standard base64, padded")
            }
            return .data(bytes)
        case "WHO": try count(0...0); return .who
        case "STATS": try count(0...0); return .stats
        case "DIGEST": try count(0...0); return .digest
        case "HISTORY": try count(0...1); return .history(try args.first.map(puzzleNumber))
        case "REPLAY":
            try count(1...2)
            return .replay(try puzzleNumber(args[0]), from: args.count > 1 ? try number(args[1], 0...1_000_000_000) : 0)
        case "PICTURE":
            try count(0...1)
            guard let format = args.isEmpty ? .png : PictureFormat(rawValue: args[0].lowercased()) else { throw usage() }
            return .picture(format)
        case "LAYOUT": try count(0...1); return .layout(try args.first.map(puzzleNumber))
        case "PACE": try count(1...1); return .pace(try number(args[0], 0...Self.maxPaceMillis))
        case "EVENTS":
            try count(1...1)
            switch args[0].lowercased() {
            case "on": return .events(true)
            case "off": return .events(false)
            default: throw usage()
            }
        case "HELP": return .help
        case "QUIT", "BYE", "EXIT":
            // The aliases have no usage entry of their own.
            guard args.isEmpty else { throw .badArgs(Request.usage["QUIT"]!) }
            return .quit
        default: throw .unknownVerb(verb)
        }
    }

    /// The longest `PACE` (a second): drags held longer would show a room that stands still.
    public static let maxPaceMillis = 1000

    /// The largest size an UPLOAD may announce at all (1 GiB); the server's
    /// `upload_max_bytes` is the real limit.
    public static let maxUploadBytes = 1 << 30

    /// A puzzle's number in its room's sequence.
    static func puzzleNumber(_ s: Substring) throws(ProtocolError) -> Int {
        try number(s, 0...1_000_000_000)
    }

    static func piece(_ s: Substring) throws(ProtocolError) -> Int {
        try number(s, 0...1_000_000)
    }

    /// A sequence number: decimal digits, at most `RoomLimits.maxSeq`.
    static func sequenceNumber(_ s: Substring) throws(ProtocolError) -> UInt64 {
        guard s.utf8.count <= 19, let v = LineScanner.uint(s), v <= RoomLimits.maxSeq else {
            throw .badNumber(String(s.prefix(24)))
        }
        return v
    }

    /// A room's run, as JOIN and SYNC replies give it: 16 lowercase hex digits.
    static func run(_ s: Substring, _ usage: ProtocolError) throws(ProtocolError) -> String {
        guard s.utf8.count == 16, s.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { throw usage }
        return String(s)
    }

    static func number(_ s: Substring, _ range: ClosedRange<Int>) throws(ProtocolError) -> Int {
        // Decimal only, as every decoder reads numbers: an optional '-' and digits (no '+').
        guard s.count <= 12, let n = LineScanner.int(s), range.contains(n) else { throw .badNumber(String(s)) }
        return n
    }

}
