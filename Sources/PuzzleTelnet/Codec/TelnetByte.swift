/// The bytes of the telnet protocol (RFC 854) this gateway reads and writes.
public enum TelnetByte {
    /// Interpret As Command: starts every command; doubled, it is a data byte 0xFF.
    public static let iac: UInt8 = 255
    public static let dont: UInt8 = 254
    public static let `do`: UInt8 = 253
    public static let wont: UInt8 = 252
    public static let will: UInt8 = 251
    /// Subnegotiation begin and end.
    public static let sb: UInt8 = 250
    public static let se: UInt8 = 240
    /// No operation (keep-alives use it).
    public static let nop: UInt8 = 241
    /// Interrupt Process: what a telnet client sends for Ctrl-C in some modes.
    public static let ip: UInt8 = 244
    /// Are You There.
    public static let ayt: UInt8 = 246
}

/// The options the gateway negotiates; every other one is refused.
public enum TelnetOption {
    /// RFC 856: 8-bit data both ways (UTF-8).
    public static let binary: UInt8 = 0
    /// RFC 857: the server echoes, the client does not (character mode).
    public static let echo: UInt8 = 1
    /// RFC 858: no go-ahead (character mode).
    public static let suppressGoAhead: UInt8 = 3
    /// RFC 1091: the terminal's type.
    public static let terminalType: UInt8 = 24
    /// RFC 1073: the window's size.
    public static let windowSize: UInt8 = 31
    /// RFC 1184: line mode (refused: the game wants every key).
    public static let lineMode: UInt8 = 34

    /// TTYPE subnegotiation codes.
    public static let ttypeIs: UInt8 = 0
    public static let ttypeSend: UInt8 = 1
}
