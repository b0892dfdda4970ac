import Foundation
import Testing
@testable import PuzzleClient
import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleServer
import PuzzleSystem
import PuzzleTelnet
import PuzzleTestSupport

/// The telnet port end to end: a raw socket client (`TelnetTestClient`) against a real
/// server's gateway, a TCP player (`LineClient`) in the same room seeing what the telnet
/// player does. What the telnet player sees is read through a terminal model. Waits are
/// long (30 s): the sessions' threads run at a lower priority, and other suites may keep
/// the cores busy meanwhile.
@Suite(.serialized) struct TelnetGatewayTests {
    /// A server with its telnet port on (ephemeral) and a TCP player in its lobby.
    private func serverWithWatcher(configure: @escaping (inout ServerConfig) -> Void = { _ in }) throws -> (TestServer, LineClient, Int) {
        let server = try TestServer { c in
            c.telnetPort = .port(0)
            configure(&c)
        }
        let telnetPort = try #require(server.server.telnetPort)
        let watcher = try LineClient(port: server.port, name: "watcher")
        try watcher.enter(as: "watcher")
        return (server, watcher, telnetPort)
    }

    /// Logs in as `name` and waits for the table (the room's name on the status line) and
    /// for the TCP player to see the join; returns the telnet player's id.
    @discardableResult
    private func join(_ client: TelnetTestClient, as name: String, watcher: LineClient) throws -> Int {
        try client.waitForScreen("your name:")
        try client.type(name + "\r")
        let joined = try watcher.waitForEvent(timeout: 30) { $0.contains(" joined ") && $0.contains(" \(name)") }
        // The room's name is on the status line before the join is done: this line is after.
        try client.waitForScreen("joined lobby as \(name)")
        return Int(joined.split(separator: " ")[3])!
    }

    @Test func negotiatesCharacterModeAndPlaysWithKeys() throws {
        let (server, watcher, port) = try serverWithWatcher()
        defer { server.stop() }
        let client = try TelnetTestClient(port: port, width: 100, height: 30)
        try client.waitForScreen("your name:")
        // The gateway offered character mode, binary, NAWS and TTYPE, and asked for the type.
        let iac = TelnetByte.iac
        for offer in [[iac, TelnetByte.will, TelnetOption.echo], [iac, TelnetByte.will, TelnetOption.suppressGoAhead],
                      [iac, TelnetByte.do, TelnetOption.windowSize], [iac, TelnetByte.do, TelnetOption.terminalType],
                      [iac, TelnetByte.will, TelnetOption.binary], [iac, TelnetByte.do, TelnetOption.binary]] {
            #expect(client.raw.firstRange(of: offer) != nil, "not offered: \(offer)")
        }
        #expect(client.commands.contains(.subnegotiation(option: TelnetOption.terminalType, payload: [TelnetOption.ttypeSend])))
        // The answers were taken as answers: nothing was negotiated back (no loop).
        let negotiations = client.commands.filter { if case .negotiation = $0 { true } else { false } }
        #expect(negotiations.count == 7, "\(negotiations)")
        // The prompt is drawn at the reported size.
        #expect(client.screen.rows.count == 30 && client.screen.width == 100)
        let id = try join(client, as: "tel", watcher: watcher)
        // Tab grabs a free piece, Enter drops it; the TCP player sees both.
        try client.type("\t")
        let grab = try watcher.waitForEvent(timeout: 30) { $0.contains(" grabbed ") && $0.hasSuffix(" \(id)") }
        let piece = grab.split(separator: " ")[3]
        // In hand once the telnet player's own screen says so (the grab's reply came back).
        try client.waitForScreen("has piece \(piece)")
        try client.type("\u{1B}[C\u{1B}[C")  // arrows move it
        try client.type("\r")
        try watcher.waitForEvent(timeout: 30) { $0.contains(" placed \(piece) \(id) ") }
        // Chat goes to the room, Enter as CR NUL too.
        try client.send(Array("hello room\r\0".utf8))
        let say = try watcher.waitForEvent(timeout: 30) { $0.contains(" say \(id) ") }
        #expect(say.hasSuffix(" hello room"))
        // And the TCP player's chat shows on the telnet screen.
        try watcher.send("SAY hi telnet")
        try client.waitForScreen("hi telnet")
        try client.type("/quit\r")
        try client.waitForClose()
        try watcher.waitForEvent(timeout: 30) { $0.contains(" left \(id)") }
    }

    /// A room making more than a screen can tell (1,400 events at once) is
    /// followed by snapshots, saying so; chat still comes; once it calms down
    /// every move shows again and the telnet player plays on.
    @Test func aFloodedRoomIsFollowedBySnapshotsAndChatStillComes() throws {
        let (server, watcher, port) = try serverWithWatcher()
        defer { server.stop() }
        let client = try TelnetTestClient(port: port, width: 120, height: 40)
        let id = try join(client, as: "tel", watcher: watcher)
        let bot = try LineClient(port: server.port, name: "bot")
        try bot.enter(as: "bot")
        let rounds = 700
        try bot.sendRaw(Array(String(repeating: "GRAB 5\nRELEASE 5\n", count: rounds).utf8))
        for _ in 0..<(2 * rounds) { _ = try bot.awaitReply(timeout: 30) }
        try client.waitForScreen("over 1000 moves a second", timeout: 30)
        try watcher.send("SAY still here")
        try client.waitForScreen("still here", timeout: 30)
        try client.waitForScreen("the room has calmed down", timeout: 30)
        try client.type("\t")
        try watcher.waitForEvent(timeout: 30) { $0.contains(" grabbed ") && $0.hasSuffix(" \(id)") }
    }

    @Test func mouseDragAndDropOverTelnetAreSeenByATCPPlayer() throws {
        let (server, watcher, port) = try serverWithWatcher()
        defer { server.stop() }
        let client = try TelnetTestClient(port: port, width: 80, height: 24)
        let id = try join(client, as: "mouse", watcher: watcher)
        // Mouse reports were asked for (SGR 1006).
        try client.waitFor("mouse reporting") { String(decoding: $0.allData, as: UTF8.self).contains("\u{1B}[?1006h") }
        let snapshot = try SnapshotCodec.decode(try watcher.request("SYNC").state.map { Substring($0) }, now: 0)
        let st = snapshot.state
        let fitted = SceneLayout(width: 80, height: 24).fit(table: st.geometry)
        let layout = SceneLayout(width: 80, height: 24, zoom: fitted.zoom)
        var touch: (row: Int, column: Int, piece: Int)?
        for p in 0..<st.pieceCount where touch == nil {
            let corner = st.position(of: p)
            let column = fitted.zoom.pixel(corner.x + 2 - fitted.view.x), row = 1 + fitted.zoom.pixel(corner.y + 2 - fitted.view.y) / 2
            if let point = layout.tablePoint(row: row, column: column, view: fitted.view), st.topPiece(at: point) == p { touch = (row, column, p) }
        }
        let t = try #require(touch)
        func sgr(_ code: Int, _ row: Int, _ column: Int, _ final: String) -> String { "\u{1B}[<\(code);\(column + 1);\(row + 1)\(final)" }
        try client.type(sgr(0, t.row, t.column, "M"))
        try watcher.waitForEvent(timeout: 30) { $0.contains(" grabbed \(t.piece) \(id)") }
        try client.type(sgr(32, t.row + 2, t.column + 3, "M"))
        try watcher.waitForEvent(timeout: 30) { $0.contains(" dragged \(t.piece) \(id) ") }
        try client.type(sgr(0, t.row + 2, t.column + 3, "m"))
        try watcher.waitForEvent(timeout: 30) { $0.contains(" placed \(t.piece) \(id) ") }
    }

    @Test func aResizeRedrawsTheWholeScreenAtTheNewSize() throws {
        let (server, watcher, port) = try serverWithWatcher()
        defer { server.stop() }
        let client = try TelnetTestClient(port: port, width: 80, height: 24)
        try join(client, as: "grow", watcher: watcher)
        try client.resize(width: 120, height: 40)
        // A fresh 120x40 screen, drawn whole: the status line reaches past column 80 and
        // the bottom rows are used.
        try client.waitFor("the screen redrawn at 120x40") { c in
            let rows = c.screen.rows
            return rows.contains { $0.count > 80 && !$0.dropFirst(80).allSatisfy { $0 == " " } } && rows.contains { $0.contains("lobby") }
                && rows[30...].contains { !$0.allSatisfy { $0 == " " } }
        }
        #expect(String(decoding: client.data, as: UTF8.self).contains("\u{1B}[2J"), "the resize did not clear and redraw")
    }

    @Test func theTerminalTypeChoosesTheColourDepth() throws {
        let (server, watcher, port) = try serverWithWatcher()
        defer { server.stop() }
        for (index, (type, mode)) in [("xterm-direct", ColorMode.trueColor), ("XTERM-256COLOR", .palette256),
                                      ("ANSI", .palette16), ("dumb", .plain)].enumerated() {
            let client = try TelnetTestClient(port: port, terminalType: type)
            try join(client, as: "c\(index)", watcher: watcher)
            // The players' window needs the room's state: the table was drawn by then.
            try client.type("/who\r")
            try client.waitForScreen("watcher")
            let sgr = Self.sgrParameters(client.allData)
            let truecolor = sgr.contains { $0.contains("38;2;") || $0.contains("48;2;") }
            let palette256 = sgr.contains { $0.contains("38;5;") || $0.contains("48;5;") }
            let sixteen = sgr.contains { p in p.split(separator: ";").contains { n in Int(n).map { (30...37).contains($0) || (40...47).contains($0) || (90...97).contains($0) || (100...107).contains($0) } ?? false } }
            switch mode {
            case .trueColor: #expect(truecolor && !palette256, "\(type)")
            case .palette256: #expect(palette256 && !truecolor, "\(type)")
            case .palette16: #expect(sixteen && !palette256 && !truecolor, "\(type)")
            case .plain: #expect(!sixteen && !palette256 && !truecolor, "\(type): \(sgr.prefix(10))")
            }
            try client.type("/quit\r")
            try client.waitForClose()
        }
    }

    /// The parameters of every SGR sequence (`ESC [ ... m`) in `bytes`.
    static func sgrParameters(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        var out: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "\u{1B}[") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(where: { !($0.isNumber || $0 == ";") }) else { break }
            if rest[end] == "m" { out.append(String(rest[..<end])) }
            rest = rest[end...]
        }
        return out
    }

    @Test func aClientThatNegotiatesNothingGetsEightyByTwentyFourAndPlays() throws {
        let (server, watcher, port) = try serverWithWatcher()
        defer { server.stop() }
        let client = try TelnetTestClient(port: port, negotiates: false)
        try client.waitForScreen("your name:")
        let id = try join(client, as: "bare", watcher: watcher)
        // The status line at the top of an 80-column screen; nothing drawn past row 24.
        #expect(!client.screen.rows.isEmpty)
        try client.type("\t")
        try watcher.waitForEvent(timeout: 30) { $0.contains(" grabbed ") && $0.hasSuffix(" \(id)") }
        let text = String(decoding: client.data, as: UTF8.self)
        #expect(!text.contains(";81H") && !text.contains("[25;"), "drawn outside 80x24")
    }

    @Test func aCookedTerminalIsToldInOneLineHowToSwitch() throws {
        let (server, _, port) = try serverWithWatcher()
        defer { server.stop() }
        let client = try TelnetTestClient(port: port, negotiates: false)
        try client.waitForScreen("your name:")
        try client.type("cooked\n")
        try client.waitForScreen("line mode: press Ctrl-C, then stty raw -echo; nc 127.0.0.1 \(port); stty sane")
    }

    @Test func aTelnetThatRefusesCharacterModeIsToldHowToSwitch() throws {
        let (server, _, port) = try serverWithWatcher()
        defer { server.stop() }
        let client = try TelnetTestClient(port: port, negotiates: false)
        try client.send([TelnetByte.iac, TelnetByte.dont, TelnetOption.echo, TelnetByte.iac, TelnetByte.wont, TelnetOption.suppressGoAhead])
        try client.waitForScreen("line mode: press Ctrl-] and type: mode character")
    }

    @Test func badInputIsAnsweredWithoutACrash() throws {
        let (server, watcher, port) = try serverWithWatcher()
        defer { server.stop() }
        let iac = TelnetByte.iac
        // A subnegotiation cut off by the client closing.
        do {
            let c = try TelnetTestClient(port: port, negotiates: false)
            try c.send([iac, TelnetByte.sb, TelnetOption.windowSize, 0, 80])
        }
        // An endless subnegotiation, then a flood of 0xFF, then a sea of negotiations.
        let flood = try TelnetTestClient(port: port, negotiates: false)
        try flood.send([iac, TelnetByte.sb, TelnetOption.terminalType] + [UInt8](repeating: 0x41, count: 200_000))
        try flood.send([UInt8](repeating: iac, count: 200_001))
        try flood.send(Array((0..<20_000).flatMap { [iac, TelnetByte.will, UInt8($0 % 256)] }))
        // A size of 0 and one of 10,000 columns.
        try flood.send([iac, TelnetByte.will, TelnetOption.windowSize] + TelnetTestClient.naws(0, 0) + TelnetTestClient.naws(10_000, 10_000))
        // The server and the gateway still serve everyone.
        let other = try TelnetTestClient(port: port)
        try join(other, as: "after", watcher: watcher)
        #expect(try watcher.request("PING 1").reply.hasPrefix("PONG"))
        try flood.type("\r")
        try flood.waitFor("the flooding session still answers or was closed") { $0.closed || $0.screenText.contains("your name:") }
    }

    @Test func sessionsBeyondTheCapAreToldAndClosed() throws {
        let (server, _, port) = try serverWithWatcher { $0.telnetMaxSessions = 2 }
        defer { server.stop() }
        let a = try TelnetTestClient(port: port), b = try TelnetTestClient(port: port)
        try a.waitForScreen("your name:")
        try b.waitForScreen("your name:")
        let c = try TelnetTestClient(port: port)
        try c.waitForClose()
        #expect(String(decoding: c.raw, as: UTF8.self).contains("all 2 telnet places are taken"))
        // A place freed is a place again.
        try a.type("\u{3}")
        try a.waitForClose()
        let d = try TelnetTestClient(port: port)
        try d.waitFor("a place once one was free", timeout: 20) { $0.screenText.contains("your name:") }
    }

    @Test func thePerAddressCapIsTheGamePorts() throws {
        // The TCP watcher and one telnet player fill 127.0.0.1's two places.
        let (server, watcher, port) = try serverWithWatcher { $0.maxConnectionsPerAddress = 2 }
        defer { server.stop() }
        let first = try TelnetTestClient(port: port)
        try join(first, as: "one", watcher: watcher)
        let second = try TelnetTestClient(port: port)
        try second.waitForScreen("your name:")
        try second.type("two\r")
        try second.waitForScreen("too many connections from 127.0.0.1")
    }

    @Test func anIdleSessionIsClosed() throws {
        let (server, _, port) = try serverWithWatcher { $0.idleTimeoutSeconds = 1 }
        defer { server.stop() }
        let client = try TelnetTestClient(port: port)
        try client.waitForScreen("your name:")
        try client.waitForClose(timeout: 10)
        #expect(String(decoding: client.allData, as: UTF8.self).contains("no key for 1 s"))
    }

    @Test func aDroppedLinkComesBackAsTheSamePlayerWithItsCode() throws {
        let (server, watcher, port) = try serverWithWatcher()
        defer { server.stop() }
        var client: TelnetTestClient? = try TelnetTestClient(port: port, width: 120, height: 40)
        let id = try join(client!, as: "phoenix", watcher: watcher)
        try client!.waitForScreen("come-back code")
        let text = client!.screenText
        let start = try #require(text.range(of: "come-back code is #")?.upperBound)
        let code = "#" + text[start...].prefix(6)
        try client!.type("\t")
        let grab = try watcher.waitForEvent(timeout: 30) { $0.contains(" grabbed ") && $0.hasSuffix(" \(id)") }
        let piece = grab.split(separator: " ")[3]
        client = nil  // the link drops
        // Back with the code (typed in lower case): the same player, its piece still held.
        let back = try TelnetTestClient(port: port)
        try back.waitForScreen("your name:")
        try back.type(code.lowercased() + "\r")
        try back.waitForScreen("you still hold piece \(piece)")
        // The code is shown again, for a second drop.
        try back.waitForScreen("come-back code is \(code)")
        try back.type("\r")
        try watcher.waitForEvent(timeout: 30) { $0.contains(" placed \(piece) \(id) ") }
        let who = try watcher.request("WHO")
        #expect(who.state.filter { $0.contains("phoenix") }.count == 1, "\(who.state)")
        // A wrong code is refused, three close the session.
        let guesser = try TelnetTestClient(port: port)
        try guesser.waitForScreen("your name:")
        try guesser.type("#AAAAAA\r")
        try guesser.waitForScreen("no player has the come-back code")
        try guesser.type("#AAAAAB\r#AAAAAC\r")
        try guesser.waitForClose()
    }

    @Test func theGatewayWorksOverTCPAndDropsATerminalThatStopsReading() throws {
        // The gateway on its own, reaching the rooms over the game port like any client.
        let server = try TestServer()
        defer { server.stop() }
        var settings = TelnetSettings(bind: "127.0.0.1", port: 0, maxSessions: 4, idleTimeoutSeconds: 0, sendBuffer: 4096)
        settings.outputLimit = 64 * 1024
        settings.stallMillis = 500
        let gamePort = server.port
        let gateway = try TelnetGateway(settings: settings, connect: { _ in
            try Socket.connect(host: "127.0.0.1", port: UInt16(gamePort), timeoutMillis: 2000)
        }, log: { _ in })
        gateway.start()
        defer { gateway.stop() }
        let watcher = try LineClient(port: server.port, name: "watcher")
        try watcher.enter(as: "watcher")
        let client = try TelnetTestClient(port: gateway.port)
        try join(client, as: "overtcp", watcher: watcher)
        // A client that asks for refusals and never reads: its queue is bounded, it is dropped.
        let deaf = try Socket.connect(host: "127.0.0.1", port: UInt16(gateway.port), timeoutMillis: 2000)
        defer { try? deaf.close() }
        let admitted = Date().addingTimeInterval(10)
        while gateway.sessionCount < 2 && Date() < admitted { Thread.sleep(forTimeInterval: 0.01) }
        #expect(gateway.sessionCount == 2, "the second session never started")
        try? deaf.setReceiveBufferSize(4096)
        let asks = [UInt8](Array((0..<300_000).flatMap { [TelnetByte.iac, TelnetByte.do, UInt8(40 + $0 % 200)] }))
        var sent = 0
        let deadline = Date().addingTimeInterval(20)
        var dropped = false
        while Date() < deadline && !dropped {
            let r = try? asks[sent...].withUnsafeBytes { b in Result { () throws(Errno) in try deaf.send(b) } }.get()
            switch r {
            case .processed(let n)?: sent = min(asks.count - 1, sent + n)
            case nil: dropped = true  // reset by the gateway
            default: break
            }
            if gateway.sessionCount == 1 { dropped = true }
            Thread.sleep(forTimeInterval: 0.01)  // pacing the sender only; the check above is the condition
        }
        #expect(dropped, "a terminal that stopped reading was not dropped (\(gateway.sessionCount) sessions)")
        #expect(client.closed == false)
    }
}
