import Testing
import PuzzleCore
@testable import PuzzleClient

/// The still-layer memo (issue 11, frames stay cheap) never changes what is
/// drawn: through a game's worth of changes every frame drawn with the memo is
/// the frame drawn without it, and the memo redraws only when the still layer
/// changed.
@Suite struct TableLayerCacheTests {
    @Test func framesWithTheMemoAreTheFramesWithoutIt() throws {
        var st = try SceneFixtures.twoDrags(kind: .jigsaw, rows: 4, cols: 4)
        var scene = SceneFixtures.scene(st, colorMode: .trueColor, width: 120, height: 40)
        var cache = TableLayerCache()
        var redrawsExpected = 0
        func check(_ what: String, stillChanged: Bool) {
            scene.state = st
            let memo = SceneRenderer.render(scene, cache: &cache)
            #expect(memo == SceneRenderer.render(scene), "\(what): the memo drew another frame")
            if stillChanged { redrawsExpected += 1 }
            #expect(cache.redraws == redrawsExpected, "\(what): still layer redrawn \(cache.redraws) times, expected \(redrawsExpected)")
        }
        check("first frame", stillChanged: true)
        check("the same frame again", stillChanged: false)
        let g = st.geometry
        var events: [RoomEvent] = []
        let alicePiece = try #require(st.players[SceneFixtures.alice]?.holding.first)
        try st.perform(.drag(piece: alicePiece, to: g.origin(of: Cell(row: 3, col: 3))), by: SceneFixtures.alice, at: 1, into: &events)
        check("a drag", stillChanged: false)
        try st.perform(.drop(piece: alicePiece), by: SceneFixtures.alice, at: 2, into: &events)
        check("a drop", stillChanged: true)
        let free = try #require((0..<st.pieceCount).first { st.isFree($0) && st.pieces[$0].location.cell == nil })
        try st.perform(.grab(piece: free), by: SceneFixtures.alice, at: 3, into: &events)
        check("a grab off the table", stillChanged: true)
        try st.perform(.release(piece: free), by: SceneFixtures.alice, at: 4, into: &events)
        check("a release", stillChanged: true)
        scene.view = Point(x: scene.view.x + 1, y: scene.view.y)
        check("a pan", stillChanged: true)
        scene.zoom = TableZoom.levels[0]
        check("a zoom", stillChanged: true)
        scene.showNumbers.toggle()
        check("numbers toggled", stillChanged: false)
        scene.showHint = true
        check("the hint", stillChanged: true)
        scene.showHint = false
        check("the hint gone", stillChanged: true)
        scene.lens.filter = .edges
        check("the edge filter", stillChanged: true)
        scene.lens.found = 4
        check("an edge piece found", stillChanged: false)
        scene.lens.found = 5
        check("an interior piece found: drawn despite the filter", stillChanged: true)
        scene.lidAllowed = true
        check("the lid offered under a filter: no faint copy", stillChanged: false)
        scene.lens.filter = .all
        check("every piece again, and the lid's faint copy", stillChanged: true)
        scene.lens.lid = 2
        check("the lid open", stillChanged: false)
        scene.colorMode = .plain
        check("plain colours", stillChanged: true)
        scene.colorMode = .palette256
        check("256 colours", stillChanged: true)
        // Another room of the same size and puzzle: other pieces, another cut.
        st = try SceneFixtures.twoDrags(kind: .jigsaw, rows: 4, cols: 4, seed: 99)
        check("another room", stillChanged: true)
    }
}
