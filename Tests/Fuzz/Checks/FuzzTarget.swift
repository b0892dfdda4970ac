/// One fuzzed entry point and the property it must keep for every input.
///
/// `check` throws `FuzzFailure` when the property is broken; a trap inside the
/// code under test is a failure too (libFuzzer reports it as a crash). The
/// fuzzer executable runs one target per process, chosen by name.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Request lines: the byte parser (with its hot path) and the text parser agree.
    case request
    /// The line framer: whole stream and random splits give the same frames.
    case framer
    /// Event lines: decode(encode(decode(line))) is stable.
    case event
    /// Snapshot state lines: what decodes re-encodes and decodes to the same room.
    case snapshot
    /// PPM pictures: what decodes round-trips through both P6 and P3.
    case ppm
    /// Config files: never trap, typed errors with real line numbers, valid results.
    case config
    /// Room specs (`room =` values, `--room`): valid results that re-parse to themselves.
    case roomSpec = "room-spec"
    /// Room store loading from damaged files: loads or skips the room, and what
    /// loads is a consistent room that stores and loads back the same.
    case store
    /// Browser connections: HTTP requests and WebSocket frames into a
    /// `WebSession` and the request parser; any split of reads gives the same.
    case web
    /// PNG files: a typed error or a consistent image within the limits.
    case png
    /// JPEG files: a typed error or a consistent image within the limits.
    case jpeg
    /// What telnet clients send: any split of reads gives the same, memory and
    /// replies stay bounded, window sizes stay within limits.
    case telnet

    public func check(_ input: [UInt8]) throws(FuzzFailure) {
        switch self {
        case .request: try RequestCheck.run(input)
        case .framer: try FramerCheck.run(input)
        case .event: try EventCheck.run(input)
        case .snapshot: try SnapshotCheck.run(input)
        case .ppm: try PPMCheck.run(input)
        case .config: try ConfigCheck.run(input)
        case .roomSpec: try RoomSpecCheck.run(input)
        case .store: try StoreCheck.run(input)
        case .web: try WebCheck.run(input)
        case .png: try ImageCheck.run(input, as: .png, target: self)
        case .jpeg: try ImageCheck.run(input, as: .jpeg, target: self)
        case .telnet: try TelnetCheck.run(input)
        }
    }

    /// Removes files the target wrote while checking inputs (the store target's room files).
    public func removeScratchFiles() {
        if self == .store { StoreCheck.removeDataDirectory() }
    }
}

/// A property a fuzz target checks did not hold for an input.
public struct FuzzFailure: Error, CustomStringConvertible {
    public var target: String
    public var description: String

    public init(_ target: FuzzTarget, _ what: String) {
        self.target = target.rawValue
        description = "\(target.rawValue): \(what)"
    }
}

/// Throws when `condition` is false; the message is built only then.
@inline(__always)
func require(_ condition: Bool, _ target: FuzzTarget, _ message: @autoclosure () -> String) throws(FuzzFailure) {
    if !condition { throw FuzzFailure(target, message()) }
}

extension Collection<UInt8> {
    /// The bytes shown for a failure message: printable ASCII as is, the rest escaped.
    var escaped: String {
        var s = ""
        for b in prefix(300) {
            if b >= 0x20 && b < 0x7f && b != UInt8(ascii: "\\") { s.unicodeScalars.append(Unicode.Scalar(b)) }
            else { s += "\\x" + String(b, radix: 16).leftPadded(to: 2) }
        }
        return count > 300 ? s + "..." : s
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
