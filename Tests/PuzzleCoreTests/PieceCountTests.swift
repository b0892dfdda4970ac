import Testing
@testable import PuzzleCore

/// `CREATE den jigsaw 100`: a piece count is cut to the picture's shape (issue 18).
@Suite struct PieceCountTests {
    @Test func aSquarePictureGetsASquareBoard() {
        #expect(PuzzleSpec.size(forPieces: 100, aspectWidth: 1, aspectHeight: 1) == (10, 10))
        #expect(PuzzleSpec.size(forPieces: 4, aspectWidth: 500, aspectHeight: 500) == (2, 2))
    }

    @Test func aLandscapePhotoGetsMoreColumnsAndAPortraitOneMoreRows() {
        #expect(PuzzleSpec.size(forPieces: 100, aspectWidth: 4000, aspectHeight: 3000) == (9, 12))
        #expect(PuzzleSpec.size(forPieces: 100, aspectWidth: 37, aspectHeight: 45) == (11, 9))
    }

    @Test func theSidesStayInRange() {
        let wide = PuzzleSpec.size(forPieces: 10_000, aspectWidth: 100, aspectHeight: 1)
        #expect(PuzzleSpec.sizeRange.contains(wide.rows) && PuzzleSpec.sizeRange.contains(wide.cols) && wide.cols == 100)
        #expect(PuzzleSpec.size(forPieces: 10_000, aspectWidth: 1, aspectHeight: 1) == (100, 100))
    }
}
