import Testing
@testable import PuzzleCore

@Suite struct PictureRGBTests {
    @Test func hexIsSixLowercaseDigits() {
        #expect(RGB(r: 0, g: 0, b: 0).hex == "000000")
        #expect(RGB(r: 255, g: 16, b: 10).hex == "ff100a")
        #expect(RGB(r: 0x12, g: 0xab, b: 0xcd).hex == "12abcd")
    }

    @Test func hexParsesBothCasesAndRoundTrips() {
        #expect(RGB(hex: "12abcd") == RGB(r: 0x12, g: 0xab, b: 0xcd))
        #expect(RGB(hex: "12ABCD") == RGB(r: 0x12, g: 0xab, b: 0xcd))
        for value in stride(from: 0, through: 255, by: 17) {
            let colour = RGB(r: UInt8(value), g: UInt8(255 - value), b: UInt8(value / 3))
            #expect(RGB(hex: colour.hex) == colour)
        }
    }

    @Test(arguments: ["", "12345", "1234567", "#12345", "12345g", "gg0000", " 12345", "12 456"])
    func hexRefusesMalformed(_ text: String) {
        #expect(RGB(hex: text) == nil)
    }
}

@Suite struct PictureValueTests {
    private let red = RGB(r: 255, g: 0, b: 0)
    private let blue = RGB(r: 0, g: 0, b: 255)

    @Test func pixelsAreRowMajor() throws {
        let picture = try Picture(width: 3, height: 2, colour: { x, y in RGB(r: UInt8(x), g: UInt8(y), b: 7) })
        #expect(picture.pixels.count == 6)
        #expect(picture[x: 2, y: 0] == RGB(r: 2, g: 0, b: 7))
        #expect(picture[x: 0, y: 1] == RGB(r: 0, g: 1, b: 7))
        #expect(picture.pixels[1 * 3 + 2] == picture[x: 2, y: 1])
    }

    @Test func initValidatesPixelCount() {
        #expect(throws: PictureError.pixelCountMismatch(expected: 4, actual: 3)) {
            try Picture(width: 2, height: 2, pixels: [red, red, blue])
        }
        #expect((try? Picture(width: 2, height: 2, pixels: [red, red, blue, blue])) != nil)
    }

    @Test func initValidatesSize() {
        #expect(throws: PictureError.sizeOutOfRange(width: 0, height: 1)) {
            try Picture(width: 0, height: 1, pixels: [])
        }
        #expect(throws: PictureError.sizeOutOfRange(width: 1, height: Picture.maxSide + 1)) {
            try Picture(width: 1, height: Picture.maxSide + 1, pixels: [])
        }
        #expect(throws: PictureError.tooLarge(width: Picture.maxSide, height: Picture.maxSide)) {
            try Picture(width: Picture.maxSide, height: Picture.maxSide, pixels: [])
        }
    }

    @Test func errorCodesAreDistinctAndMessagesNonEmpty() {
        let errors: [PictureError] = [
            .badMagic, .truncated, .badNumber("x"), .maxValueOutOfRange(0), .sampleOutOfRange(300),
            .sizeOutOfRange(width: 0, height: 0), .tooLarge(width: 8192, height: 8192),
            .pixelCountMismatch(expected: 1, actual: 2), .rowCountMismatch(expected: 1, actual: 2), .badHexRow(3),
        ]
        #expect(Set(errors.map(\.code)).count == errors.count)
        #expect(errors.allSatisfy { !$0.message.isEmpty })
        #expect(PictureError.truncated.code == "PPM_TRUNCATED")
        #expect(PictureError.badNumber("abc").message.contains("abc"))
    }

    @Test func hexRowsRoundTrip() throws {
        let picture = try Picture(width: 3, height: 2, pixels: [
            red, blue, RGB(r: 1, g: 2, b: 3),
            RGB(r: 0xaa, g: 0xbb, b: 0xcc), red, red,
        ])
        let rows = picture.hexRows()
        #expect(rows == ["ff00000000ff010203", "aabbccff0000ff0000"])
        #expect(try Picture(width: 3, height: 2, hexRows: rows) == picture)
        let builtin = try #require(Picture.builtin("quilt", width: 37, height: 23))
        #expect(try Picture(width: 37, height: 23, hexRows: builtin.hexRows()) == builtin)
    }

    @Test func hexRowsRefuseMalformed() {
        #expect(throws: PictureError.rowCountMismatch(expected: 2, actual: 1)) {
            try Picture(width: 1, height: 2, hexRows: ["ff0000"])
        }
        #expect(throws: PictureError.badHexRow(1)) {
            try Picture(width: 1, height: 2, hexRows: ["ff0000", "ff000"])
        }
        #expect(throws: PictureError.badHexRow(0)) {
            try Picture(width: 2, height: 1, hexRows: ["ff0000zz0000"])
        }
        #expect(throws: PictureError.sizeOutOfRange(width: 0, height: 1)) {
            try Picture(width: 0, height: 1, hexRows: [""])
        }
    }
}
