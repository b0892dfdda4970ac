import Foundation
import PuzzleProtocol
import PuzzleSystem

/// `puzzle bench --idle N --server HOST:PORT --server-pid PID`: opens N
/// connections that each say HELLO and then stay idle, and reports how much
/// the server's resident memory grew per connection.
enum IdleProbe {
    static func command(_ options: BenchOptions, count: Int) -> Int32 {
        guard let (host, port) = options.serverEndpoint, let pid = options.serverPID else {
            FileHandle.standardError.write(Data("puzzle bench --idle needs --server HOST:PORT and --server-pid PID\n".utf8))
            return 2
        }
        _ = try? ResourceLimits.raiseOpenFileLimit(to: UInt64(count + 256))
        guard let before = ProcessSample.read(pid: pid) else {
            FileHandle.standardError.write(Data("puzzle bench: cannot read /proc/\(pid)\n".utf8))
            return 1
        }
        var sockets: [Socket] = []
        defer { for s in sockets { try? s.close() } }
        do {
            let queue = try EpollQueue(maxEventsPerWait: 1024)
            var greeted = 0
            var buffer = [UInt8](repeating: 0, count: 4096)
            func drain(timeout: Int32) throws {
                for event in try queue.wait(timeoutMillis: timeout) {
                    let r = try buffer.withUnsafeMutableBytes { (b) throws(Errno) -> IOResult in try sockets[Int(event.token)].receive(into: b) }
                    switch r {
                    case .processed(0): throw BenchFailure("the server closed connection \(event.token) (over max_connections?)")
                    case .processed(let n): greeted += buffer[..<n].filter { $0 == 0x0A }.count
                    case .wouldBlock: break
                    }
                }
            }
            for i in 0..<count {
                let s = try Socket.connect(host: host, port: port, timeoutMillis: 5000)
                sockets.append(s)
                try queue.register(s.descriptor, interest: .readable, token: UInt64(i))
                var hello: [UInt8] = []
                Request.hello(version: 1, name: "idle\(i)").encode(into: &hello)
                _ = try s.send(hello)
                if i % 256 == 255 { try drain(timeout: 0) }
            }
            let deadline = MonotonicClock.nowMilliseconds + 30_000
            while greeted < count {
                guard MonotonicClock.nowMilliseconds < deadline else { throw BenchFailure("only \(greeted) of \(count) HELLOs answered") }
                try drain(timeout: 100)
            }
        } catch {
            FileHandle.standardError.write(Data("puzzle bench: \(error)\n".utf8))
            return 1
        }
        guard let after = ProcessSample.read(pid: pid) else { return 1 }
        let per = Double(after.residentBytes - before.residentBytes) / Double(count)
        if options.json {
            print("{\"connections\":\(count),\"rss_before_bytes\":\(before.residentBytes),\"rss_after_bytes\":\(after.residentBytes),\"bytes_per_connection\":\(Int(per))}")
        } else {
            print("\(count) idle connections: server RSS \(before.residentBytes / 1024) KiB -> \(after.residentBytes / 1024) KiB, \(fmt(per / 1024)) KiB per connection")
        }
        return 0
    }
}
