/// Splits the bytes a telnet client sends into data and commands (RFC 854). A pure state
/// machine: bytes go in through `feed`, events come out, and a command cut between reads
/// is finished by the next one.
///
/// - `IAC IAC` is one data byte 0xFF, in data and inside a subnegotiation.
/// - CR LF and CR NUL are one CR (Enter); the byte after a CR is dropped only when it is
///   LF or NUL, also when the two come in different reads.
/// - A subnegotiation (`IAC SB option ... IAC SE`) keeps at most `maxSubnegotiation`
///   bytes: a longer one is read to its end and reported as `overlongSubnegotiation`
///   without its bytes, so an endless one costs no memory. An `IAC` followed by anything
///   but `IAC` or `SE` inside it ends it as broken (dropped) and is read as a command.
public struct TelnetDecoder: Sendable {
    /// What the client sent.
    public enum Event: Hashable, Sendable {
        /// Application bytes (keys, mouse reports, pasted text), line ends folded.
        case data([UInt8])
        /// `IAC WILL|WONT|DO|DONT option`: the verb byte and the option.
        case negotiation(verb: UInt8, option: UInt8)
        /// `IAC SB option payload IAC SE`, payload unescaped.
        case subnegotiation(option: UInt8, payload: [UInt8])
        /// A subnegotiation over the size limit, read to its end and dropped.
        case overlongSubnegotiation(option: UInt8)
        /// A subnegotiation cut by another command, dropped.
        case brokenSubnegotiation(option: UInt8)
        /// Any other command (`IAC NOP`, `IAC AYT`, `IAC IP`...).
        case command(UInt8)
    }

    enum State: Sendable {
        case data
        /// Saw IAC in data.
        case command
        /// Saw IAC WILL/WONT/DO/DONT: the option comes next.
        case option(verb: UInt8)
        /// Saw IAC SB: the option comes next.
        case subnegotiationOption
        /// Inside a subnegotiation.
        case subnegotiation
        /// Saw IAC inside a subnegotiation.
        case subnegotiationCommand
    }

    /// The most payload bytes a subnegotiation keeps (NAWS needs 4, a terminal type at
    /// most 40 by RFC 1091).
    public let maxSubnegotiation: Int
    var state = State.data
    var option: UInt8 = 0
    var payload: [UInt8] = []
    var overlong = false
    var afterCarriageReturn = false

    public init(maxSubnegotiation: Int = 64) {
        self.maxSubnegotiation = maxSubnegotiation
    }

    /// Whether a subnegotiation is open (its end not seen yet): the owner bounds how long.
    public var inSubnegotiation: Bool {
        switch state {
        case .subnegotiation, .subnegotiationCommand, .subnegotiationOption: return true
        default: return false
        }
    }

    /// Bytes held for an unfinished subnegotiation (never more than `maxSubnegotiation`).
    public var heldBytes: Int { payload.count }

    /// Gives up an open subnegotiation (it took too long): what follows is data again.
    public mutating func abandonSubnegotiation() {
        guard inSubnegotiation else { return }
        state = .data
        payload = []
        overlong = false
    }

    /// Decodes `bytes`; returns what they completed, data runs merged.
    public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [Event] {
        var events: [Event] = []
        var data: [UInt8] = []
        func flushData() {
            if !data.isEmpty {
                events.append(.data(data))
                data = []
            }
        }
        for byte in bytes {
            switch state {
            case .data:
                if byte == TelnetByte.iac {
                    state = .command
                } else {
                    appendData(byte, to: &data)
                }
            case .command:
                switch byte {
                case TelnetByte.iac:
                    state = .data
                    appendData(byte, to: &data)
                case TelnetByte.will, TelnetByte.wont, TelnetByte.do, TelnetByte.dont:
                    state = .option(verb: byte)
                case TelnetByte.sb:
                    state = .subnegotiationOption
                default:
                    state = .data
                    flushData()
                    events.append(.command(byte))
                }
            case .option(let verb):
                state = .data
                flushData()
                events.append(.negotiation(verb: verb, option: byte))
            case .subnegotiationOption:
                option = byte
                payload = []
                overlong = false
                state = .subnegotiation
            case .subnegotiation:
                if byte == TelnetByte.iac {
                    state = .subnegotiationCommand
                } else {
                    keep(byte)
                }
            case .subnegotiationCommand:
                switch byte {
                case TelnetByte.iac:
                    state = .subnegotiation
                    keep(byte)
                case TelnetByte.se:
                    state = .data
                    flushData()
                    events.append(overlong ? .overlongSubnegotiation(option: option) : .subnegotiation(option: option, payload: payload))
                    payload = []
                default:
                    // A client that forgot IAC SE: the subnegotiation is dropped and
                    // this byte is read as the command it starts.
                    flushData()
                    events.append(.brokenSubnegotiation(option: option))
                    payload = []
                    state = .command
                    events += feed(CollectionOfOne(byte))
                }
            }
        }
        flushData()
        return events
    }

    private mutating func keep(_ byte: UInt8) {
        guard !overlong else { return }
        if payload.count >= maxSubnegotiation {
            overlong = true
            payload = []
        } else {
            payload.append(byte)
        }
    }

    /// A data byte, with CR LF and CR NUL folded into CR (RFC 854's two ways to send a CR).
    private mutating func appendData(_ byte: UInt8, to data: inout [UInt8]) {
        if afterCarriageReturn && (byte == 0x0A || byte == 0x00) {
            afterCarriageReturn = false
            return
        }
        afterCarriageReturn = byte == 0x0D
        data.append(byte)
    }
}
