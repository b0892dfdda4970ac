import Testing
@testable import PuzzleBench

@Suite struct BenchOptionsTests {
    @Test func defaultsFollowTheIssue() throws {
        guard case .run(let o) = try BenchOptions.parse([]) else { Issue.record("expected run"); return }
        #expect(o.bots == 100 && o.rooms == 1 && o.steps == 8)
        #expect(o.duration == 10 && o.warmup == 2)
        #expect(o.kind == .jigsaw && o.rows == 20 && o.cols == 20)
        #expect(o.server == nil && !o.core && !o.webSocket)
        guard case .run(let w) = try BenchOptions.parse(["--websocket"]) else { Issue.record("expected run"); return }
        #expect(w.webSocket)
    }

    @Test func readsEveryOption() throws {
        let args = ["--bots", "1000", "--rooms", "10", "--steps", "4", "--rate", "90000", "--duration", "3", "--warmup", "0.5",
                    "--kind", "swap", "--size", "30x40", "--seed", "9", "--server", "127.0.0.1:7171", "--json", "--server-pid", "42"]
        guard case .run(let o) = try BenchOptions.parse(args) else { Issue.record("expected run"); return }
        #expect(o.bots == 1000 && o.rooms == 10 && o.steps == 4)
        #expect(o.rate == .perSecond(90_000))
        #expect(o.duration == 3 && o.warmup == 0.5)
        #expect(o.kind == .swap && o.rows == 30 && o.cols == 40)
        #expect(o.seed == 9 && o.json && o.serverPID == 42)
        #expect(o.serverEndpoint?.host == "127.0.0.1" && o.serverEndpoint?.port == 7171)
        guard case .run(let c) = try BenchOptions.parse(["--core", "--size", "50", "--seconds", "1", "--rate", "max"]) else { return }
        #expect(c.core && c.coreSize == 50 && c.coreSeconds == 1 && c.rate == .max)
    }

    @Test func readsHowTheBotsPlay() throws {
        guard case .run(let d) = try BenchOptions.parse([]) else { Issue.record("expected run"); return }
        #expect(d.play == .pieces && d.carrySize == 8)
        guard case .run(let o) = try BenchOptions.parse(["--play", "parts", "--carry", "20"]) else { Issue.record("expected run"); return }
        #expect(o.play == .parts && o.carrySize == 20)
        for args in [["--play", "chess"], ["--play"], ["--carry", "0"], ["--play", "parts", "--kind", "swap"]] {
            #expect(throws: BenchUsageError.self, "\(args)") { try BenchOptions.parse(args) }
        }
        // --play carry: a part a bot (1: single pieces), every part on the board's rows.
        guard case .run(let c) = try BenchOptions.parse(["--play", "carry", "--carry", "1", "--size", "50"]) else { Issue.record("expected run"); return }
        #expect(c.play == .carry && c.carrySize == 1)
        guard case .run(let c8) = try BenchOptions.parse(["--play", "carry", "--size", "50"]) else { Issue.record("expected run"); return }
        #expect(c8.play == .carry && c8.carrySize == 8)
        // 100 bots' parts of 8 need 5 a row on 39 rows: not on the default 20x20,
        // nor with 2 bots' parts of 60 across 50 columns.
        for args in [["--play", "carry"], ["--play", "carry", "--carry", "60", "--size", "50", "--bots", "2"],
                     ["--play", "carry", "--kind", "swap", "--size", "50"]] {
            #expect(throws: BenchUsageError.self, "\(args)") { try BenchOptions.parse(args) }
        }
    }

    @Test func readsTheJoinBytesOptions() throws {
        guard case .run(let o) = try BenchOptions.parse(["--join-bytes"]) else { Issue.record("expected run"); return }
        #expect(o.joinBytes && o.joinBytesSizes == [10, 100])
        guard case .run(let one) = try BenchOptions.parse(["--join-bytes", "--size", "30", "--json"]) else { Issue.record("expected run"); return }
        #expect(one.joinBytes && one.joinBytesSizes == [30] && one.json)
        #expect(throws: BenchUsageError.self) { try BenchOptions.parse(["--join-bytes", "--size", "10x20"]) }
    }

    @Test func readsTheDecodeOptions() throws {
        guard case .run(let o) = try BenchOptions.parse(["--decode", "photo.jpg", "--runs", "9", "--ppm", "/tmp/out.ppm"]) else {
            Issue.record("expected run")
            return
        }
        #expect(o.decodeFile == "photo.jpg" && o.decodeRuns == 9 && o.decodeOutput == "/tmp/out.ppm")
        #expect(throws: BenchUsageError.self) { try BenchOptions.parse(["--decode", "a.png", "--runs", "0"]) }
        #expect(throws: BenchUsageError.self) { try BenchOptions.parse(["--decode"]) }
    }

    @Test func refusesNonsense() throws {
        for args in [["--bots"], ["--bots", "0"], ["--rate", "-5"], ["--size", "1x5"], ["--kind", "chess"],
                     ["--server", "nohost"], ["--frobnicate"], ["--bots", "2", "--rooms", "3"]] {
            #expect(throws: BenchUsageError.self, "\(args)") { try BenchOptions.parse(args) }
        }
        #expect(try BenchOptions.parse(["--help"]) == .help)
    }
}
