import PuzzleCore

extension Request {
    /// Appends the request as one wire line, with its LF: the one writer of
    /// requests, for the play client, the bench's bots and the tests (what
    /// `parse` reads back as this request). Inlinable, so that a bot's
    /// `DRAG` costs no more than the bytes it once wrote by hand.
    @inlinable
    public func encode<Sink: ByteSink>(into out: inout Sink) {
        func sp() { out.append(UInt8(ascii: " ")) }
        func num(_ v: Int) { sp(); out.append(decimal: v) }
        func word(_ s: String) { sp(); out.append(text: s) }
        /// A piece the request may leave out (the one held).
        func piece(_ verb: StaticString, _ p: Int?) {
            out.append(ascii: verb)
            if let p { num(p) }
        }
        switch self {
        case .hello(let version, let name, let token):
            out.append(ascii: "HELLO"); num(version); word(name)
            if let token { word(token) }
        case .ping(let token):
            out.append(ascii: "PING")
            if !token.isEmpty { word(token) }
        case .create(let spec):
            out.append(ascii: "CREATE")
            for argument in spec.arguments { word(argument) }
        case .join(let room, let password):
            out.append(ascii: "JOIN"); word(room)
            if let password { word(password) }
        case .rejoin(let room, let seq, let run, let password):
            out.append(ascii: "REJOIN"); word(room); sp(); out.append(decimal: seq); word(run)
            if let password { word(password) }
        case .watch(let room, let password):
            out.append(ascii: "WATCH"); word(room)
            if let password { word(password) }
        case .syncFrom(let seq, let run):
            out.append(ascii: "SYNC "); out.append(decimal: seq); word(run)
        case .grab(let p): out.append(ascii: "GRAB"); num(p)
        case .drag(let p, let point): piece("DRAG", p); num(point.x); num(point.y)
        case .rotate(let p): piece("ROTATE", p)
        case .drop(let p): piece("DROP", p)
        case .release(let p): piece("RELEASE", p)
        case .keep(let p): piece("KEEP", p)
        case .say(let text): out.append(ascii: "SAY"); word(text)
        case .upload(let name, let bytes): out.append(ascii: "UPLOAD"); word(name); num(bytes)
        case .data(let bytes): out.append(ascii: "DATA"); word(UploadChunk.encode(bytes[...]))
        case .picture(let format):
            out.append(ascii: "PICTURE")
            if format != .png { word(format.rawValue) }
        case .pace(let millis): out.append(ascii: "PACE"); num(millis)
        case .events(let on): out.append(ascii: on ? "EVENTS on" : "EVENTS off")
        case .history(let p): piece("HISTORY", p)
        case .layout(let p): piece("LAYOUT", p)
        case .replay(let p, let from):
            out.append(ascii: "REPLAY"); num(p)
            if from != 0 { num(from) }
        case .rooms, .leave, .sync, .hint, .next, .who, .stats, .digest, .help, .quit:
            out.append(text: verb)
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// The request as one wire line, without the terminator (for logs, and
    /// for tests that type lines).
    public var line: String {
        String(encodedLine: { encode(into: &$0) })
    }
}
