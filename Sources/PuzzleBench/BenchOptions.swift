import PuzzleCore

/// Everything `puzzle bench` can be told on its command line.
public struct BenchOptions: Equatable, Sendable {
    /// How fast bots drag, in total over all bots.
    public enum Rate: Equatable, Sendable {
        /// Open loop: this many drags per second in total, each with an intended send time.
        case perSecond(Double)
        /// As fast as the server answers, each bot keeping at most `window` requests in flight.
        case max
    }

    /// What the bots do with a piece they grab (`--play`).
    public enum Play: String, Equatable, Sendable {
        /// Each piece straight into its own cell.
        case pieces
        /// Pieces dropped beside their picture neighbours on the table, so
        /// parts form; a part carried into the board once it is big enough
        /// (`carrySize`) or has no free neighbour left (`PartBuilder`).
        case parts
        /// Each bot builds one part of `carrySize` pieces on the table, then
        /// carries it round the table (`CarryPlan`): with `--carry 1`, single
        /// pieces in the same cycles, the pair the relay is measured by.
        case carry
    }

    /// Run the core benchmark (no network) instead of the load test.
    public var core = false
    /// `--render`: the client's frame cost (`RenderBenchmark`).
    public var render = false
    /// `--decode FILE`: time our PNG/JPEG/PPM decoder on this file.
    public var decodeFile: String?
    /// `--ppm OUT`: with `--decode`, also write the decoded pixels as a PPM
    /// (to compare with `djpeg` or `pngtopnm` output).
    public var decodeOutput: String?
    /// `--runs N`: decodes timed for `--decode` (the median is reported).
    public var decodeRuns = 5
    /// `--join-bytes`: the bytes of a JOIN, full and compact (`JoinBytes`).
    public var joinBytes = false
    /// Board sides `--join-bytes` measures (`--size N` measures N only).
    public var joinBytesSizes = [10, 100]
    /// `--storm N`: N clients join one room at once, drop and rejoin at once (`JoinStorm`).
    public var stormClients = 0
    /// `--draggers N`: members of the storm's room who drag meanwhile.
    public var stormDraggers = 4
    /// Core benchmark: board side (rows = cols).
    public var coreSize = 100
    /// Core benchmark: seconds per measured run.
    public var coreSeconds = 3.0

    public var bots = 100
    public var rooms = 1
    /// Drag steps from a grab to its drop.
    public var steps = 8
    public var rate: Rate = .max
    /// `--play pieces|parts`: how the bots play.
    public var play: Play = .pieces
    /// `--carry N`: with `--play parts`, a part of this many pieces is carried
    /// in; with `--play carry`, the size of each bot's part.
    public var carrySize = 8
    /// Requests one bot may have unanswered at once with `--rate max`.
    public var window = 4
    public var duration = 10.0
    public var warmup = 2.0
    public var seed: UInt64 = 1
    public var json = false
    /// Draw a progress line (only when stderr is a terminal, unless forced).
    public var progress = true
    public var kind: PuzzleKind = .jigsaw
    public var rows = 20
    public var cols = 20
    /// `HOST:PORT` of a running server; nil starts one in-process.
    public var server: String?
    /// Pid of a separately started server, to report its CPU time and peak RSS
    /// from /proc.
    public var serverPID: Int?
    /// Open this many idle (greeted) connections and report the server's memory per connection.
    public var idleConnections: Int?
    /// `--websocket`: the bots connect as browsers do (HTTP Upgrade at `/ws`,
    /// one masked text message per request line) instead of as TCP line clients.
    public var webSocket = false
    /// Prefix of the rooms bench creates (a unique suffix is added).
    public var roomPrefix = "bench"
    /// Seconds to wait for quiescence and the final checks.
    public var settleSeconds = 20.0

    public init() {}
}
