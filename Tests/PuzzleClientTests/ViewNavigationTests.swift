import Testing
import PuzzleCore
@testable import PuzzleClient

/// Issue 16, finding your way on a big board: the wheel zooms about the point
/// under the pointer (the table's corners included), an overview map shows
/// where the view lies when the table does not fit, and rulers number the
/// board's rows and columns where cells are legible.
@Suite struct ViewNavigationTests {
    /// Three wheel steps in with the pointer on a corner of the table keep
    /// the table point under the pointer within a cell, also after the
    /// clamping every frame does.
    @Test(arguments: [(120, 40), (80, 24)])
    func wheelZoomKeepsTheCornerUnderThePointer(width: Int, height: Int) throws {
        let st = try TableViewTests.room(.jigsaw, 30, 30)
        let g = st.geometry
        let start = SceneLayout(width: width, height: height)
        let fitted = start.fit(table: g)
        for corner in [Point(x: 1, y: 1), Point(x: g.width - 2, y: g.height - 2), Point(x: g.width - 2, y: 1), Point(x: 1, y: g.height - 2)] {
            var layout = start.zoomed(fitted.zoom)
            var view = fitted.view
            let cell = try #require(layout.screenCell(of: corner, view: view))
            let under = try #require(layout.tablePoint(row: cell.row, column: cell.column, view: view))
            for step in 1...3 {
                let next = layout.nextZoom(in: true, table: g)
                view = layout.zoom(to: next, keeping: cell.row, cell.column, view: view, table: g)
                layout = layout.zoomed(next)
                view = layout.clamp(view, table: g)  // as every frame does
                let now = try #require(layout.tablePoint(row: cell.row, column: cell.column, view: view), "step \(step): the pointer left the view")
                #expect(abs(now.x - under.x) <= g.unit && abs(now.y - under.y) <= g.unit,
                        "\(width)x\(height) corner \(corner) step \(step) at \(layout.zoom): \(under) moved to \(now)")
            }
        }
    }
}
