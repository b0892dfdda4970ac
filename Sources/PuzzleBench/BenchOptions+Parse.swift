import PuzzleCore

/// A command-line mistake, reported with the usage text.
public struct BenchUsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension BenchOptions {
    public static let usage = """
    usage: puzzle bench [options]          load-test a server with bot players
           puzzle bench --core [--size N] [--seconds S]   benchmark the rules engine alone
           puzzle bench --render [--size N] [--bots N] [--seconds S]
                                                 the client's frames: 200x60, players dragging
           puzzle bench --join-bytes [--size N] [--seed N] [--json]
                                                 the bytes of a JOIN (10x10 and 100x100 by default), fresh
                                                 and half placed, version 1 and 2, with and without PICTURE
           puzzle bench --storm N [--draggers D] [--size RxC] [--seed N] [--json]
                                                 N clients join one room (100x100 by default) at once, then
                                                 drop and REJOIN at once, while D members drag (default 4)
           puzzle bench --decode FILE [--runs N] [--ppm OUT]
                                                 median time to decode a PNG, JPEG or PPM (default 5 runs);
                                                 --ppm writes the decoded pixels as a PPM

    load test:
      --bots N            bot players (default 100)
      --rooms R           rooms; bots are spread across them (default 1)
      --steps K           drag steps from grab to drop (default 8)
      --rate N|max        total drags per second, open loop (default max)
      --window N          with --rate max: requests in flight per bot (default 4)
      --play pieces|parts|carry
                          pieces: each grabbed piece straight into its own cell (default);
                          parts: dropped beside a picture neighbour on the table (within the
                          snap), so parts form, and a part carried into the board once it has
                          --carry N pieces (default 8) or no free neighbour is left;
                          carry: each bot builds a part of --carry N pieces (1: a single
                          piece) and carries it round the table in the same cycles
      --duration S        measured seconds (default 10)
      --warmup S          seconds before measuring (default 2)
      --kind jigsaw|swap  room kind (default jigsaw)
      --size RxC          board size (default 20x20)
      --seed N            seed for piece choices and room names (default 1)
      --server HOST:PORT  target a running server (default: start one in-process)
      --server-pid PID    with --server: report that process's CPU and peak RSS
      --websocket         bots speak WebSocket (HTTP Upgrade at /ws, masked text messages), as browsers
      --json              machine-readable result on stdout
      --no-progress       no progress line even on a terminal

    server memory:
      puzzle bench --idle N --server HOST:PORT --server-pid PID
                          open N idle greeted connections; report the server's RSS growth per connection
    End checks: the bench keeps one mirror per room (its first JOIN snapshot plus
    every sequenced event, applied once) and proves every bot's view equal to it:
    each bot's snapshot digest equals the mirror's at that seq, and each event
    line it receives has the next seq and the same hash as the line the mirror
    applied. At the end the mirror must equal the server's DIGEST as every bot
    sees it (same seq and value), hold no lock, and have every piece once;
    every part, in the mirror and in a final SYNC snapshot from the server,
    must be sound (connected, one rotation, exact relative places, one holder
    at most), and that snapshot's digest must equal the mirror's.
    Exit status: 0 when every end check passes, 1 when one fails, 2 on bad usage.
    """

    /// What `puzzle bench` should do.
    public enum Parsed: Equatable, Sendable {
        case run(BenchOptions)
        case help
    }

    /// Reads `puzzle bench`'s arguments (those after the subcommand).
    public static func parse(_ args: [String]) throws(BenchUsageError) -> Parsed {
        var o = BenchOptions()
        var rest = args[...]
        var sizeGiven = false
        func value(_ flag: String) throws(BenchUsageError) -> String {
            guard let v = rest.popFirst() else { throw BenchUsageError("\(flag) needs a value") }
            return v
        }
        func int(_ flag: String, _ range: ClosedRange<Int>) throws(BenchUsageError) -> Int {
            let v = try value(flag)
            guard let n = Int(v), range.contains(n) else { throw BenchUsageError("\(flag): '\(v)' is not a number in \(range)") }
            return n
        }
        func seconds(_ flag: String, _ range: ClosedRange<Double>) throws(BenchUsageError) -> Double {
            let v = try value(flag)
            guard let s = Double(v), range.contains(s) else { throw BenchUsageError("\(flag): '\(v)' is not a number of seconds in \(range)") }
            return s
        }
        while let arg = rest.popFirst() {
            switch arg {
            case "-h", "--help": return .help
            case "--core": o.core = true
            case "--render": o.render = true
            case "--join-bytes": o.joinBytes = true
            case "--storm": o.stormClients = try int(arg, 1...10_000)
            case "--draggers": o.stormDraggers = try int(arg, 0...64)
            case "--decode": o.decodeFile = try value(arg)
            case "--runs": o.decodeRuns = try int(arg, 1...1000)
            case "--ppm": o.decodeOutput = try value(arg)
            case "--size":
                sizeGiven = true
                let v = try value(arg)
                let parts = v.lowercased().split(separator: "x")
                if parts.count == 1, let n = Int(parts[0]), PuzzleSpec.sizeRange.contains(n) {
                    o.coreSize = n; o.rows = n; o.cols = n
                } else if parts.count == 2, let r = Int(parts[0]), let c = Int(parts[1]),
                          PuzzleSpec.sizeRange.contains(r), PuzzleSpec.sizeRange.contains(c) {
                    o.rows = r; o.cols = c; o.coreSize = max(r, c)
                } else {
                    throw BenchUsageError("--size: '\(v)' is not N or RxC with each in \(PuzzleSpec.sizeRange)")
                }
            case "--seconds": o.coreSeconds = try seconds(arg, 0.05...600)
            case "--bots": o.bots = try int(arg, 1...100_000)
            case "--rooms": o.rooms = try int(arg, 1...1000)
            case "--steps": o.steps = try int(arg, 1...1000)
            case "--window": o.window = try int(arg, 1...1000)
            case "--play":
                let v = try value(arg)
                guard let p = Play(rawValue: v.lowercased()) else { throw BenchUsageError("--play: '\(v)' is not pieces, parts or carry") }
                o.play = p
            case "--carry": o.carrySize = try int(arg, 1...RoomLimits.maxPieceIndex)
            case "--rate":
                let v = try value(arg)
                if v == "max" {
                    o.rate = .max
                } else if let r = Double(v), r > 0, r <= 1e9 {
                    o.rate = .perSecond(r)
                } else {
                    throw BenchUsageError("--rate: '\(v)' is neither 'max' nor a positive number")
                }
            case "--duration": o.duration = try seconds(arg, 0.1...86_400)
            case "--warmup": o.warmup = try seconds(arg, 0...3600)
            case "--kind":
                let v = try value(arg)
                guard let k = PuzzleKind(rawValue: v.lowercased()) else { throw BenchUsageError("--kind: '\(v)' is not jigsaw or swap") }
                o.kind = k
            case "--seed":
                let v = try value(arg)
                guard let s = UInt64(v) else { throw BenchUsageError("--seed: '\(v)' is not an unsigned number") }
                o.seed = s
            case "--server":
                let v = try value(arg)
                guard v.lastIndex(of: ":") != nil else { throw BenchUsageError("--server: '\(v)' is not HOST:PORT") }
                o.server = v
            case "--server-pid": o.serverPID = try int(arg, 1...Int(Int32.max))
            case "--idle": o.idleConnections = try int(arg, 1...1_000_000)
            case "--websocket": o.webSocket = true
            case "--json": o.json = true
            case "--no-progress": o.progress = false
            default: throw BenchUsageError("unknown option '\(arg)'")
            }
        }
        if o.joinBytes && sizeGiven {
            guard o.rows == o.cols else { throw BenchUsageError("--join-bytes measures square boards: --size N") }
            o.joinBytesSizes = [o.rows]
        }
        if o.stormClients > 0 && !sizeGiven { o.rows = 100; o.cols = 100 }
        guard o.play == .pieces || o.kind == .jigsaw else { throw BenchUsageError("--play \(o.play.rawValue): only jigsaw pieces join") }
        guard o.bots >= o.rooms else { throw BenchUsageError("--bots (\(o.bots)) must be at least --rooms (\(o.rooms))") }
        if o.play == .carry {
            let botsPerRoom = (o.bots + o.rooms - 1) / o.rooms
            guard let need = CarryPlan.rowsNeeded(bots: botsPerRoom, size: o.carrySize, cols: o.cols), need <= o.rows else {
                throw BenchUsageError("--play carry: \(botsPerRoom) bots a room, each with a part of \(o.carrySize) pieces along a row, need a wider or taller board than \(o.rows)x\(o.cols) (try --size 50)")
            }
        }
        return .run(o)
    }

    /// Host and port of `--server`, split at the last colon (IPv6 in brackets works).
    var serverEndpoint: (host: String, port: UInt16)? {
        guard let server, let colon = server.lastIndex(of: ":"), let port = UInt16(server[server.index(after: colon)...]) else { return nil }
        return (String(server[..<colon]), port)
    }
}
