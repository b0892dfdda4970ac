/// Settings of `puzzle bench --io-compare`; lists run every combination.
public struct IOLoopOptions: Equatable, Sendable {
    /// Room sizes to try (each is its own run).
    public var members: [Int] = [10, 100]
    /// Offered load in lines per second, all members together; nil = as fast
    /// as the window allows.
    public var rates: [Int?] = [nil, 20_000]
    /// Measured seconds per run, after the warm-up.
    public var seconds: Double = 5
    /// Seconds of traffic before measuring starts.
    public var warmup: Double = 1
    /// Runs per variant and setting; the table shows medians.
    public var runs = 3
    /// Most lines sent but not yet delivered to every member.
    public var window = 1024
    public var variants: [IOLoopVariant] = IOLoopVariant.allCases

    public init() {}

    public static let usage = """
        usage: puzzle bench --io-compare [--members N[,N...]] [--rate max|N[,...]] [--seconds S]
                                         [--warmup S] [--runs K] [--window LINES] [--variants epoll,dispatch]
          Relays ~40-byte lines through an in-process room server built two ways (epoll loop
          vs Dispatch sources) on 127.0.0.1 and prints deliveries/s, latency and CPU per variant.
          Defaults: --members 10,100 --rate max,20000 --seconds 5 --warmup 1 --runs 3 --window 1024
        """

    /// A bad command line, with the offending argument.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Parses the arguments after `--io-compare`; nil means `--help`.
    public static func parse(_ args: [String]) throws(ParseError) -> IOLoopOptions? {
        var o = IOLoopOptions()
        var i = 0
        func value() throws(ParseError) -> String {
            i += 1
            guard i < args.count else { throw ParseError(message: "\(args[i - 1]) needs a value") }
            return args[i]
        }
        func list<T>(_ text: String, _ flag: String, _ convert: (Substring) -> T?) throws(ParseError) -> [T] {
            var out: [T] = []
            for part in text.split(separator: ",") {
                guard let v = convert(part) else { throw ParseError(message: "bad value '\(part)' for \(flag)") }
                out.append(v)
            }
            guard !out.isEmpty else { throw ParseError(message: "\(flag) needs a value") }
            return out
        }
        func positive(_ text: String, _ flag: String) throws(ParseError) -> Double {
            guard let v = Double(text), v > 0, v.isFinite else { throw ParseError(message: "bad value '\(text)' for \(flag)") }
            return v
        }
        while i < args.count {
            let flag = args[i]
            switch flag {
            case "--help", "-h": return nil
            case "--members": o.members = try list(try value(), flag) { Int($0).flatMap { $0 > 0 ? $0 : nil } }
            case "--rate": o.rates = try list(try value(), flag) { (s: Substring) -> Int?? in
                s == "max" ? .some(nil) : Int(s).flatMap { $0 > 0 ? .some($0) : nil }
            }
            case "--seconds": o.seconds = try positive(try value(), flag)
            case "--warmup":
                let text = try value()
                guard let v = Double(text), v >= 0, v.isFinite else { throw ParseError(message: "bad value '\(text)' for \(flag)") }
                o.warmup = v
            case "--runs": o.runs = Int(try positive(try value(), flag))
            case "--window": o.window = Int(try positive(try value(), flag))
            case "--variants": o.variants = try list(try value(), flag) { IOLoopVariant(rawValue: String($0)) }
            default: throw ParseError(message: "unknown option \(flag)")
            }
            i += 1
        }
        guard o.runs >= 1, o.window >= 1 else { throw ParseError(message: "--runs and --window must be at least 1") }
        return o
    }
}
