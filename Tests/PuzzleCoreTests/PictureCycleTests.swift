import Testing
@testable import PuzzleCore

/// Each next puzzle takes another of the room's pictures (issue 16, spoiler
/// 7), in an order fixed by the room's seed, unless the room fixed its picture.
@Suite struct PictureCycleTests {
    static let library = ["sunset", "rings", "quilt", "waves", "harbor"]

    static func settings(seed: UInt64 = 11, cycles: Bool = true, pictures: [String] = library) throws -> RoomSettings {
        RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 4, cols: 4, picture: "rings"), seed: seed,
                     cyclesPictures: cycles, pictures: pictures)
    }

    @Test func everyPuzzleShowsAnotherPictureThanTheOneBefore() throws {
        let s = try Self.settings()
        let shown = (0..<12).map(s.picture(forPuzzle:))
        #expect(shown[0] == "rings")
        for i in 1..<shown.count { #expect(shown[i] != shown[i - 1], "\(shown)") }
        // Every picture comes round within one cycle.
        #expect(Set(shown.prefix(Self.library.count)) == Set(Self.library))
    }

    @Test func theOrderIsFixedByTheSeed() throws {
        let a = try Self.settings(seed: 11), b = try Self.settings(seed: 11)
        #expect((0..<10).map(a.picture(forPuzzle:)) == (0..<10).map(b.picture(forPuzzle:)))
        // The library's order does not matter, only its names.
        let c = try Self.settings(seed: 11, pictures: Self.library.reversed())
        #expect((0..<10).map(a.picture(forPuzzle:)) == (0..<10).map(c.picture(forPuzzle:)))
        // Some other seed orders them otherwise.
        let orders = Set((1...20).map { seed in (0..<5).map((try! Self.settings(seed: seed)).picture(forPuzzle:)) })
        #expect(orders.count > 1)
    }

    @Test func aFixedRoomOrOneWithoutOtherPicturesKeepsItsPicture() throws {
        let fixed = try Self.settings(cycles: false)
        #expect((0..<6).map(fixed.picture(forPuzzle:)) == Array(repeating: "rings", count: 6))
        let alone = try Self.settings(pictures: ["rings"])
        #expect((0..<6).map(alone.picture(forPuzzle:)) == Array(repeating: "rings", count: 6))
        let none = try Self.settings(pictures: [])
        #expect(none.picture(forPuzzle: 3) == "rings")
    }

    @Test func nextTakesTheCyclesPicture() throws {
        var room = RoomState(settings: try Self.settings())
        try room.perform(.join(name: "alice"), by: PlayerID(1), at: 0)
        var pictures = [room.spec.picture]
        for n in 1...3 {
            for piece in 0..<room.pieceCount { _ = try room.move(piece, to: room.homeCell(of: piece), by: PlayerID(1), at: Int64(n)) }
            #expect(room.isSolved)
            let events = try room.perform(.next, by: PlayerID(1), at: Int64(n))
            guard case .nextPuzzle(n, let spec) = events.last?.body else { Issue.record("no next: \(events)"); return }
            #expect(spec.picture == room.settings.picture(forPuzzle: n) && room.spec.picture == spec.picture)
            #expect(spec.picture != pictures.last)
            pictures.append(spec.picture)
        }
    }
}
