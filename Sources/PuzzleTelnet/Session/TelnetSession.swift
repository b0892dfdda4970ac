import PuzzleClient

/// One telnet client's side of the protocol as a pure value: what the gateway offers on
/// connecting, what it answers to each negotiation, and what it learned (window size,
/// terminal type, whether the client is in line mode). Bytes in, replies and application
/// bytes out; the clock is passed in.
///
/// Offered at once (`opening`): `WILL ECHO` and `WILL SGA` (character mode: the client
/// sends every key as typed and does not echo), `DO SGA`, `WILL BINARY` and `DO BINARY`
/// (UTF-8 both ways), `DO NAWS` (RFC 1073) and `DO TTYPE` (RFC 1091). Every other option is
/// refused (`DONT` to a `WILL`, `WONT` to a `DO`), and a negotiation that changes nothing
/// is not answered, so two sides never loop (RFC 854's rule, as RFC 1143 spells out).
public struct TelnetSession: Sendable {
    /// A change the driver acts on.
    public enum Change: Hashable, Sendable {
        /// The window's size (a NAWS report, within `sizeLimits`).
        case resized(rows: Int, columns: Int)
        /// The terminal's type, and the colour mode it stands for.
        case terminalType(String, ColorMode)
        /// The client sends whole lines, not keys: the one line telling the player how to switch.
        case lineMode(String)
        /// `IAC IP` (a telnet client's Ctrl-C in some modes): read as Ctrl-C.
        case interrupt
    }

    /// What one `receive` gave.
    public struct Received: Sendable {
        /// Bytes for the key decoder (telnet commands taken out, CR LF and CR NUL folded).
        public var input: [UInt8] = []
        /// Bytes to send back to the client (answers to its negotiation).
        public var replies: [UInt8] = []
        /// What changed, in order.
        public var changes: [Change] = []
    }

    /// The size assumed until the client reports one (and kept if it never does).
    public static let defaultSize = (rows: 24, columns: 80)
    /// Sizes are clamped to these: 0 (RFC 1073's "unknown") keeps the last size, and a
    /// window of 10,000 columns is drawn as 500, not allocated whole.
    public static let sizeLimits = (rows: 4...250, columns: 10...500)
    /// How long a subnegotiation may stay open before it is given up and what follows is
    /// read as data again.
    public static let subnegotiationMillis: Int64 = 2000
    /// How long the gateway waits for the answers to its opening before drawing anyway.
    public static let settleMillis: Int64 = 800

    /// What the gateway sends first.
    public static let opening: [UInt8] =
        TelnetEncoder.negotiation(TelnetByte.will, TelnetOption.echo)
        + TelnetEncoder.negotiation(TelnetByte.will, TelnetOption.suppressGoAhead)
        + TelnetEncoder.negotiation(TelnetByte.do, TelnetOption.suppressGoAhead)
        + TelnetEncoder.negotiation(TelnetByte.will, TelnetOption.binary)
        + TelnetEncoder.negotiation(TelnetByte.do, TelnetOption.binary)
        + TelnetEncoder.negotiation(TelnetByte.do, TelnetOption.windowSize)
        + TelnetEncoder.negotiation(TelnetByte.do, TelnetOption.terminalType)

    /// The line told to a telnet client that stays in line mode.
    public static let telnetLineModeHint = "line mode: press Ctrl-] and type: mode character"
    /// The line told to a client that negotiates nothing and sends lines (a cooked `nc`).
    public static let rawModeHint = "line mode: press Ctrl-C, then stty raw -echo; nc HOST PORT; stty sane"

    var decoder = TelnetDecoder()
    /// Options this side has on (`us`) and the client has on (`him`), and those asked for
    /// and not answered yet.
    var us = Set<UInt8>(), him = Set<UInt8>()
    var usAsked: Set<UInt8> = [TelnetOption.echo, TelnetOption.suppressGoAhead, TelnetOption.binary]
    var himAsked: Set<UInt8> = [TelnetOption.suppressGoAhead, TelnetOption.binary, TelnetOption.windowSize, TelnetOption.terminalType]
    /// Sent `SB TTYPE SEND` and not answered yet.
    var typeAsked = false
    var subnegotiationSince: Int64?
    let startedAt: Int64
    var negotiatedAnything = false

    /// The window's size: `defaultSize` until NAWS says otherwise.
    public private(set) var size = TelnetSession.defaultSize
    /// The terminal's type, once TTYPE told it.
    public private(set) var terminalType: String?
    /// The colour mode: from the terminal type, 16 colours until then (or forever).
    public private(set) var colorMode = ColorMode.palette16
    /// Whether the player was told the client is in line mode (once).
    public private(set) var toldLineMode = false

    /// A session that sent `opening` at `now`.
    public init(now: Int64) {
        startedAt = now
    }

    /// Whether the client has answered what was asked (or the wait is over): the first
    /// frame is drawn then, at the size it reported.
    public func isSettled(now: Int64) -> Bool {
        now - startedAt >= Self.settleMillis || (himAsked.isEmpty && usAsked.isEmpty && !typeAsked && !decoder.inSubnegotiation)
    }

    /// When `tick` next has something to do (a subnegotiation's time running out, the
    /// settling wait ending), or nil.
    public func nextDeadline(now: Int64) -> Int64? {
        var next: Int64?
        if let since = subnegotiationSince { next = since + Self.subnegotiationMillis }
        if !isSettled(now: now) { next = min(next ?? .max, startedAt + Self.settleMillis) }
        return next
    }

    /// Gives up a subnegotiation open too long.
    public mutating func tick(now: Int64) {
        if let since = subnegotiationSince, now - since >= Self.subnegotiationMillis {
            decoder.abandonSubnegotiation()
            subnegotiationSince = nil
        }
    }

    /// Reads what the client sent.
    public mutating func receive<Bytes: Sequence<UInt8>>(_ bytes: Bytes, now: Int64) -> Received {
        var out = Received()
        for event in decoder.feed(bytes) {
            switch event {
            case .data(let data):
                if !negotiatedAnything && !toldLineMode && Self.looksCooked(data) {
                    toldLineMode = true
                    out.changes.append(.lineMode(Self.rawModeHint))
                }
                out.input += data
            case .negotiation(let verb, let option):
                negotiatedAnything = true
                negotiate(verb, option, into: &out)
            case .subnegotiation(let option, let payload):
                negotiatedAnything = true
                subnegotiation(option, payload, into: &out)
            case .overlongSubnegotiation, .brokenSubnegotiation:
                if typeAsked { typeAsked = false }
            case .command(let command):
                if command == TelnetByte.ip { out.changes.append(.interrupt) }
            }
        }
        if decoder.inSubnegotiation {
            if subnegotiationSince == nil { subnegotiationSince = now }
        } else {
            subnegotiationSince = nil
        }
        return out
    }

    /// A cooked terminal sends a line at a time ending in a bare LF; a raw one sends CR for
    /// Enter (and telnet's line mode CR LF, folded to CR by then).
    static func looksCooked(_ data: [UInt8]) -> Bool {
        guard let lf = data.firstIndex(of: 0x0A) else { return false }
        return lf == 0 || data[lf - 1] != 0x0D
    }

    // MARK: Negotiation

    private static let weOffer: Set<UInt8> = [TelnetOption.echo, TelnetOption.suppressGoAhead, TelnetOption.binary]
    private static let weAccept: Set<UInt8> = [TelnetOption.suppressGoAhead, TelnetOption.binary, TelnetOption.windowSize, TelnetOption.terminalType]

    private mutating func negotiate(_ verb: UInt8, _ option: UInt8, into out: inout Received) {
        switch verb {
        case TelnetByte.will:
            guard !him.contains(option) else { return }
            let asked = himAsked.remove(option) != nil
            guard Self.weAccept.contains(option) else {
                if !asked { out.replies += TelnetEncoder.negotiation(TelnetByte.dont, option) }
                return
            }
            him.insert(option)
            if !asked { out.replies += TelnetEncoder.negotiation(TelnetByte.do, option) }
            if option == TelnetOption.terminalType {
                typeAsked = true
                out.replies += TelnetEncoder.subnegotiation(TelnetOption.terminalType, [TelnetOption.ttypeSend])
            }
        case TelnetByte.wont:
            let asked = himAsked.remove(option) != nil
            guard him.remove(option) != nil || asked else { return }
            if !asked { out.replies += TelnetEncoder.negotiation(TelnetByte.dont, option) }
            if option == TelnetOption.suppressGoAhead { tellLineMode(Self.telnetLineModeHint, into: &out) }
        case TelnetByte.do:
            guard !us.contains(option) else { return }
            let asked = usAsked.remove(option) != nil
            guard Self.weOffer.contains(option) else {
                if !asked { out.replies += TelnetEncoder.negotiation(TelnetByte.wont, option) }
                return
            }
            us.insert(option)
            if !asked { out.replies += TelnetEncoder.negotiation(TelnetByte.will, option) }
        case TelnetByte.dont:
            let asked = usAsked.remove(option) != nil
            guard us.remove(option) != nil || asked else { return }
            if !asked { out.replies += TelnetEncoder.negotiation(TelnetByte.wont, option) }
            // The client echoes and edits lines itself: keys come a line at a time.
            if option == TelnetOption.echo || option == TelnetOption.suppressGoAhead { tellLineMode(Self.telnetLineModeHint, into: &out) }
        default:
            break
        }
    }

    private mutating func tellLineMode(_ hint: String, into out: inout Received) {
        guard !toldLineMode else { return }
        toldLineMode = true
        out.changes.append(.lineMode(hint))
    }

    private mutating func subnegotiation(_ option: UInt8, _ payload: [UInt8], into out: inout Received) {
        switch option {
        case TelnetOption.windowSize where him.contains(option):
            // RFC 1073: width then height, 16 bits each, big-endian; 0 is "unknown".
            guard payload.count == 4 else { return }
            let columns = Int(payload[0]) << 8 | Int(payload[1])
            let rows = Int(payload[2]) << 8 | Int(payload[3])
            let new = (rows: rows == 0 ? size.rows : Self.clamp(rows, Self.sizeLimits.rows),
                       columns: columns == 0 ? size.columns : Self.clamp(columns, Self.sizeLimits.columns))
            guard new != size else { return }
            size = new
            out.changes.append(.resized(rows: new.rows, columns: new.columns))
        case TelnetOption.terminalType where him.contains(option):
            guard payload.first == TelnetOption.ttypeIs else { return }
            typeAsked = false
            // RFC 1091: 40 characters at most, from the US-ASCII printables.
            let name = String(decoding: payload.dropFirst().prefix(40).filter { $0 > 0x20 && $0 < 0x7F }, as: UTF8.self)
            terminalType = name
            colorMode = TerminalTypeColor.mode(for: name)
            out.changes.append(.terminalType(name, colorMode))
        default:
            break
        }
    }

    private static func clamp(_ value: Int, _ range: ClosedRange<Int>) -> Int {
        min(max(value, range.lowerBound), range.upperBound)
    }
}
