import Testing
@testable import PuzzleCore

@Suite struct PictureBuiltinTests {
    /// Average colours of the `rows` × `cols` piece rectangles, row-major.
    private static func pieceAverages(_ picture: Picture, rows: Int, cols: Int) -> [RGB] {
        var colours: [RGB] = []
        for row in 0..<rows {
            for col in 0..<cols {
                colours.append(picture.averageColor(in: picture.rect(row: row, col: col, rows: rows, cols: cols)))
            }
        }
        return colours
    }

    @Test func namesAreListedAndUnique() {
        #expect(Picture.builtinNames.count >= 4)
        #expect(Set(Picture.builtinNames).count == Picture.builtinNames.count)
        for name in ["sunset", "rings", "quilt", "waves"] {
            #expect(Picture.builtinNames.contains(name))
        }
    }

    @Test func unknownNameAndBadSizesGiveNil() {
        #expect(Picture.builtin("nope", width: 10, height: 10) == nil)
        #expect(Picture.builtin("Sunset", width: 10, height: 10) == nil)
        #expect(Picture.builtin("sunset", width: 0, height: 10) == nil)
        #expect(Picture.builtin("sunset", width: 10, height: -1) == nil)
        #expect(Picture.builtin("sunset", width: Picture.maxSide + 1, height: 1) == nil)
        #expect(Picture.builtin("sunset", width: Picture.maxSide, height: Picture.maxSide) == nil)
    }

    @Test(arguments: Picture.builtinNames)
    func sizedAndDeterministic(_ name: String) throws {
        for (width, height) in [(1, 1), (2, 3), (64, 48), (37, 91)] {
            let picture = try #require(Picture.builtin(name, width: width, height: height))
            #expect(picture.width == width && picture.height == height)
            #expect(picture.pixels.count == width * height)
            #expect(Picture.builtin(name, width: width, height: height) == picture)
        }
    }

    @Test(arguments: Picture.builtinNames)
    func picturesDifferFromEachOtherAndAreNotFlat(_ name: String) throws {
        let picture = try #require(Picture.builtin(name, width: 60, height: 40))
        #expect(Set(picture.pixels).count > 100, "\(name) has too few colours")
        for other in Picture.builtinNames where other != name {
            #expect(Picture.builtin(other, width: 60, height: 40) != picture)
        }
    }

    @Test(arguments: Picture.builtinNames)
    func tenByTenPiecesHaveDistinctAverages(_ name: String) throws {
        for (width, height) in [(200, 200), (100, 100), (320, 180), (150, 210)] {
            let picture = try #require(Picture.builtin(name, width: width, height: height))
            let averages = Self.pieceAverages(picture, rows: 10, cols: 10)
            #expect(Set(averages).count == 100, "\(name) at \(width)x\(height): repeated piece colours")
        }
    }

    @Test func hundredPieceCutOfBuiltinIsValid() throws {
        let picture = try #require(Picture.builtin("quilt", width: 200, height: 200))
        for row in 0..<100 {
            for col in 0..<100 {
                let rect = picture.rect(row: row, col: col, rows: 100, cols: 100)
                #expect(rect.width >= 2 && rect.height >= 2)
            }
        }
    }

    /// Mean per-pixel difference between two equally sized piece rectangles:
    /// (|dr| + |dg| + |db|) / 3 averaged over the pixels, in levels of 0...255.
    /// Pixel by pixel, so it sees structure (a window, a wave crest) as well as colour.
    private static func pieceDistance(_ picture: Picture, _ a: PixelRect, _ b: PixelRect) -> Double {
        var total = 0
        for dy in 0..<a.height {
            for dx in 0..<a.width {
                let p = picture[x: a.x + dx, y: a.y + dy], q = picture[x: b.x + dx, y: b.y + dy]
                total += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
            }
        }
        return Double(total) / Double(3 * a.width * a.height)
    }

    /// No two pieces look alike, at the size the server renders (8 pixels a piece side).
    ///
    /// Threshold 6 levels. Measured minimums over all pairs (4x4 / 8x8 / 16x16 boards):
    /// - old gradients: sunset 10.28 / 3.97 / 1.89, rings 22.78 / 6.90 / 1.66,
    ///   quilt 36.22 / 33.34 / 0.89, waves 28.07 / 15.66 / 3.91: all fail at 16x16.
    /// - scenes: sunset 23.67 / 12.10 / 8.17, rings 38.11 / 12.32 / 7.50,
    ///   quilt 18.85 / 10.07 / 10.68, waves 36.05 / 14.25 / 9.23.
    @Test(arguments: Picture.builtinNames)
    func noTwoPiecesLookAlike(_ name: String) throws {
        for side in [4, 8, 16] {
            let picture = try #require(Picture.builtin(name, width: 8 * side, height: 8 * side))
            var rects: [PixelRect] = []
            for row in 0..<side {
                for col in 0..<side { rects.append(picture.rect(row: row, col: col, rows: side, cols: side)) }
            }
            var minimum = Double.infinity
            for i in rects.indices {
                for j in rects.indices where j > i {
                    minimum = min(minimum, Self.pieceDistance(picture, rects[i], rects[j]))
                }
            }
            #expect(minimum >= 6, "\(name) \(side)x\(side): two pieces differ by only \(minimum) levels")
        }
    }

    /// Every picture draws at the extreme sizes without trapping (indices from
    /// coordinates are clamped, so the last row and column never read past a table).
    @Test(arguments: Picture.builtinNames)
    func drawsAtTheLargestSizes(_ name: String) throws {
        // The full 4096x4096 (maxPixelCount) takes minutes per picture in a debug build,
        // so the longest sides stand in for it: every clamp sees its largest index.
        for (width, height) in [(Picture.maxSide, 2), (2, Picture.maxSide), (800, 800), (6, 4), (6, 3)] {
            let picture = try #require(Picture.builtin(name, width: width, height: height), "\(name) \(width)x\(height)")
            #expect(picture.pixels.count == width * height)
        }
    }
}
