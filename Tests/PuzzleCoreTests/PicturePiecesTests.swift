import Testing
@testable import PuzzleCore

@Suite struct PicturePiecesTests {
    private static func flat(width: Int, height: Int) -> Picture {
        try! Picture(width: width, height: height, pixels: Array(repeating: RGB(r: 1, g: 2, b: 3), count: width * height))
    }

    /// Every pixel is covered exactly once and every piece is non-empty.
    private static func expectExactTiling(width: Int, height: Int, rows: Int, cols: Int,
                                          sourceLocation: SourceLocation = #_sourceLocation) {
        let picture = flat(width: width, height: height)
        var cover = Array(repeating: 0, count: width * height)
        for row in 0..<rows {
            for col in 0..<cols {
                let rect = picture.rect(row: row, col: col, rows: rows, cols: cols)
                #expect(!rect.isEmpty, "empty piece \(row),\(col) of \(rows)x\(cols) on \(width)x\(height)",
                        sourceLocation: sourceLocation)
                for y in rect.y..<(rect.y + rect.height) {
                    for x in rect.x..<(rect.x + rect.width) {
                        cover[y * width + x] += 1
                    }
                }
            }
        }
        #expect(cover.allSatisfy { $0 == 1 }, "\(rows)x\(cols) on \(width)x\(height) does not tile exactly",
                sourceLocation: sourceLocation)
    }

    @Test func evenCutIsRegular() {
        let picture = Self.flat(width: 200, height: 100)
        #expect(picture.rect(row: 0, col: 0, rows: 4, cols: 5) == PixelRect(x: 0, y: 0, width: 40, height: 25))
        #expect(picture.rect(row: 3, col: 4, rows: 4, cols: 5) == PixelRect(x: 160, y: 75, width: 40, height: 25))
        #expect(picture.rect(row: 1, col: 2, rows: 4, cols: 5) == PixelRect(x: 80, y: 25, width: 40, height: 25))
    }

    @Test func unevenCutUsesFloorBoundaries() {
        let picture = Self.flat(width: 10, height: 7)
        // Column boundaries floor(i*10/3) = 0, 3, 6, 10; rows floor(j*7/2) = 0, 3, 7.
        #expect(picture.rect(row: 0, col: 0, rows: 2, cols: 3) == PixelRect(x: 0, y: 0, width: 3, height: 3))
        #expect(picture.rect(row: 0, col: 1, rows: 2, cols: 3) == PixelRect(x: 3, y: 0, width: 3, height: 3))
        #expect(picture.rect(row: 1, col: 2, rows: 2, cols: 3) == PixelRect(x: 6, y: 3, width: 4, height: 4))
    }

    @Test(arguments: [
        (10, 7, 2, 3), (101, 99, 7, 9), (17, 13, 13, 17), (2, 2, 2, 2), (333, 211, 100, 100), (100, 100, 100, 100),
        (250, 150, 37, 23),
    ])
    func tilesExactly(_ size: (Int, Int, Int, Int)) {
        Self.expectExactTiling(width: size.0, height: size.1, rows: size.2, cols: size.3)
    }

    @Test func hundredByHundredOn200PixelsGivesTwoPixelPieces() {
        let picture = Self.flat(width: 200, height: 200)
        for row in 0..<100 {
            for col in 0..<100 {
                let rect = picture.rect(row: row, col: col, rows: 100, cols: 100)
                #expect(rect.width == 2 && rect.height == 2)
            }
        }
        Self.expectExactTiling(width: 200, height: 200, rows: 100, cols: 100)
    }

    @Test func averageColorRoundsAndClips() throws {
        let picture = try Picture(width: 2, height: 2, pixels: [
            RGB(r: 0, g: 10, b: 255), RGB(r: 255, g: 11, b: 255),
            RGB(r: 0, g: 10, b: 0), RGB(r: 255, g: 10, b: 0),
        ])
        // r: 510/4 = 127.5 -> 128; g: 41/4 = 10.25 -> 10; b: 510/4 -> 128.
        #expect(picture.averageColor(in: PixelRect(x: 0, y: 0, width: 2, height: 2)) == RGB(r: 128, g: 10, b: 128))
        #expect(picture.averageColor(in: PixelRect(x: 1, y: 0, width: 1, height: 1)) == RGB(r: 255, g: 11, b: 255))
        #expect(picture.averageColor(in: PixelRect(x: 0, y: 1, width: 2, height: 1)) == RGB(r: 128, g: 10, b: 0))
        // Partly outside: only the inside pixel counts.
        #expect(picture.averageColor(in: PixelRect(x: 1, y: 1, width: 5, height: 5)) == RGB(r: 255, g: 10, b: 0))
        #expect(picture.averageColor(in: PixelRect(x: 0, y: 0, width: 0, height: 2)) == RGB(r: 0, g: 0, b: 0))
        #expect(picture.averageColor(in: PixelRect(x: 5, y: 5, width: 2, height: 2)) == RGB(r: 0, g: 0, b: 0))
    }
}
