import PuzzleSystem

/// What `puzzle serve` prints at start: where it listens, and the exact command
/// players run and the page a browser opens, for this machine and for every
/// LAN address that reaches it.
enum ServeBanner {
    /// How players start the client, judged from how this server was started
    /// (`argv[0]`): `swift run puzzle` from a checkout's build directory,
    /// else the program as it was typed (`./puzzle`, `puzzle` on the PATH).
    static func program(argv0: String) -> String {
        argv0.contains("/.build/") || argv0.isEmpty ? "swift run puzzle" : argv0
    }

    /// The banner's lines. `interfaces` are the machine's addresses (read
    /// locally, nothing is sent); only those the bind address accepts are shown.
    /// Link-local IPv6 addresses are left out: they need a zone the client
    /// cannot be given.
    /// `telnetPort`: where telnet players connect (nil: no telnet port), shown beside the
    /// other two ways in.
    static func lines(bind: String, port: Int, rooms: [String], interfaces: [NetworkInterfaces.Address],
                      program: String = "swift run puzzle", telnetPort: Int? = nil) -> [String] {
        var out = ["puzzle-room listening on \(bind):\(port) (rooms: \(rooms.isEmpty ? "none" : rooms.joined(separator: ", ")))"]
        // A room that exists: lobby if there is one, else the first.
        let room = rooms.contains("lobby") ? "lobby" : rooms.first
        func address(_ host: String) -> String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
        func command(_ host: String) -> String {
            "\(program) play \(address(host))" + (room.map { " --room \($0)" } ?? "")
        }
        // The same port serves the page: a phone or laptop needs nothing installed.
        func browser(_ host: String) -> String { "    or in a browser: http://\(address(host))/" }
        // And any terminal, with nothing installed (telnet takes the port apart from the host).
        func telnet(_ host: String) -> [String] { telnetPort.map { ["    or with telnet: telnet \(host) \($0)"] } ?? [] }
        let anyV4 = bind == "0.0.0.0", anyV6 = bind == "::"
        let local = bind == "::1" ? "::1" : (anyV4 || anyV6 || bind == "127.0.0.1" ? "127.0.0.1" : bind)
        out.append("  on this machine: \(command(local))")
        out.append(browser(local))
        out += telnet(local)
        let lan = interfaces.filter { a in
            guard !a.isLoopback, !a.isLinkLocal else { return false }
            if anyV6 { return true }  // dual-stack: IPv4 clients too
            if anyV4 { return a.family == .ipv4 }
            return a.host == bind
        }
        if lan.isEmpty {
            let why = anyV4 || anyV6 ? "no network interface with an address is up" : "it listens on \(bind) only; --bind 0.0.0.0 or :: opens it to the LAN"
            out.append("  on the LAN: none (\(why))")
        } else {
            var seen = Set<String>()
            for a in lan where seen.insert(a.host).inserted {
                out.append("  on the LAN (\(a.interface)): \(command(a.host))")
                out.append(browser(a.host))
                out += telnet(a.host)
            }
        }
        if room == nil { out.append("  no room yet: players create one with /create NAME jigsaw 4x4") }
        return out
    }
}
