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

    @Test(arguments: ["sunset", "quilt"])
    func neighbouringPiecesDifferVisibly(_ name: String) throws {
        // Not just different averages but visibly different: some channel moves by several levels.
        let picture = try #require(Picture.builtin(name, width: 200, height: 200))
        let averages = Self.pieceAverages(picture, rows: 10, cols: 10)
        func distance(_ a: RGB, _ b: RGB) -> Int {
            max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
        }
        for row in 0..<10 {
            for col in 0..<10 {
                let here = averages[row * 10 + col]
                if col < 9 { #expect(distance(here, averages[row * 10 + col + 1]) >= 4, "\(name) \(row),\(col) right") }
                if row < 9 { #expect(distance(here, averages[(row + 1) * 10 + col]) >= 4, "\(name) \(row),\(col) below") }
            }
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
}
