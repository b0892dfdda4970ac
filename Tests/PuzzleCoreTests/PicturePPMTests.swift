import Testing
@testable import PuzzleCore

@Suite struct PicturePPMTests {
    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    private static let sample = try! Picture(width: 3, height: 2, pixels: [
        RGB(r: 255, g: 0, b: 0), RGB(r: 0, g: 255, b: 0), RGB(r: 0, g: 0, b: 255),
        RGB(r: 10, g: 32, b: 13), RGB(r: 0, g: 0, b: 0), RGB(r: 255, g: 255, b: 255),
    ])

    @Test func p6RoundTrip() throws {
        let encoded = Self.sample.ppmP6()
        #expect(Array(encoded.prefix(15)) == Self.bytes("P6\n3 2\n255\n") + [255, 0, 0, 0])
        #expect(try Picture(ppm: encoded) == Self.sample)
        let builtin = try #require(Picture.builtin("waves", width: 41, height: 17))
        #expect(try Picture(ppm: builtin.ppmP6()) == builtin)
    }

    @Test func p3RoundTrip() throws {
        #expect(try Picture(ppm: Self.sample.ppmP3()) == Self.sample)
        let builtin = try #require(Picture.builtin("rings", width: 19, height: 29))
        #expect(try Picture(ppm: builtin.ppmP3()) == builtin)
    }

    @Test func p3WithCommentsEverywhere() throws {
        let text = """
        P3# magic then comment
        # a full comment line
          3 # width
        2
        # max
        255
        255 0 0   0 255 0 # first row continues
        0 0 255
        10 32 13 0 0 0
        # last pixel next
        255 255 255
        """
        #expect(try Picture(ppm: Self.bytes(text)) == Self.sample)
    }

    @Test func p6WithCommentsAndCRLFInHeader() throws {
        let header = Self.bytes("P6\r\n#c1\r\n3 #c2\n 2\t255\n")
        let body = Self.sample.pixels.flatMap { [$0.r, $0.g, $0.b] }
        #expect(try Picture(ppm: header + body) == Self.sample)
    }

    @Test func p6KeepsWhitespaceLikeRasterBytes() throws {
        // The raster starts with bytes that are whitespace and '#'; exactly one
        // separator after maxval means they are pixels, not header.
        let body: [UInt8] = [0x20, 0x0a, 0x23, 0x09, 0x0d, 0x20]
        let picture = try Picture(ppm: Self.bytes("P6 2 1 255\n") + body)
        #expect(picture.pixels == [RGB(r: 0x20, g: 0x0a, b: 0x23), RGB(r: 0x09, g: 0x0d, b: 0x20)])
        // A comment right after maxval ends with the single separator.
        let commented = try Picture(ppm: Self.bytes("P6 2 1 255#note\n") + body)
        #expect(commented == picture)
    }

    @Test func sixteenBitP6IsBigEndianAndRounded() throws {
        // maxval 65535: 0xffff -> 255, 0x8080 -> 128, 0x0080 (128) -> 0.498 -> 0, 0x0081 -> 1 (rounded half up at 128.5)
        let body: [UInt8] = [0xff, 0xff, 0x80, 0x80, 0x00, 0x80,
                             0x00, 0x81, 0x00, 0x00, 0x7f, 0xff]
        let picture = try Picture(ppm: Self.bytes("P6\n2 1\n65535\n") + body)
        #expect(picture.pixels == [RGB(r: 255, g: 128, b: 0), RGB(r: 1, g: 0, b: 127)])
    }

    @Test func sixteenBitAndSmallMaxvalP3Scale() throws {
        let wide = try Picture(ppm: Self.bytes("P3 1 1 1000 1000 500 2"))
        #expect(wide.pixels == [RGB(r: 255, g: 128, b: 1)])
        let tiny = try Picture(ppm: Self.bytes("P3 2 1 1 1 0 1 0 1 0"))
        #expect(tiny.pixels == [RGB(r: 255, g: 0, b: 255), RGB(r: 0, g: 255, b: 0)])
        let three = try Picture(ppm: Self.bytes("P6 1 1 3\n") + [0, 1, 2])
        #expect(three.pixels == [RGB(r: 0, g: 85, b: 170)])
    }

    @Test func trailingDataIsIgnored() throws {
        let picture = try Picture(ppm: Self.sample.ppmP6() + Self.bytes("P6 1 1 255\n") + [1, 2, 3])
        #expect(picture == Self.sample)
    }

    @Test(arguments: ["P5 1 1 255\n\0", "P7", "p6 1 1 255\n", "GIF89a", "P63 1 255\n", "\u{FEFF}P3 1 1 255 0 0 0", "X"])
    func badMagic(_ text: String) {
        #expect(throws: PictureError.badMagic) { try Picture(ppm: Self.bytes(text)) }
    }

    @Test(arguments: ["", "P", "P6", "P6 ", "P6 3", "P6 3 2", "P6 3 2 # comment only", "P6 3 2 255", "P3 3 2 255 # nothing"])
    func truncatedHeader(_ text: String) {
        #expect(throws: PictureError.truncated) { try Picture(ppm: Self.bytes(text)) }
    }

    @Test func truncatedBody() {
        let full = Self.sample.ppmP6()
        #expect(throws: PictureError.truncated) { try Picture(ppm: Array(full.dropLast())) }
        #expect(throws: PictureError.truncated) {
            try Picture(ppm: Self.bytes("P6 1 1 65535\n") + [0, 0, 0, 0, 0])
        }
        let ascii = Self.bytes("P3 2 1 255 1 2 3 4 5")
        #expect(throws: PictureError.truncated) { try Picture(ppm: ascii) }
        #expect((try? Picture(ppm: ascii + Self.bytes(" 6"))) != nil)
        // Long enough in bytes, but padded with comments: must still run out cleanly.
        #expect(throws: PictureError.truncated) {
            try Picture(ppm: Self.bytes("P3 1 1 255 1 2 # padding padding padding"))
        }
    }

    @Test func nonNumbers() {
        #expect(throws: PictureError.badNumber("abc")) { try Picture(ppm: Self.bytes("P6 abc 2 255\n")) }
        #expect(throws: PictureError.badNumber("-3")) { try Picture(ppm: Self.bytes("P6 -3 2 255\n")) }
        #expect(throws: PictureError.badNumber("3x")) { try Picture(ppm: Self.bytes("P6 3x 2 255\n")) }
        #expect(throws: PictureError.badNumber("2.5")) { try Picture(ppm: Self.bytes("P6 3 2.5 255\n")) }
        #expect(throws: PictureError.badNumber("12345678901234")) {
            try Picture(ppm: Self.bytes("P6 12345678901234 2 255\n"))
        }
        #expect(throws: PictureError.badNumber("zz")) { try Picture(ppm: Self.bytes("P3 1 1 255 1 zz 3")) }
        // A P6 header must be followed by whitespace before the raster.
        #expect(throws: PictureError.badNumber("255xyz")) { try Picture(ppm: Self.bytes("P6 1 1 255xyz")) }
    }

    @Test func maxValueOutOfRange() {
        #expect(throws: PictureError.maxValueOutOfRange(0)) { try Picture(ppm: Self.bytes("P6 1 1 0\n\0\0\0")) }
        #expect(throws: PictureError.maxValueOutOfRange(70000)) {
            try Picture(ppm: Self.bytes("P6 1 1 70000\n") + [0, 0, 0, 0, 0, 0])
        }
        #expect(throws: PictureError.maxValueOutOfRange(65536)) { try Picture(ppm: Self.bytes("P3 1 1 65536 0 0 0")) }
        #expect((try? Picture(ppm: Self.bytes("P3 1 1 65535 0 0 0"))) != nil)
    }

    @Test func samplesAboveMaxValue() {
        #expect(throws: PictureError.sampleOutOfRange(256)) { try Picture(ppm: Self.bytes("P3 1 1 255 0 256 0")) }
        #expect(throws: PictureError.sampleOutOfRange(200)) { try Picture(ppm: Self.bytes("P6 1 1 100\n") + [0, 200, 0]) }
    }

    @Test func sizeLimitsAreCheckedBeforeTheBody() {
        #expect(throws: PictureError.sizeOutOfRange(width: 0, height: 2)) { try Picture(ppm: Self.bytes("P6 0 2 255\n")) }
        #expect(throws: PictureError.sizeOutOfRange(width: 2, height: 0)) { try Picture(ppm: Self.bytes("P3 2 0 255\n")) }
        // No body at all: the size must be refused, not reported as truncation.
        #expect(throws: PictureError.sizeOutOfRange(width: 100_000, height: 100_000)) {
            try Picture(ppm: Self.bytes("P6 100000 100000 255\n"))
        }
        #expect(throws: PictureError.tooLarge(width: 8192, height: 8192)) {
            try Picture(ppm: Self.bytes("P6 8192 8192 255\n"))
        }
        // Allowed size, missing body: truncated, found without allocating the picture.
        #expect(throws: PictureError.truncated) { try Picture(ppm: Self.bytes("P6 4096 4096 255\n")) }
        #expect(throws: PictureError.truncated) { try Picture(ppm: Self.bytes("P3 4096 4096 255\n1 2 3")) }
    }
}
