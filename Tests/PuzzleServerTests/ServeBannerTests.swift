import Testing
import PuzzleSystem
@testable import PuzzleServer

/// The start-up banner names every address players can use, with the exact command.
@Suite struct ServeBannerTests {
    static let interfaces = [
        NetworkInterfaces.Address(interface: "lo", family: .ipv4, host: "127.0.0.1", isLoopback: true, isLinkLocal: false),
        NetworkInterfaces.Address(interface: "eth0", family: .ipv4, host: "192.168.1.20", isLoopback: false, isLinkLocal: false),
        NetworkInterfaces.Address(interface: "eth0", family: .ipv6, host: "fd00::20", isLoopback: false, isLinkLocal: false),
        NetworkInterfaces.Address(interface: "eth0", family: .ipv6, host: "fe80::1", isLoopback: false, isLinkLocal: true),
        NetworkInterfaces.Address(interface: "lo", family: .ipv6, host: "::1", isLoopback: true, isLinkLocal: false),
    ]

    @Test func anyIPv4ListsEveryIPv4LANAddressWithARoomThatExists() {
        let lines = ServeBanner.lines(bind: "0.0.0.0", port: 7171, rooms: ["duo", "lobby"], interfaces: Self.interfaces)
        #expect(lines == [
            "puzzle-room listening on 0.0.0.0:7171 (rooms: duo, lobby)",
            "  on this machine: swift run puzzle play 127.0.0.1:7171 --room lobby",
            "    or in a browser: http://127.0.0.1:7171/",
            "  on the LAN (eth0): swift run puzzle play 192.168.1.20:7171 --room lobby",
            "    or in a browser: http://192.168.1.20:7171/",
        ])
    }

    @Test func anyIPv6ListsBothFamiliesButNotLinkLocal() {
        let lines = ServeBanner.lines(bind: "::", port: 9, rooms: ["games"], interfaces: Self.interfaces)
        #expect(lines.contains("  on the LAN (eth0): swift run puzzle play 192.168.1.20:9 --room games"))
        #expect(lines.contains("  on the LAN (eth0): swift run puzzle play [fd00::20]:9 --room games"))
        #expect(lines.contains("    or in a browser: http://[fd00::20]:9/"))
        #expect(!lines.contains { $0.contains("fe80") })
    }

    @Test func loopbackOnlySaysWhyTheLANCannotConnect() {
        let lines = ServeBanner.lines(bind: "127.0.0.1", port: 7171, rooms: [], interfaces: Self.interfaces)
        #expect(lines[1] == "  on this machine: swift run puzzle play 127.0.0.1:7171")
        #expect(lines[2] == "    or in a browser: http://127.0.0.1:7171/")
        #expect(lines[3].hasPrefix("  on the LAN: none (it listens on 127.0.0.1 only"))
        #expect(lines.last == "  no room yet: players create one with /create NAME jigsaw 4x4")
    }

    /// The command players are shown starts the client the way this server was started.
    @Test func theClientCommandFollowsHowTheServerWasStarted() {
        #expect(ServeBanner.program(argv0: "/home/ann/puzzle-room/.build/x86_64-unknown-linux-gnu/debug/puzzle") == "swift run puzzle")
        #expect(ServeBanner.program(argv0: "./puzzle") == "./puzzle")
        #expect(ServeBanner.program(argv0: "puzzle") == "puzzle")
        let lines = ServeBanner.lines(bind: "127.0.0.1", port: 7171, rooms: ["lobby"], interfaces: Self.interfaces, program: "./puzzle")
        #expect(lines[1] == "  on this machine: ./puzzle play 127.0.0.1:7171 --room lobby")
    }

    @Test func theMachinesRealInterfacesIncludeLoopback() throws {
        let addresses = try NetworkInterfaces.addresses()
        #expect(addresses.contains { $0.isLoopback && $0.host == "127.0.0.1" })
    }
}
