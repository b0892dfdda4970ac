import Testing
@testable import PuzzleCore

@Suite struct PictureScalingTests {
    private let black = RGB(r: 0, g: 0, b: 0)
    private let white = RGB(r: 255, g: 255, b: 255)
    private let red = RGB(r: 200, g: 0, b: 0)
    private let blue = RGB(r: 0, g: 0, b: 100)

    @Test func twoColourPictureShrinksToItsAverage() throws {
        let picture = try Picture(width: 4, height: 2) { x, _ in x < 2 ? red : blue }
        let one = picture.scaled(width: 1, height: 1)
        #expect(one.width == 1 && one.height == 1)
        #expect(one.pixels == [RGB(r: 100, g: 0, b: 50)])
        let checker = try Picture(width: 2, height: 2, pixels: [black, white, white, black])
        #expect(checker.scaled(width: 1, height: 1).pixels == [RGB(r: 128, g: 128, b: 128)])
    }

    @Test func identityReturnsTheSamePicture() throws {
        let picture = try #require(Picture.builtin("sunset", width: 31, height: 17))
        #expect(picture.scaled(width: 31, height: 17) == picture)
    }

    @Test func shrinkingAveragesBoxes() throws {
        // 4x1 -> 2x1: each output pixel is the mean of two source pixels.
        let picture = try Picture(width: 4, height: 1, pixels: [black, white, red, blue])
        #expect(picture.scaled(width: 2, height: 1).pixels == [RGB(r: 128, g: 128, b: 128), RGB(r: 100, g: 0, b: 50)])
        // Uneven 3 -> 2: boxes [0, 1) and [1, 3).
        let three = try Picture(width: 3, height: 1, pixels: [red, black, white])
        #expect(three.scaled(width: 2, height: 1).pixels == [red, RGB(r: 128, g: 128, b: 128)])
    }

    @Test func enlargingRepeatsNearestPixels() throws {
        let picture = try Picture(width: 2, height: 1, pixels: [red, blue])
        let wide = picture.scaled(width: 4, height: 2)
        #expect(wide.pixels == [red, red, blue, blue, red, red, blue, blue])
        let odd = picture.scaled(width: 3, height: 1)
        #expect(odd.pixels == [red, red, blue])
    }

    @Test func mixedDirectionsAndDeterminism() throws {
        let picture = try #require(Picture.builtin("rings", width: 120, height: 30))
        let result = picture.scaled(width: 40, height: 90)
        #expect(result.width == 40 && result.height == 90 && result.pixels.count == 3600)
        #expect(result == picture.scaled(width: 40, height: 90))
        // Column 0 of the result averages source columns 0..<3 of the nearest source row.
        let expected = picture.averageColor(in: PixelRect(x: 0, y: 10 * 30 / 90, width: 3, height: 1))
        #expect(result[x: 0, y: 10] == expected)
    }

    @Test func shrunkBuiltinStaysCloseToDirectRendering() throws {
        // Box-filtering a big rendering approximates a small one: no shifts or mirror images.
        let big = try #require(Picture.builtin("sunset", width: 240, height: 160))
        let small = try #require(Picture.builtin("sunset", width: 24, height: 16))
        let shrunk = big.scaled(width: 24, height: 16)
        // Scenes have sharp edges, so single pixels may differ; each piece of a
        // 4x4 cut must still look the same: fine detail (waves, grain) is point-sampled
        // at 24x16 and averaged when shrunk, so within 32 levels, far below what a
        // shift or a mirror image of the scene would give.
        for row in 0..<4 {
            for col in 0..<4 {
                let rect = PixelRect(x: col * 6, y: row * 4, width: 6, height: 4)
                let a = shrunk.averageColor(in: rect), b = small.averageColor(in: rect)
                #expect(abs(Int(a.r) - Int(b.r)) <= 32 && abs(Int(a.g) - Int(b.g)) <= 32 && abs(Int(a.b) - Int(b.b)) <= 32, "piece \(row),\(col): \(a) vs \(b)")
            }
        }
    }
}
