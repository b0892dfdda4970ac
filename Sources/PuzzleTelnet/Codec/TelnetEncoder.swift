/// What the gateway writes to a telnet client: data with every 0xFF doubled, and commands.
public enum TelnetEncoder {
    /// `bytes` as telnet data: each 0xFF doubled (RFC 854), nothing else changed (the
    /// session is in BINARY mode, or sends only 7-bit bytes and UTF-8 a terminal reads anyway).
    public static func data<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        append(bytes, to: &out)
        return out
    }

    /// Appends `bytes` as telnet data to `out`.
    public static func append<Bytes: Collection<UInt8>>(_ bytes: Bytes, to out: inout [UInt8]) {
        // The frames are UTF-8, where 0xFF never occurs: the common case is one copy.
        guard bytes.contains(TelnetByte.iac) else {
            out.append(contentsOf: bytes)
            return
        }
        for b in bytes {
            out.append(b)
            if b == TelnetByte.iac { out.append(b) }
        }
    }

    /// `IAC verb option`.
    public static func negotiation(_ verb: UInt8, _ option: UInt8) -> [UInt8] {
        [TelnetByte.iac, verb, option]
    }

    /// `IAC SB option payload IAC SE`, the payload's 0xFF doubled.
    public static func subnegotiation(_ option: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [TelnetByte.iac, TelnetByte.sb, option] + data(payload) + [TelnetByte.iac, TelnetByte.se]
    }
}
