import PuzzleCore

/// The table view's still layer (the board with its placed pieces, and the
/// loose pieces on the table), kept from one frame to the next: with a room
/// full of players dragging, only held pieces move, so a frame redraws the
/// still layer only when something it shows changed (a drop, a grab, a
/// release, the view, the zoom, the piece filter). A memo, not state: a frame drawn with it is
/// the frame drawn without it.
public struct TableLayerCache: Sendable {
    /// Everything the still layer is drawn from. Array and picture equality
    /// first compare storage, so an unchanged board costs next to nothing to check.
    struct Key: Equatable, Sendable {
        var pieces: [PieceState]
        /// The held pieces (grips): with `parts`, every piece a hold carries.
        var held: [Int]
        /// Which pieces are joined (a join may move no piece, yet the seam goes).
        var parts: PartTable
        var puzzle: Int
        var spec: PuzzleSpec
        var seed: UInt64
        var view: Point
        var shift: Point
        var layout: SceneLayout
        var colorMode: ColorMode
        var picture: Picture?
        var hint: Bool
        var filter: TableLens.Filter
        /// The found piece, where the filter would hide it but for that.
        var found: Int?
        var faint: Bool
        var stack: TableStack
    }

    var key: Key?
    var canvas: TableCanvas?
    var loose: [(piece: Int, point: Point)] = []
    /// How many frames drew the still layer anew (for the render benchmark).
    public private(set) var redraws = 0

    public init() {}

    /// The table canvas with the still layer drawn, from the memo when it was
    /// drawn from the same things, and the loose pieces in view.
    mutating func stillLayer(_ st: RoomState, scene: Scene, layout: SceneLayout) -> (TableCanvas, [(piece: Int, point: Point)]) {
        let hint = scene.drawsHint
        // The lid's faint copy in the empty cells: where the room offers the
        // lid, and not while a filter is on (faint pieces in empty cells would
        // read as pieces the filter shows, or as placed ones it dims).
        let faint = scene.lidAllowed && !hint && scene.lens.filter == .all
        let key = Key(pieces: st.pieces, held: st.locks.keys.sorted(), parts: st.parts, puzzle: st.puzzleIndex, spec: st.spec, seed: st.settings.seed, view: scene.view, shift: scene.viewShift,
                      layout: layout, colorMode: scene.colorMode, picture: scene.picture, hint: hint, filter: scene.lens.filter,
                      found: scene.lens.found.flatMap { scene.lens.filter == .edges && $0 < st.pieceCount && !TableLens.isEdge($0, in: st) ? $0 : nil },
                      faint: faint, stack: scene.stack)
        if let canvas, self.key == key {
            var kept = canvas
            kept.lens = scene.lens
            return (kept, loose)
        }
        var fresh = TableCanvas(layout: layout, view: scene.view, shift: scene.viewShift, colorMode: scene.colorMode, showNumbers: scene.showNumbers, lens: scene.lens)
        fresh.stack = scene.stack
        fresh.drawBoard(st, picture: scene.picture, hint: hint, faint: faint)
        loose = hint ? [] : fresh.drawLoosePieces(st, picture: scene.picture)
        self.key = key
        canvas = fresh
        redraws += 1
        return (fresh, loose)
    }
}
