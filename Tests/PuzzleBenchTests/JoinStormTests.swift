import Testing
@testable import PuzzleBench

/// The join storm at a small scale against its in-process server: both waves
/// all in, every end check passing; and `StormClient` catching what the end
/// checks are for.
@Suite(.serialized) struct JoinStormTests {
    @Test func twentyClientsJoinDropAndRejoinWithEveryEndCheckPassing() throws {
        var o = BenchOptions()
        o.stormClients = 20
        o.stormDraggers = 2
        o.rows = 10
        o.cols = 10
        let (waves, failures) = try JoinStorm.run(o)
        #expect(failures.isEmpty, "\(failures)")
        #expect(waves.count == 2)
    }

    @Test func readsTheStormOptions() throws {
        guard case .run(let o) = try BenchOptions.parse(["--storm", "1000", "--draggers", "6"]) else { Issue.record("expected run"); return }
        #expect(o.stormClients == 1000 && o.stormDraggers == 6 && o.rows == 100 && o.cols == 100)
        guard case .run(let small) = try BenchOptions.parse(["--storm", "20", "--size", "10"]) else { Issue.record("expected run"); return }
        #expect(small.stormClients == 20 && small.rows == 10)
        #expect(throws: BenchUsageError.self) { try BenchOptions.parse(["--storm", "0"]) }
        #expect(throws: BenchUsageError.self) { try BenchOptions.parse(["--storm", "20000"]) }
        #expect(throws: BenchUsageError.self) { try BenchOptions.parse(["--draggers", "-1"]) }
    }

    func feed(_ c: inout StormClient, _ lines: [String]) {
        for l in lines { c.receive(ArraySlice(Array((l + "\n").utf8)), now: 0) }
    }

    @Test func aClientCountsItsEventsAndCatchesAGap() {
        var c = StormClient(index: 0)
        c.phase = .greeting
        feed(&c, ["OK hello version=2 id=3 name=storm0 token=0123456789abcdef0123456789abcdef server=puzzle-room",
                  "S room whatever", "OK joined storm id=3 seq=5 run=00000000000000aa"])
        #expect(c.phase == .joined && c.seq == 5 && c.token == "0123456789abcdef0123456789abcdef" && c.failure == nil)
        feed(&c, ["EV 6 grabbed 1 2", "EV 6 dragged 1 2 0 0 -", "EV 7 placed 1 2 table 0 0 0"])
        #expect(c.seq == 7 && c.failure == nil)
        // A catch-up must bring as many events as its reply says.
        c.phase = .joining
        feed(&c, ["EV 8 grabbed 2 2", "OK joined storm id=3 seq=8 run=00000000000000aa missed=2"])
        #expect(c.failure?.contains("missed=2") == true)
        var d = StormClient(index: 1)
        feed(&d, ["OK joined storm id=3 seq=5 run=00000000000000aa", "EV 7 grabbed 1 2"])
        #expect(d.failure?.contains("event seq 7 after 5") == true)
    }
}
