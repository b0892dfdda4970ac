import Foundation
import PuzzleCore
import PuzzleProtocol
import PuzzleServer
import PuzzleSystem
import PuzzleTestSupport

/// Starting inputs for each target, so the fuzzer mutates realistic data
/// instead of discovering the formats from nothing: the sessions in
/// `Protocol/examples`, the shipped config and picture, and the lines, snapshots
/// and room files of a short seeded game played through the real code.
public enum FuzzSeeds {
    public static func seeds(for target: FuzzTarget, repository: String) -> [(name: String, bytes: [UInt8])] {
        let examples = exampleLines(repository)
        var seeds: [[UInt8]]
        switch target {
        case .request:
            let sent = examples.flatMap { $0.sent }
            seeds = sent + SampleGame.play().requests.map { Array($0.line.utf8) }
        case .framer:
            // Byte 0 is the line limit, byte 1 seeds the read sizes (see FramerCheck).
            seeds = examples.enumerated().map { i, example in
                [UInt8(16 + 8 * i), UInt8(i)] + example.sent.joined(separator: [UInt8(ascii: "\n")]) + [UInt8(ascii: "\n")]
            }
            seeds.append([8, 1] + Array("PING\r\nwaytoolongline\r\n\r\nPING 2\n\rx".utf8))
        case .event:
            seeds = SampleGame.play().eventLines.map { Array($0.utf8) }
                + examples.flatMap(\.received).filter { $0.starts(with: Array("EV ".utf8)) }
        case .snapshot:
            seeds = SampleGame.play().snapshots.map { Array($0.joined(separator: "\n").utf8) }
        case .ppm:
            seeds = pictureFiles(repository)
            for name in Picture.builtinNames {
                if let picture = Picture.builtin(name, width: 6, height: 3) {
                    seeds += [picture.ppmP6(), picture.ppmP3()]
                }
            }
            seeds.append(Array("P6\n# two-byte samples\n1 2\n65535\n".utf8) + [0, 1, 255, 255, 128, 0, 0, 0, 0, 0, 0, 9])
        case .web:
            seeds = WebCheck.seeds
        case .config:
            seeds = [readFile(repository + "/Config/puzzle.conf")].compactMap { $0 }
            seeds.append(Array("port = 0\nroom = a swap 2x2\nroom = b jigsaw 3x5 rotation=on password=x#y # note\npicture = p pic.ppm\n".utf8))
        case .roomSpec:
            let conf = readFile(repository + "/Config/puzzle.conf").map { String(decoding: $0, as: UTF8.self) } ?? ""
            let confRooms = conf.split(separator: "\n").filter { $0.hasPrefix("room") }.compactMap { $0.split(separator: "=", maxSplits: 1).last }
            seeds = (examples.flatMap(\.rooms) + confRooms.map { Array($0.utf8) })
            seeds.append(Array("vault swap 100x2 password=s3cr=t picture=quilt".utf8))
        case .store:
            seeds = SampleGame.play().storeFiles
        case .png:
            seeds = imageFixtures(repository, ext: ".png")
        case .jpeg:
            seeds = imageFixtures(repository, ext: ".jpg")
        case .telnet:
            seeds = TelnetCheck.seeds
        }
        var seen = Set<[UInt8]>()
        return seeds.filter { seen.insert($0).inserted }.enumerated().map { ("seed-\(target.rawValue)-\($0.offset)", $0.element) }
    }

    /// What one example session sends and expects, line by line.
    struct ExampleLines {
        var sent: [[UInt8]] = []
        var received: [[UInt8]] = []
        var rooms: [[UInt8]] = []
    }

    static func exampleLines(_ repository: String) -> [ExampleLines] {
        let directory = repository + "/Protocol/examples"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".txt") }.sorted()
        return names.compactMap { readFile(directory + "/" + $0) }.map { bytes in
            var example = ExampleLines()
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                if line.hasPrefix("@room ") {
                    example.rooms.append(Array(line.dropFirst(6).utf8))
                } else if let marker = line.dropFirst().first, line.first?.isLetter == true {
                    let content = line.dropFirst(2).drop { $0 == " " }
                    if marker == ">" { example.sent.append(decodeEscapes(content)) }
                    if marker == "<" || marker == "~" { example.received.append(Array(content.utf8)) }
                }
            }
            return example
        }
    }

    /// `\xNN` and `\\` as the transcripts write bytes that are not text.
    static func decodeEscapes(_ text: Substring) -> [UInt8] {
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let b = bytes.popFirst() {
            if b == UInt8(ascii: "\\"), bytes.first == UInt8(ascii: "x"), bytes.count >= 3,
               let value = UInt8(String(decoding: bytes.dropFirst().prefix(2), as: UTF8.self), radix: 16) {
                out.append(value)
                bytes = bytes.dropFirst(3)
            } else if b == UInt8(ascii: "\\"), bytes.first == UInt8(ascii: "\\") {
                out.append(b)
                bytes = bytes.dropFirst()
            } else {
                out.append(b)
            }
        }
        return out
    }

    static func pictureFiles(_ repository: String) -> [[UInt8]] {
        let directory = repository + "/Config/pictures"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".ppm") }.sorted()
        return names.compactMap { readFile(directory + "/" + $0) }
    }

    /// The decoders' reference files (small files from standard encoders);
    /// not the 1 Mpx one, whose every mutation would take milliseconds.
    static func imageFixtures(_ repository: String, ext: String) -> [[UInt8]] {
        let directory = repository + "/Tests/PuzzleImagesTests/Fixtures"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(ext) }.sorted()
        return names.compactMap { readFile(directory + "/" + $0) }.filter { $0.count <= 16 * 1024 }
    }

    static func readFile(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }
}

/// A short seeded game on a jigsaw board with rotation and on a swap board,
/// through the real rules and codecs and a real room store.
enum SampleGame {
    struct Output {
        var requests: [Request] = []
        var eventLines: [String] = []
        var snapshots: [[String]] = []
        var storeFiles: [[UInt8]] = []
    }

    static func play() -> Output {
        var output = Output()
        let specs = [
            (try? PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3, rotation: true, picture: "sunset"), 11 as UInt64),
            (try? PuzzleSpec(kind: .swap, rows: 2, cols: 3, picture: "quilt"), 12),
        ]
        for (spec, seed) in specs {
            guard let spec else { continue }
            play(RoomSettings(first: spec, leaseMillis: 500, maxHeld: 2, seed: seed), into: &output)
        }
        return output
    }

    private static func play(_ settings: RoomSettings, into output: inout Output) {
        let name = "room\(settings.seed)"
        var room = RoomState(settings: settings)
        var rng = SeededGenerator(seed: settings.seed)
        var events: [RoomEvent] = []
        var time: Int64 = 0
        let players = [PlayerID(1), PlayerID(2)]
        for p in players { try? room.perform(.join(name: "player\(p.rawValue)"), by: p, at: time, into: &events) }

        let directory = NSTemporaryDirectory() + "puzzle-fuzz-seeds-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try? RoomStore(directory: directory, fsync: .never, snapshotEvery: 0)
        try? store?.create(StoredRoom(snapshot: RoomSnapshot(name: name, state: room, picture: nil), password: settings.seed % 2 == 0 ? "pass word" : nil), now: time)

        let picture = Picture.builtin(settings.first.picture, width: 6, height: 4)
        for step in 0..<400 {
            time += Int64(rng.next() % 60)
            room.expireLeases(at: time, into: &events)
            let player = players[Int(rng.next() % 2)]
            let action = RandomActions.next(for: player, in: room, using: &rng)
            if let request = request(for: action) { output.requests.append(request) }
            try? room.perform(action, by: player, at: time, into: &events)
            if room.isSolved { try? room.perform(.next, by: player, at: time, into: &events) }
            if step % 50 == 25 {
                output.snapshots.append(SnapshotCodec.lines(RoomSnapshot(name: name, state: room, picture: picture), now: time))
                // And the compact form version 2 clients read (ranges, the picture's hash).
                output.snapshots.append(SnapshotCodec.lines(RoomSnapshot(name: name, state: room, picture: picture), now: time,
                                                            layout: true, compact: true))
            }
            if let store {
                try? store.append(room: name, events: events)
                _ = try? store.commit()
                if step % 100 == 60 {
                    try? store.snapshot(StoredRoom(snapshot: RoomSnapshot(name: name, state: room, picture: nil), password: nil), now: time)
                }
                if step % 100 == 99 {
                    output.storeFiles.append(roomFiles(directory + "/rooms/" + name))
                }
            }
            output.eventLines += events.map(EventCodec.line)
            events.removeAll()
        }
        output.eventLines.append(String(decoding: EventCodec.encodeSay(seq: room.seq, player: PlayerID(1), text: " hi  there "), as: UTF8.self))
        store?.close()
    }

    /// The room's files joined by NUL bytes, as StoreCheck reads its input.
    private static func roomFiles(_ directory: String) -> [UInt8] {
        var out: [UInt8] = []
        for (i, name) in StoreCheck.fileNames.enumerated() {
            if i > 0 { out.append(0) }
            out += FuzzSeeds.readFile(directory + "/" + name) ?? []
        }
        return out
    }

    private static func request(for action: Action) -> Request? {
        switch action {
        case .grab(let piece): return .grab(piece)
        case .drag(let piece, let to): return .drag(piece, to)
        case .rotate(let piece): return .rotate(piece)
        case .drop(let piece): return .drop(piece)
        case .release(let piece): return .release(piece)
        case .hint: return .hint
        case .next: return .next
        default: return nil
        }
    }
}
