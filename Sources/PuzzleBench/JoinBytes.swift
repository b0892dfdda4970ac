import Foundation
import PuzzleCore
import PuzzleLink
import PuzzleProtocol

/// `puzzle bench --join-bytes`: what a JOIN costs on the wire, in bytes, for a
/// 10x10 and a 100x100 jigsaw (or `--size`), fresh and in mid-game (half the
/// pieces placed, a random half fixed by `--seed`): version 1's full
/// snapshot; version 2's compact one, with the picture's `PICTURE` reply as
/// a PNG and as a JPEG (a first join, the picture not in the client's cache)
/// and without it (the picture cached, or drawn by the client); and `LAYOUT` (what a client
/// without the core fetches once per puzzle). Every byte of every line is
/// counted, LF included, as read from a real socket.
enum JoinBytes {
    struct Row {
        var size: Int
        var state: String
        var full: Int
        var compact: Int
        var picture: Int
        var pictureJPEG: Int
        var layout: Int
    }

    static func command(_ options: BenchOptions) -> Int32 {
        let sizes = options.joinBytesSizes
        let server: BenchServer
        do { server = try BenchServer(maxConnections: 64, seed: options.seed) } catch {
            FileHandle.standardError.write(Data("puzzle bench: \(error)\n".utf8))
            return 1
        }
        defer { server.stop() }
        var rows: [Row] = []
        do {
            for n in sizes { rows += try measure(port: Int(server.port), size: n, seed: options.seed) }
        } catch {
            FileHandle.standardError.write(Data("puzzle bench: \(error)\n".utf8))
            return 1
        }
        if options.json {
            let items = rows.map { "{\"size\":\"\($0.size)x\($0.size)\",\"state\":\"\($0.state)\",\"v1_join\":\($0.full),\"v2_join\":\($0.compact),\"picture\":\($0.picture),\"picture_jpeg\":\($0.pictureJPEG),\"layout\":\($0.layout)}" }
            print("[" + items.joined(separator: ",") + "]")
        } else {
            print("JOIN bytes (every line and its LF; version 2 = compact form)")
            print("size      state    v1 JOIN   v2 JOIN  v2 + PICTURE  v2 + PICTURE jpeg   LAYOUT")
            for r in rows {
                func pad(_ t: String, _ n: Int) -> String { t + String(repeating: " ", count: max(0, n - t.count)) }
                print(pad("\(r.size)x\(r.size)", 9) + " " + pad(r.state, 6)
                      + String(format: " %9d  %8d      %8d           %8d  %7d", r.full, r.compact, r.compact + r.picture,
                                              r.compact + r.pictureJPEG, r.layout))
            }
        }
        return 0
    }

    /// Bytes of a request's reply and the `S` lines before it.
    static func bytes(_ answer: (reply: String, state: [String])) -> Int {
        answer.state.reduce(answer.reply.utf8.count + 1) { $0 + $1.utf8.count + 1 }
    }

    static func measure(port: Int, size: Int, seed: UInt64) throws -> [Row] {
        let room = "jb\(size)"
        let admin = try LineClient(port: port, name: "admin")
        defer { admin.close() }
        try admin.answer(.hello(version: 1, name: "admin"))
        try admin.answer(.create(RoomSpec(name: room, kind: .jigsaw, rows: size, cols: size)))
        func sample(_ state: String) throws -> Row {
            let one = try LineClient(port: port, name: "v1")
            let two = try LineClient(port: port, name: "v2")
            defer { one.close(); two.close() }
            try one.answer(.hello(version: 1, name: "one"))
            try two.answer(.hello(version: 2, name: "two"))
            // Raw lines: their bytes are what is measured.
            let full = try one.request(.join(room: room, password: nil))
            let compact = try two.request(.join(room: room, password: nil))
            let picture = try two.request(.picture(.png))
            let pictureJPEG = try two.request(.picture(.jpeg))
            let layout = try two.request(.layout(nil))
            for a in [full, compact, picture, pictureJPEG, layout] { _ = try LineClient.success(a.reply, to: "JOIN, PICTURE or LAYOUT") }
            // Both forms must be the same room.
            let a = try SnapshotCodec.decode(full.state.map { Substring($0) }, now: 0)
            let b = try SnapshotCodec.decode(compact.state.map { Substring($0) }, now: 0)
            guard a.state.pieces == b.state.pieces, a.picture?.contentHashHex == b.pictureHash else {
                throw BenchFailure("the compact snapshot of \(room) is not the full one's room")
            }
            try one.answer(.leave)
            try two.answer(.leave)
            return Row(size: size, state: state, full: bytes(full), compact: bytes(compact), picture: bytes(picture),
                       pictureJPEG: bytes(pictureJPEG), layout: bytes(layout))
        }
        var rows = [try sample("fresh")]
        // Mid-game: a random half of the pieces placed home.
        let joined = try admin.answer(.join(room: room, password: nil))
        let st = try SnapshotCodec.decode(joined.state.map { Substring($0) }, now: 0).state
        var rng = SeededGenerator(seed: seed)
        for piece in Array(0..<st.pieceCount).shuffled(using: &rng).prefix(st.pieceCount / 2) {
            let home = st.geometry.origin(of: st.homeCell(of: piece))
            try admin.send(.grab(piece))
            try admin.send(.drag(nil, home))
            try admin.send(.drop(nil))
            for _ in 0..<3 { _ = try LineClient.success(admin.awaitReply().reply, to: "GRAB, DRAG or DROP") }
            admin.events.removeAll()
        }
        rows.append(try sample("half"))
        return rows
    }
}
