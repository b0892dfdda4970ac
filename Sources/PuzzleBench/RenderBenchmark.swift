import Foundation
import PuzzleClient
import PuzzleLink
import PuzzleCore
import PuzzleProtocol
import PuzzleSystem

/// `puzzle bench --render`: the full-screen client's frame cost with no
/// network. A room mirror (the core's `RoomState`) of a `--size` N×N jigsaw with
/// `--bots` players each dragging a piece one step a frame; every frame is
/// drawn as the client draws it (scene to frame with its still-layer memo,
/// frame to bytes against the last one) on a 200x60 terminal fitted to the
/// whole table. Three runs: drags only (the still layer is reused), one
/// drop and one grab every frame (the still layer is redrawn every frame: the
/// worst case, a room dropping faster than the client draws), and a part of
/// half the board held and dragged about its place (every piece of it moving,
/// every cell it would land in bracketed: `measurePart`).
enum RenderBenchmark {
    static let width = 200
    static let height = 60
    /// The client draws at most this many frames a second (`InteractiveRunner.frameInterval`).
    static let framesPerSecond = 30

    enum IntakeError: Error { case notJoined }

    struct Run {
        var frames = 0
        var median = 0.0
        var p99 = 0.0
        var bytesPerFrame = 0
        var stillRedraws = 0
        /// Frames where the held part had a drop target (`measurePart`).
        var targeted = 0
    }

    static func command(_ options: BenchOptions) -> Int32 {
        do {
            let spec = try PuzzleSpec(kind: .jigsaw, rows: options.coreSize, cols: options.coreSize)
            let side = min(256, max(32, 8 * max(spec.rows, spec.cols)))
            let picture = Picture.builtin(spec.picture, width: max(spec.cols, side), height: max(spec.rows, side))
            for moving in [false, true] {
                let run = try measure(spec: spec, picture: picture, options: options, dropEveryFrame: moving)
                let what = moving ? "a drop and a grab every frame" : "drags only"
                let players = min(options.bots, spec.rows * spec.cols)
                print(String(format: "render %dx%d jigsaw, %d players dragging, %@, %dx%d terminal: %d frames, median %.3f ms, p99 %.3f ms, still layer drawn %d times, %d bytes a frame, %d bytes/s at %d frames/s",
                             spec.rows, spec.cols, players, what, width, height, run.frames, run.median, run.p99, run.stillRedraws,
                             run.bytesPerFrame, run.bytesPerFrame * framesPerSecond, framesPerSecond))
            }
            // Half the board joined into one part, held and dragged about its own place.
            if spec.kind == .jigsaw, spec.rows >= 2 {
                let run = try measurePart(spec: spec, picture: picture, options: options)
                print(String(format: "render %dx%d jigsaw, a %d-piece part held and dragged about its place (every cell bracketed), %dx%d terminal: %d frames, median %.3f ms, p99 %.3f ms, still layer drawn %d times, %d bytes a frame, a target in %d frames",
                             spec.rows, spec.cols, partPieces(spec), width, height, run.frames, run.median, run.p99, run.stillRedraws, run.bytesPerFrame, run.targeted))
            }
            let intake = try measureIntake(spec: spec, options: options)
            print(String(format: "client intake: %.0f event lines/s into the session (mirror, drop targets, messages), median of 5 passes over %d lines of %d players dragging",
                         intake.linesPerSecond, intake.lines, min(options.bots, spec.rows * spec.cols)))
            let framing = measureFraming(spec: spec, options: options)
            print(String(format: "client framing: %.0f lines/s from received bytes to lines (LineConnection: a read into its buffer, LineFramer.split in place, one String a line); %.0f lines/s the way it was (a scratch read, an array, LineFramer, an array a line, then its String), median of 5 passes over %d lines",
                         framing.linesPerSecond, framing.oldLinesPerSecond, framing.lines))
            return 0
        } catch {
            FileHandle.standardError.write(Data("puzzle bench --render: \(error)\n".utf8))
            return 1
        }
    }

    static func measure(spec: PuzzleSpec, picture: Picture?, options: BenchOptions, dropEveryFrame: Bool) throws -> Run {
        var st = RoomState(settings: RoomSettings(first: spec, seed: options.seed))
        let players = min(options.bots, st.pieceCount)
        for i in 1...players { try st.perform(.join(name: "p\(i)"), by: PlayerID(i), at: 0) }
        // Each player takes a piece (its own, spread over the table).
        for i in 1...players { try st.perform(.grab(piece: (i - 1) * st.pieceCount / players), by: PlayerID(i), at: 0) }
        let fitted = SceneLayout(width: width, height: height).fit(table: st.geometry)
        var renderer = FrameRenderer(colorMode: .trueColor)
        var cache = TableLayerCache()
        var rng = SeededGenerator(seed: options.seed)
        var times: [Double] = []
        var bytes = 0
        let deadline = MonotonicClock.nowNanoseconds + UInt64(options.coreSeconds * 1e9)
        var frame = 0
        while MonotonicClock.nowNanoseconds < deadline || frame < 10 {
            frame += 1
            var events: [RoomEvent] = []
            try dragEveryone(&st, players: players, rng: &rng, at: Int64(frame), into: &events)
            if dropEveryFrame {
                // One player lets go where it is and takes another free piece.
                let player = PlayerID(1 + frame % players)
                if let piece = st.players[player]?.holding.first {
                    try st.perform(.drop(piece: piece), by: player, at: Int64(frame))
                }
                if let next = st.randomFreePiece(using: &rng) { try st.perform(.grab(piece: next), by: player, at: Int64(frame)) }
            }
            let start = MonotonicClock.nowNanoseconds
            let scene = Scene(width: width, height: height, colorMode: .trueColor, room: "bench", state: st, picture: picture,
                              myID: PlayerID(1), names: [:], view: fitted.view, zoom: fitted.zoom, now: Int64(frame))
            let out = renderer.render(SceneRenderer.render(scene, cache: &cache))
            times.append(Double(MonotonicClock.nowNanoseconds - start) / 1e6)
            bytes += out.count
        }
        times.sort()
        return Run(frames: times.count, median: times[times.count / 2], p99: times[min(times.count - 1, times.count * 99 / 100)],
                   bytesPerFrame: bytes / max(1, times.count), stillRedraws: cache.redraws)
    }

    /// The pieces of the part `measurePart` holds: the board's top half (5,000 of a 100x100).
    static func partPieces(_ spec: PuzzleSpec) -> Int { spec.rows / 2 * spec.cols }

    /// One player holds a part of the board's top half, lying loose over its
    /// own place, and drags it a unit a frame about there (within 6 units,
    /// so that a drop would put it in: every one of its cells is bracketed);
    /// every frame drawn as `measure` draws it.
    static func measurePart(spec: PuzzleSpec, picture: Picture?, options: BenchOptions) throws -> Run {
        let base = RoomState(settings: RoomSettings(first: spec, seed: options.seed))
        let g = base.geometry, o = g.boardOrigin
        let members = Array(0..<partPieces(spec))
        // Every piece of the part a unit off its cell (loose over the board), the others where they start.
        var pieces = base.pieces
        for m in members {
            let cell = g.cell(at: m)
            pieces[m] = PieceState(location: .table(Point(x: o.x + cell.col * g.unit + 1, y: o.y + cell.row * g.unit + 1)))
        }
        var st = try RoomState(settings: base.settings, puzzleIndex: 0, spec: spec, pieces: pieces, parts: [members], locks: [:],
                               players: [:], seq: 0, elapsed: 0, clockRunning: false, solveMillis: nil, now: 0)
        let player = PlayerID(1)
        try st.perform(.join(name: "p1"), by: player, at: 0)
        // Held by a piece in its middle.
        let grip = members[members.count / 2 + spec.cols / 2]
        try st.perform(.grab(piece: grip), by: player, at: 0)
        let home = g.origin(of: g.cell(at: grip))
        let fitted = SceneLayout(width: width, height: height).fit(table: st.geometry)
        var renderer = FrameRenderer(colorMode: .trueColor)
        var cache = TableLayerCache()
        var rng = SeededGenerator(seed: options.seed)
        var times: [Double] = []
        var bytes = 0
        let deadline = MonotonicClock.nowNanoseconds + UInt64(options.coreSeconds * 1e9)
        var frame = 0, targeted = 0
        while MonotonicClock.nowNanoseconds < deadline || frame < 10 {
            frame += 1
            guard let lock = st.locks[grip] else { break }
            let step = Int(rng.next() % 4)
            let to = Point(x: min(max(home.x - 6, lock.point.x + [1, -1, 0, 0][step]), home.x + 6),
                           y: min(max(home.y - 6, lock.point.y + [0, 0, 1, -1][step]), home.y + 6))
            try st.perform(.drag(piece: grip, to: to), by: player, at: Int64(frame))
            if st.locks[grip]?.target != nil { targeted += 1 }
            let start = MonotonicClock.nowNanoseconds
            let scene = Scene(width: width, height: height, colorMode: .trueColor, room: "bench", state: st, picture: picture,
                              myID: player, names: [:], view: fitted.view, zoom: fitted.zoom, now: Int64(frame))
            let out = renderer.render(SceneRenderer.render(scene, cache: &cache))
            times.append(Double(MonotonicClock.nowNanoseconds - start) / 1e6)
            bytes += out.count
        }
        times.sort()
        return Run(frames: times.count, median: times[times.count / 2], p99: times[min(times.count - 1, times.count * 99 / 100)],
                   bytesPerFrame: bytes / max(1, times.count), stillRedraws: cache.redraws, targeted: targeted)
    }

    /// How fast the client's session takes in a busy room's event lines: a
    /// joined session is fed the `dragged` lines of every player dragging, as
    /// the server encodes them. A member of a room sending more than this a
    /// second would fall behind.
    static func measureIntake(spec: PuzzleSpec, options: BenchOptions) throws -> (linesPerSecond: Double, lines: Int) {
        var st = RoomState(settings: RoomSettings(first: spec, seed: options.seed))
        let players = min(options.bots, st.pieceCount)
        for i in 1...players { try st.perform(.join(name: "p\(i)"), by: PlayerID(i), at: 0) }
        for i in 1...players { try st.perform(.grab(piece: (i - 1) * st.pieceCount / players), by: PlayerID(i), at: 0) }
        var joinLines: [UInt8] = []
        ReplyCodec.encode(.hello(version: 2, player: PlayerID(1), name: "p1", token: String(repeating: "0", count: 32)), into: &joinLines)
        SnapshotCodec.encode(RoomSnapshot(name: "bench", state: st, picture: nil), now: 0, extended: true, into: &joinLines)
        ReplyCodec.encode(.joined(room: "bench", player: PlayerID(1), seq: st.seq), into: &joinLines)
        // The lines a member receives while everyone drags: 2,000 steps each.
        var rng = SeededGenerator(seed: options.seed)
        var lines: [UInt8] = []
        var events: [RoomEvent] = []
        for step in 0..<2_000 {
            events.removeAll(keepingCapacity: true)
            try dragEveryone(&st, players: players, rng: &rng, at: Int64(step), into: &events)
            for e in events { EventCodec.encode(e, into: &lines) }
        }
        let split = lines.split(separator: 10).map { Substring(String(decoding: $0, as: UTF8.self)) }
        let joinSplit = joinLines.split(separator: 10).map { Substring(String(decoding: $0, as: UTF8.self)) }
        var rates: [Double] = []
        for _ in 0..<5 {
            var session = ClientSession(name: "p1", room: "bench")
            // As the full screen has it (`PlayApp`): drags are not told as lines.
            session.tellsDrags = false
            session.connected(now: 0)
            _ = session.takeOutgoing()
            for line in joinSplit { session.receive(line, now: 0) }
            guard session.state != nil else { throw IntakeError.notJoined }
            let start = MonotonicClock.nowNanoseconds
            for (k, line) in split.enumerated() {
                session.receive(line, now: Int64(k))
                // The runner drains the messages after each read.
                if k & 63 == 0 { _ = session.takeOutput() }
            }
            rates.append(Double(split.count) / (Double(MonotonicClock.nowNanoseconds - start) / 1e9))
        }
        rates.sort()
        return (rates[rates.count / 2], split.count)
    }

    /// How fast received bytes become lines: the drag lines of `measureIntake`'s
    /// room arriving in 64 KB reads, split in place by `LineFramer.split` as
    /// `LineConnection` reads them and, for comparison, the way the connection
    /// did before (each read copied into an array, appended to a `LineFramer`,
    /// each line taken out as an array and decoded from it).
    static func measureFraming(spec: PuzzleSpec, options: BenchOptions) -> (linesPerSecond: Double, oldLinesPerSecond: Double, lines: Int) {
        var st = RoomState(settings: RoomSettings(first: spec, seed: options.seed))
        let players = min(options.bots, st.pieceCount)
        var bytes: [UInt8] = []
        var rng = SeededGenerator(seed: options.seed)
        do {
            for i in 1...players { try st.perform(.join(name: "p\(i)"), by: PlayerID(i), at: 0) }
            for i in 1...players { try st.perform(.grab(piece: (i - 1) * st.pieceCount / players), by: PlayerID(i), at: 0) }
            var events: [RoomEvent] = []
            for step in 0..<2_000 {
                events.removeAll(keepingCapacity: true)
                try dragEveryone(&st, players: players, rng: &rng, at: Int64(step), into: &events)
                for e in events { EventCodec.encode(e, into: &bytes) }
            }
        } catch {
            return (0, 0, 0)
        }
        let readSize = LineConnection.readSize
        let reads = stride(from: 0, to: bytes.count, by: readSize).map { bytes[$0..<min(bytes.count, $0 + readSize)] }
        func median(_ pass: () -> Int) -> (Double, Int) {
            var rates: [Double] = []
            var count = 0
            for _ in 0..<5 {
                let start = MonotonicClock.nowNanoseconds
                count = pass()
                rates.append(Double(count) / (Double(MonotonicClock.nowNanoseconds - start) / 1e9))
            }
            return (rates.sorted()[2], count)
        }
        let (now, lines) = median {
            var framer = LineFramer(maxLineLength: 1 << 16)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 16)
            defer { buffer.deallocate() }
            var count = 0
            for read in reads {
                // The socket's read, into the connection's buffer.
                read.withUnsafeBytes { buffer.copyMemory(from: $0) }
                framer.split(UnsafeRawBufferPointer(rebasing: buffer[..<read.count])) { span in
                    if case .line(let line) = span { count += String(decoding: line, as: UTF8.self).utf8.count > 0 ? 1 : 0 }
                    return true
                }
            }
            return count
        }
        let (before, _) = median {
            var framer = LineFramer(maxLineLength: 1 << 16)
            var chunk: [UInt8] = []
            var count = 0
            for read in reads {
                chunk.removeAll(keepingCapacity: true)
                read.withUnsafeBytes { raw in
                    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 1)
                    defer { scratch.deallocate() }
                    scratch.copyMemory(from: raw)
                    chunk.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<raw.count]))
                }
                framer.append(chunk)
                while let frame = framer.next() {
                    if case .line(let line) = frame { count += String(decoding: line, as: UTF8.self).utf8.count > 0 ? 1 : 0 }
                }
            }
            return count
        }
        return (now, before, lines)
    }

    /// Every player (ids 1...players) drags the piece it holds one unit in a
    /// random direction, kept on the table; the events go to `events`.
    static func dragEveryone(_ st: inout RoomState, players: Int, rng: inout SeededGenerator, at time: Int64,
                             into events: inout [RoomEvent]) throws {
        let g = st.geometry
        for i in 1...players {
            guard let piece = st.players[PlayerID(i)]?.holding.first, let lock = st.locks[piece] else { continue }
            let step = Int(rng.next() % 4)
            let to = Point(x: min(max(0, lock.point.x + [1, -1, 0, 0][step]), g.width - g.unit),
                           y: min(max(0, lock.point.y + [0, 0, 1, -1][step]), g.height - g.unit))
            try st.perform(.drag(piece: piece, to: to), by: PlayerID(i), at: time, into: &events)
        }
    }
}
