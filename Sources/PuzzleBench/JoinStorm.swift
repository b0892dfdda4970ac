import Foundation
import PuzzleCore
import PuzzleLink
import PuzzleProtocol
import PuzzleSystem

/// `puzzle bench --storm N`: N clients (version 2) join one room (100x100 by
/// default) at once, then all drop their links at once and come back at once
/// with `REJOIN` (their tokens and points), while a few other members of the
/// room drag pieces. Reports how long each wave took to be all in (goal 2 s)
/// and the draggers' DRAG round trips meanwhile (goal p99 under 50 ms); end
/// checks: every client joined both times, no refusal or goodbye, every
/// sequenced event in order with none missed (a catch-up's count as the reply
/// says), and at the end every client at the room's seq with its digest.
/// Runs against its own in-process server, whose connection cap is raised to
/// fit (its per-address cap is off, as for every bench server).
enum JoinStorm {
    struct Wave {
        var millis: Int64
        var medianMillis: Int64
        var drags: [Double]
    }

    static func command(_ options: BenchOptions) -> Int32 {
        do {
            let (waves, failures) = try run(options)
            report(options, waves: waves, failures: failures)
            return failures.isEmpty ? 0 : 1
        } catch {
            FileHandle.standardError.write(Data("puzzle bench: \(error)\n".utf8))
            return 1
        }
    }

    /// The value below which a share `q` of `values` lie (nearest rank).
    static func percentile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s[max(0, min(s.count - 1, Int((Double(s.count) * q).rounded(.up)) - 1))]
    }

    static func report(_ o: BenchOptions, waves: [Wave], failures: [String]) {
        let names = ["join", "rejoin"]
        if o.json {
            let items = zip(names, waves).map { name, w in
                "{\"wave\":\"\(name)\",\"all_in_ms\":\(w.millis),\"median_ms\":\(w.medianMillis),\"drags\":\(w.drags.count),\"drag_p50_ms\":\(fmt(percentile(w.drags, 0.5))),\"drag_p99_ms\":\(fmt(percentile(w.drags, 0.99))),\"drag_max_ms\":\(fmt(w.drags.max() ?? 0))}"
            }
            print("{\"clients\":\(o.stormClients),\"size\":\"\(o.rows)x\(o.cols)\",\"waves\":[\(items.joined(separator: ","))],\"end_checks\":\(failures.isEmpty ? "\"passed\"" : "\"failed\"")}")
        } else {
            print("join storm: \(o.stormClients) clients, one \(o.rows)x\(o.cols) jigsaw, \(o.stormDraggers) members dragging")
            for (name, w) in zip(names, waves) {
                let met = w.millis <= 2000 && percentile(w.drags, 0.99) < 50
                print("  \(name): all in after \(w.millis) ms (median client \(w.medianMillis) ms); drags meanwhile: \(w.drags.count), p50 \(fmt(percentile(w.drags, 0.5))) ms, p99 \(fmt(percentile(w.drags, 0.99))) ms, max \(fmt(w.drags.max() ?? 0)) ms; goals (2 s, p99 < 50 ms) \(met ? "met" : "missed")")
            }
            print(failures.isEmpty ? "  end checks: passed" : "  end checks FAILED:\n    " + failures.prefix(20).joined(separator: "\n    "))
        }
    }

    static func run(_ o: BenchOptions) throws -> (waves: [Wave], failures: [String]) {
        let n = o.stormClients
        _ = try? ResourceLimits.raiseOpenFileLimit(to: UInt64(2 * n + 4 * o.stormDraggers + 512))
        // Room for both waves at once: the dropped links of the first may
        // still be closing on the server when the second connects.
        let server = try BenchServer(maxConnections: 2 * n + o.stormDraggers + 64, seed: o.seed)
        defer { server.stop() }
        let port = Int(server.port)
        let room = "storm"
        let admin = try LineClient(port: port, name: "admin")
        defer { admin.close() }
        try admin.answer(.hello(version: 2, name: "admin"))
        try admin.answer(.create(RoomSpec(name: room, kind: .jigsaw, rows: o.rows, cols: o.cols)))
        let draggers = StormDraggers(port: port, room: room, count: o.stormDraggers, rows: o.rows, cols: o.cols)
        try draggers.start()
        defer { draggers.stop() }
        // Let the draggers get going before the first wave.
        Thread.sleep(forTimeInterval: 0.5)

        var clients = (0..<n).map { StormClient(index: $0) }
        var failures: [String] = []
        var waves: [Wave] = []
        for wave in 0..<2 {
            let sockets = try (0..<n).map { _ in try Socket.connect(host: "127.0.0.1", port: UInt16(port), timeoutMillis: 5000) }
            let queue = try EpollQueue(maxEventsPerWait: 1024)
            for (i, s) in sockets.enumerated() { try queue.register(s.descriptor, interest: .readable, token: UInt64(i)) }
            let began = MonotonicClock.nowMilliseconds
            for i in 0..<n {
                let c = clients[i]
                // A second wave comes back as the same players, from where each was.
                let greeting: [Request] = wave == 0 ? [.hello(version: 2, name: "storm\(i)"), .join(room: room, password: nil)]
                    : [.hello(version: 2, name: "storm\(i)", token: c.token ?? "-"), .rejoin(room: room, seq: c.seq, run: c.run ?? "-", password: nil)]
                var bytes: [UInt8] = []
                for request in greeting { request.encode(into: &bytes) }
                clients[i].phase = .greeting
                clients[i].sentAt = MonotonicClock.nowMilliseconds
                _ = try sockets[i].send(bytes)
            }
            try pump(queue, sockets, &clients, until: { $0.phase == .joined || $0.failure != nil }, seconds: 60)
            let ended = MonotonicClock.nowMilliseconds
            let times = clients.map { $0.joinedAt - $0.sentAt }.sorted()
            waves.append(Wave(millis: ended - began, medianMillis: times[times.count / 2],
                              drags: draggers.samples(from: began, to: ended)))
            for c in clients where c.phase != .joined { failures.append(c.failure ?? "client \(c.index) never joined (wave \(wave + 1))") }
            if wave == 0 {
                // A moment in the room, taking its events, then every link drops at once.
                try pump(queue, sockets, &clients, until: { _ in false }, seconds: 0.5)
                for s in sockets { try? s.close() }
            } else {
                draggers.stop()
                try pump(queue, sockets, &clients, until: { _ in false }, seconds: 0.5)
                // The room's own word, from a watcher (whose coming is no sequenced event).
                guard case .watching? = ReplyCodec.decode(try admin.request(.watch(room: room, password: nil), timeout: 30).reply[...]) else { throw BenchFailure("WATCH refused") }
                let server = try admin.request(.digest).reply
                guard case .digest(let d)? = ReplyCodec.decode(Substring(server)) else { throw BenchFailure("DIGEST refused: \(server)") }
                for (i, s) in sockets.enumerated() where clients[i].failure == nil { _ = try s.send(Array("DIGEST\n".utf8)) }
                try pump(queue, sockets, &clients, until: { $0.phase == .digested || $0.failure != nil }, seconds: 30)
                for c in clients {
                    if let f = c.failure { failures.append(f) }
                    else if c.seq != d.seq || c.digest != d.value {
                        failures.append("client \(c.index) ends at seq \(c.seq) digest \(c.digest ?? "-"), the room at \(d.seq) \(d.value)")
                    }
                }
                failures += draggers.failures
                for s in sockets { try? s.close() }
            }
        }
        return (waves, Array(Set(failures)).sorted())
    }

    /// Reads every socket until each client satisfies `done` or `seconds` pass.
    static func pump(_ queue: EpollQueue, _ sockets: [Socket], _ clients: inout [StormClient],
                     until done: (StormClient) -> Bool, seconds: Double) throws {
        let deadline = MonotonicClock.nowMilliseconds + Int64(seconds * 1000)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while MonotonicClock.nowMilliseconds < deadline {
            if clients.allSatisfy(done) { return }
            for event in try queue.wait(timeoutMillis: 20) {
                let i = Int(event.token)
                reading: while true {
                    let r: IOResult?
                    do { r = try buffer.withUnsafeMutableBytes { (b) throws(Errno) -> IOResult in try sockets[i].receive(into: b) } } catch { r = nil }
                    switch r {
                    case .processed(let k)? where k > 0:
                        clients[i].receive(buffer[..<k], now: MonotonicClock.nowMilliseconds)
                    case .wouldBlock?:
                        break reading
                    default:
                        // End of stream or a failed link: only after the storm's own close is that expected.
                        if clients[i].failure == nil { clients[i].failure = "client \(i): its link ended" }
                        try? queue.deregister(sockets[i].descriptor)
                        break reading
                    }
                }
            }
        }
    }
}
