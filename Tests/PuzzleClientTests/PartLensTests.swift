import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// Issue 28: `/find`, `/loose` and `/edges` see the pieces inside parts, and
/// the create command offers where pieces may go in (`place=own|shape`).
@Suite struct PartLensTests {
    /// `/find` of a piece in a part says so and marks that piece, in the
    /// part, wherever the part lies or is carried.
    @Test func findOfAPieceInAPartPointsAtIt() throws {
        var st = try PartViewTests.room(part: [5, 6, 9])
        var lens = TableLens()
        #expect(lens.apply(.find(6), lidAllowed: false, in: st) == ("piece 6 marked in yellow, in a part of 3 pieces (/find clears the mark)", false))
        try st.perform(.grab(piece: 9), by: PartViewTests.alice, at: 80_000)
        try st.perform(.drag(piece: 9, to: Point(x: st.position(of: 9).x - 5, y: st.position(of: 9).y)), by: PartViewTests.alice, at: 80_000)
        var scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40)
        scene.lens = lens
        let c = PartViewTests.canvas(scene)
        var canvas = c
        canvas.drawFound(st)
        // The mark rings piece 6 where the hold carries it: two pixels out (outside the holder's ring).
        let r = canvas.rect(st.position(of: 6), unit: st.geometry.unit)
        let yellow = PixelCanvas.pack(TableCanvas.foundColor)
        #expect(canvas.canvas.pixels[(r.top + 2) * canvas.canvas.width + r.right + 2] & PixelCanvas.colorMask == yellow)
        #expect(canvas.canvas.pixels[(r.top - 2) * canvas.canvas.width + r.left + 2] & PixelCanvas.colorMask == yellow)
    }

    /// `/loose` and `/edges` count the loose pieces, those in parts among them;
    /// under `/edges` a part with an edge piece shows whole.
    @Test func looseAndEdgesCountThePiecesInParts() throws {
        let st = try PartViewTests.room(part: [5, 6, 9, 10])
        var lens = TableLens()
        #expect(lens.apply(.filter(.loose), lidAllowed: false, in: st).text
                == "showing loose pieces: placed ones dimmed (/all shows every piece); 16 loose, 4 of them in 1 part")
        #expect(lens.apply(.filter(.edges), lidAllowed: false, in: st).text
                == "showing edge pieces only: the others on the table are hidden, placed ones dimmed (/all shows every piece); 12 edge pieces loose")
        // The middle four of a 4x4 are no edge pieces: that part is hidden, whole.
        #expect(!lens.showsLoose(5, in: st) && !lens.showsLoose(10, in: st))
        let edged = try PartViewTests.room(part: [1, 5, 6])
        #expect(lens.apply(.filter(.edges), lidAllowed: false, in: edged).text.hasSuffix("; 12 edge pieces loose, 1 of them in 1 part (a part with an edge piece shows whole)"))
        #expect(lens.showsLoose(5, in: edged) && lens.showsLoose(6, in: edged) && lens.showsLoose(1, in: edged))
        // Drawn whole: the interior pieces of the part are on the canvas under the filter.
        var scene = SceneFixtures.scene(edged, colorMode: .trueColor, width: 120, height: 40)
        scene.lens = lens
        let c = PartViewTests.canvas(scene)
        let r6 = c.rect(edged.position(of: 6), unit: edged.geometry.unit)
        #expect(c.canvas.owner(r6.left + 2, r6.top + 2) == 6)
    }

    /// `/create` takes `place=own|shape` and its help says what they mean.
    @Test func theCreateCommandOffersWherePiecesGoIn() throws {
        #expect(try ClientCommand.parse("create den jigsaw 10x10 place=shape")
                == .create(RoomSpec(name: "den", kind: .jigsaw, rows: 10, cols: 10, placement: .shape)))
        let help = ClientCommand.helpLines.joined(separator: "\n")
        #expect(help.contains("[place=own|shape]") && help.contains("own (the default)"))
        #expect(throws: ClientCommand.ParseError.self) { try ClientCommand.parse("create den jigsaw 10x10 place=any") }
    }
}
