import Foundation
import Testing
import PuzzleSystem
import PuzzleTestSupport
@testable import PuzzleServer

/// The telnet port's config key and flag, its default beside the game port, and the banner.
@Suite struct TelnetConfigTests {
    @Test func autoIsTheNextPortOrAFreeOne() {
        var c = ServerConfig()
        #expect(c.telnetPort == .auto && c.telnetListenPort == 7172)
        c.port = 0
        #expect(c.telnetListenPort == 0)
        c.telnetPort = .off
        #expect(c.telnetListenPort == nil)
        c.telnetPort = .port(2323)
        #expect(c.telnetListenPort == 2323)
    }

    @Test func flagsAndKeysAreRead() throws {
        guard case .run(let c) = try ServerConfig.fromCommandLine(["--telnet-port", "off", "--telnet-max", "5"], defaultConfigPath: nil) else {
            Issue.record("no config")
            return
        }
        #expect(c.telnetPort == .off && c.telnetMaxSessions == 5)
        guard case .run(let d) = try ServerConfig.fromCommandLine(["--telnet-port=2323"], defaultConfigPath: nil) else { return }
        #expect(d.telnetPort == .port(2323))
        let file = try ServerConfig.parse(text: "telnet_port = auto\ntelnet_max_sessions = 9\n", baseDirectory: ".")
        #expect(file.telnetPort == .auto && file.telnetMaxSessions == 9)
        #expect(throws: ConfigError.self) { try ServerConfig.parse(text: "telnet_port = 70000\n", baseDirectory: ".") }
        #expect(throws: ConfigError.self) { try ServerConfig.parse(text: "telnet_port = on\n", baseDirectory: ".") }
        #expect(throws: ConfigError.self) { try ServerConfig.parse(text: "telnet_max_sessions = 0\n", baseDirectory: ".") }
    }

    @Test func aTelnetPortThatCannotBeIsRefusedAtStart() {
        var c = ServerConfig()
        c.port = 65535
        #expect(throws: ConfigError.self) { try c.validate() }
        c.port = 2323
        c.telnetPort = .port(2323)
        #expect(throws: ConfigError.self) { try c.validate() }
        c.telnetPort = .port(0)
        #expect(throws: Never.self) { try c.validate() }
    }

    @Test func theBannerShowsTelnetBesideTheOtherWaysIn() {
        let lines = ServeBanner.lines(bind: "0.0.0.0", port: 7171, rooms: ["lobby"], interfaces: ServeBannerTests.interfaces, telnetPort: 7172)
        #expect(lines == [
            "puzzle-room listening on 0.0.0.0:7171 (rooms: lobby)",
            "  on this machine: swift run puzzle play 127.0.0.1:7171 --room lobby",
            "    or in a browser: http://127.0.0.1:7171/",
            "    or with telnet: telnet 127.0.0.1 7172",
            "  on the LAN (eth0): swift run puzzle play 192.168.1.20:7171 --room lobby",
            "    or in a browser: http://192.168.1.20:7171/",
            "    or with telnet: telnet 192.168.1.20 7172",
        ])
    }

    @Test func autoGivesWayWhenItsPortIsTakenAndAPortNamedDoesNot() throws {
        // Something else holds a port; the game port just below it makes `auto` want it
        // (tried again should that game port be taken too).
        var held: Socket?
        var started: (TestServer, LogLines, Int)?
        for _ in 0..<5 where started == nil {
            if let h = held { try? h.close() }
            let holder = try Socket.listen(host: "127.0.0.1", port: 0)
            held = holder
            let taken = Int(try holder.localPort)
            let log = LogLines()
            if let s = try? TestServer(log: log, configure: { c in
                c.port = taken - 1
                c.telnetPort = .auto
                c.logLevel = .warn
            }) { started = (s, log, taken) }
        }
        defer { try? held?.close() }
        let (server, log, taken) = try #require(started)
        #expect(server.server.telnetPort == nil)
        #expect(log.lines.contains { $0.contains("no telnet port") })
        server.stop()
        #expect(throws: ListenError.self) {
            _ = try TestServer { c in c.telnetPort = .port(taken) }
        }
    }
}
