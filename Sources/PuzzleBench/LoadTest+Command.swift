import Foundation
import PuzzleLink
import PuzzleSystem

extension LoadTest {
    /// Runs a whole load test: server (unless `--server`), rooms, bots, play,
    /// end checks. Throws when the run cannot get going at all.
    static func run(_ options: BenchOptions, progress: @escaping (String) -> Void = { _ in }) throws -> LoadReport {
        // Each bot is one descriptor here, and one more in an in-process server.
        _ = try? ResourceLimits.raiseOpenFileLimit(to: UInt64(options.bots * 2 + 256))
        var inProcess: BenchServer?
        let host: String, port: UInt16
        if options.server != nil {
            guard let endpoint = options.serverEndpoint else { throw BenchFailure("--server: not HOST:PORT") }
            (host, port) = endpoint
        } else {
            let server = try BenchServer(maxConnections: options.bots + 64, seed: options.seed)
            inProcess = server
            (host, port) = ("127.0.0.1", server.port)
        }
        defer { inProcess?.stop() }

        // Set-up and statistics, outside the bots' loop.
        let admin = try LineClient(port: Int(port), name: "bench admin", host: host)
        func request(_ line: String) throws -> String {
            let reply = try admin.request(line).reply
            if reply.hasPrefix("BYE") { throw BenchFailure("admin: server said \(reply)") }
            return reply
        }
        _ = try request("HELLO 1 bench-admin")
        var names: [String] = []
        var suffixRNG = SystemRandomNumberGenerator()
        let tag = String(UInt32.random(in: 0...UInt32.max, using: &suffixRNG), radix: 36)
        for i in 0..<options.rooms {
            let name = "\(options.roomPrefix)\(tag)-\(i)"
            let reply = try request("CREATE \(name) \(options.kind.rawValue) \(options.rows)x\(options.cols)")
            guard reply.hasPrefix("OK") else { throw BenchFailure("CREATE \(name) refused: \(reply)") }
            names.append(name)
        }

        let test = try LoadTest(options: options, host: host, port: port)
        defer { test.closeAll() }
        try test.connectAll(roomNames: names)
        let serverBefore = options.serverPID.flatMap(ProcessSample.read)
        let benchBefore = try? ProcessStats.cpuSeconds()
        var serverAfter: ProcessSample?
        var benchAfter: Double?
        try test.play { t, last in
            if last {
                serverAfter = options.serverPID.flatMap(ProcessSample.read)
                benchAfter = try? ProcessStats.cpuSeconds()
            }
            progress(t.progressLine)
        }
        try test.finish()
        let stats = try? request("STATS")
        var report = test.report(serverStats: stats)
        if let a = benchAfter, let b = benchBefore { report.benchPlayCPUSeconds = a - b }
        if let a = serverAfter, let b = serverBefore {
            report.serverCPUSeconds = a.cpuSeconds - b.cpuSeconds
            report.serverPeakRSS = a.peakResidentBytes
        }
        return report
    }

    /// `puzzle bench` (network): prints the summary or JSON; exit 0 when
    /// every end check passes.
    static func command(_ options: BenchOptions) -> Int32 {
        let tty = options.progress && !options.json && TerminalMode.isTerminal(2)
        do {
            let report = try run(options) { line in
                if tty { FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8)) }
            }
            if tty { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            print(options.json ? report.json : report.text)
            return report.passed ? 0 : 1
        } catch {
            FileHandle.standardError.write(Data("\npuzzle bench: \(error)\n".utf8))
            return 1
        }
    }

    /// "elapsed 4.0 s  drags/s 91,200  deliveries/s 9,020,000  p99 bcast 2,100 us".
    var progressLine: String {
        let elapsed = Double(now - startedAt) / 1e9
        let measuring = now >= windowStart
        let span = measuring ? Double(min(now, windowEnd) - windowStart) / 1e9 : elapsed
        let drags = measuring ? window.dragsOK : total.dragsOK
        let deliveries = measuring ? window.deliveries : total.deliveries
        let p99 = broadcastLatency.value(atQuantile: 0.99)
        return "\(measuring ? "measuring" : "warm-up  ") \(fmt(elapsed)) s  drags/s \(group(Double(drags) / max(span, 0.001)))  deliveries/s \(group(Double(deliveries) / max(span, 0.001)))  p99 broadcast \(group(Double(p99))) us"
    }

    func report(serverStats: String?) -> LoadReport {
        let rate: Double? = if case .perSecond(let r) = options.rate { r } else { nil }
        return LoadReport(
            bots: options.bots, rooms: options.rooms, board: "\(options.kind.rawValue) \(options.rows)x\(options.cols)",
            steps: options.steps, targetRate: rate, duration: options.duration, warmup: options.warmup,
            server: options.server ?? "in-process 127.0.0.1:\(port)",
            dragsSent: window.dragsSent, dragsOK: window.dragsOK, dragsRefused: window.dragsRefused, deliveries: window.deliveries,
            grabsOK: window.grabsOK, dropsOK: window.dropsOK, heldRefusals: window.grabsHeld, rateLimited: window.rateLimited,
            errors: window.errors, skippedSlots: window.skippedSlots,
            reply: replyLatency.summary, broadcast: broadcastLatency.summary,
            replyHistogram: replyLatency, broadcastHistogram: broadcastLatency,
            totalDragsSent: total.dragsSent, totalDragsOK: total.dragsOK, totalDragsRefused: total.dragsRefused,
            totalDeliveries: total.deliveries, totalExpectedDeliveries: total.expectedDeliveries, totalErrors: total.errors,
            lostHolds: total.lostHolds, solves: rooms.flatMap(\.solveMillis),
            disconnects: failures.disconnects, eventGaps: failures.eventGaps, mirrorErrors: failures.mirrorErrors,
            unexpectedReplies: failures.unexpectedReplies, digestMismatches: digestMismatches, viewMismatches: viewMismatches, heldAtEnd: heldAtEnd,
            pieceErrors: pieceErrors, notes: failures.messages,
            benchCPUSeconds: (try? ProcessStats.cpuSeconds()) ?? 0, benchPlayCPUSeconds: nil,
            benchPeakRSS: ProcessSample.read(pid: Int(ProcessInfo.processInfo.processIdentifier))?.peakResidentBytes ?? 0,
            serverCPUSeconds: nil, serverPeakRSS: nil, serverStats: serverStats)
    }
}
