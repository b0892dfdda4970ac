import Testing
import PuzzleCore
import PuzzleProtocol

/// Every request kind written as bytes by `Request.encode(into:)` reads back
/// as itself through `Request.parse`, and `line` is the same text.
@Suite struct RequestEncodingTests {
    static let run = "0123456789abcdef"
    static let token = "0123456789abcdef0123456789abcdef"

    /// At least one request of every verb, with and without its optional parts.
    static let requests: [Request] = [
        .hello(version: 1, name: "ann"), .hello(version: 2, name: "ann", token: token),
        .ping(""), .ping("a token with spaces"),
        .rooms,
        .create(RoomSpec(name: "den", kind: .jigsaw, rows: 3, cols: 4)),
        .create(RoomSpec(name: "den", kind: .swap, rows: 5, cols: 2, picture: "waves", password: "pw", leaseMillis: 500, hintMillis: 0,
                         maxHeld: 2, cyclesPictures: false, lid: false, seats: 4)),
        .join(room: "den", password: nil), .join(room: "den", password: "pw"),
        .rejoin(room: "den", seq: 12, run: run, password: nil), .rejoin(room: "den", seq: RoomLimits.maxSeq, run: run, password: "pw"),
        .watch(room: "den", password: nil), .watch(room: "den", password: "pw"),
        .leave, .sync, .syncFrom(seq: 7, run: run),
        .grab(0), .grab(1_000_000),
        .drag(3, Point(x: -4, y: 5)), .drag(nil, Point(x: 0, y: -1)),
        .rotate(2), .rotate(nil), .drop(2), .drop(nil), .release(9), .release(nil), .keep(1), .keep(nil),
        .hint, .next, .say("hello there, ünïcode"),
        .upload(name: "trip", bytes: 1234), .data([0, 1, 2, 250, 251]), .data([7]),
        .who, .stats, .digest,
        .history(nil), .history(4),
        .replay(2), .replay(2, from: 8192),
        .picture(.png), .picture(.jpeg),
        .layout(nil), .layout(2), .pace(0), .pace(33), .events(true), .events(false), .help, .quit,
    ]

    @Test func everyKindReadsBackAsItself() {
        for request in Self.requests {
            var bytes: [UInt8] = []
            request.encode(into: &bytes)
            #expect(bytes.last == UInt8(ascii: "\n") && bytes.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") }, "\(request)")
            #expect(Request.parse(bytes.dropLast()) == .success(request), "\(request): \(String(decoding: bytes, as: UTF8.self))")
            #expect(request.line + "\n" == String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The list above misses no verb (a new request must be added to it).
    @Test func everyVerbIsCovered() {
        #expect(Set(Self.requests.map(\.verb)) == Set(Request.usage.keys))
    }

    /// The bytes as PROTOCOL.md spells them (and as the bots wrote them by hand).
    @Test func linesAreTheProtocolsOwn() {
        #expect(Request.drag(3, Point(x: -4, y: 5)).line == "DRAG 3 -4 5")
        #expect(Request.drag(nil, Point(x: 10, y: 20)).line == "DRAG 10 20")
        #expect(Request.grab(12).line == "GRAB 12")
        #expect(Request.drop(nil).line == "DROP")
        #expect(Request.hello(version: 2, name: "bot1").line == "HELLO 2 bot1")
        #expect(Request.rejoin(room: "den", seq: 3, run: Self.run, password: nil).line == "REJOIN den 3 \(Self.run)")
        #expect(Request.picture(.png).line == "PICTURE")
        #expect(Request.replay(1, from: 0).line == "REPLAY 1")
        #expect(Request.create(RoomSpec(name: "den", kind: .jigsaw, rows: 3, cols: 4)).line == "CREATE den jigsaw 3x4")
    }
}
