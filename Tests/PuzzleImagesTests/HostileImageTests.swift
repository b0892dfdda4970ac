import Testing
import PuzzleCore
@testable import PuzzleImages

/// Damaged, truncated and hostile files: each ends in a typed `ImageError`
/// that names the problem, never a trap, a hang or a huge allocation.
@Suite struct HostileImageTests {
    /// A PNG made of `chunks`, each with a correct CRC (so only what we mean to break is broken).
    static func png(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, data) in chunks {
            let n = UInt32(data.count)
            out += [UInt8(n >> 24), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)]
            let body = Array(type.utf8) + data
            out += body
            let crc = CRC32.checksum(body)
            out += [UInt8(crc >> 24), UInt8(crc >> 16 & 255), UInt8(crc >> 8 & 255), UInt8(crc & 255)]
        }
        return out
    }

    static func ihdr(width: UInt32, height: UInt32, depth: UInt8 = 8, type: UInt8 = 2, interlace: UInt8 = 0) -> (String, [UInt8]) {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        return ("IHDR", be(width) + be(height) + [depth, type, 0, 0, interlace])
    }

    /// A zlib stream of stored blocks holding `raw`, with its Adler-32.
    static func zlibStored(_ raw: [UInt8], adler: UInt32? = nil) -> [UInt8] {
        let n = raw.count
        var out: [UInt8] = [0x78, 0x01, 0x01, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8(~n >> 8 & 255)] + raw
        let a = adler ?? raw.withUnsafeBufferPointer { Adler32.checksum($0) }
        out += [UInt8(a >> 24), UInt8(a >> 16 & 255), UInt8(a >> 8 & 255), UInt8(a & 255)]
        return out
    }

    static func error(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) -> ImageError? {
        do { _ = try ImageDecoder.decode(bytes, limits: limits); return nil } catch { return error }
    }

    @Test func aHandMadePNGDecodes() throws {
        // 2x1 RGB, filter 0: red, blue. The builder itself must be right for the tests below to mean anything.
        let file = Self.png([Self.ihdr(width: 2, height: 1), ("IDAT", Self.zlibStored([0, 255, 0, 0, 0, 0, 255])), ("IEND", [])])
        let image = try ImageDecoder.decode(file)
        #expect(image.rgb == [255, 0, 0, 0, 0, 255])
    }

    @Test func hugeDimensionsAreRefusedBeforeAllocating() {
        let png = Self.png([Self.ihdr(width: 100_000, height: 100_000), ("IDAT", Self.zlibStored([0])), ("IEND", [])])
        #expect(Self.error(png) == .tooManyPixels(.png, width: 100_000, height: 100_000, limit: ImageLimits.defaultMaxPixels))
        let zero = Self.png([Self.ihdr(width: 0, height: 5), ("IEND", [])])
        #expect(Self.error(zero) == .badSize(.png, width: 0, height: 5))
        // A JPEG frame of 65535x65535 in a few bytes.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0xFF, 0xFF, 0xFF, 0xFF, 1, 1, 0x11, 0, 0xFF, 0xD9]
        #expect(Self.error(jpeg) == .tooManyPixels(.jpeg, width: 65535, height: 65535, limit: ImageLimits.defaultMaxPixels))
    }

    @Test func limitsAreConfigurable() throws {
        let file = try FixtureFiles.bytes("png-rgb8.png")
        #expect(Self.error(file, limits: ImageLimits(maxPixels: 23 * 19 - 1)) == .tooManyPixels(.png, width: 23, height: 19, limit: 23 * 19 - 1))
        #expect(Self.error(file, limits: ImageLimits(maxPixels: 23 * 19)) == nil)
        #expect(Self.error(file, limits: ImageLimits(maxFileBytes: file.count - 1)) == .fileTooLarge(bytes: file.count, limit: file.count - 1))
        let jpeg = try FixtureFiles.bytes("jpeg-baseline-420.jpg")
        #expect(Self.error(jpeg, limits: ImageLimits(maxPixels: 100)) == .tooManyPixels(.jpeg, width: 45, height: 37, limit: 100))
    }

    /// Every proper prefix of real files is refused with a typed error.
    @Test(arguments: ["png-rgb8.png", "png-palette4-trns-adam7.png", "png-rgba16-adam7.png", "jpeg-baseline-420.jpg",
                      "jpeg-progressive-420.jpg", "jpeg-restart-420.jpg", "jpeg-exif-6.jpg"])
    func everyTruncationIsAnError(_ file: String) throws {
        let bytes = try FixtureFiles.bytes(file)
        #expect(Self.error(bytes) == nil)
        var kinds = Set<String>()
        for length in 0 ..< bytes.count {
            guard let error = Self.error(Array(bytes[..<length])) else {
                Issue.record("\(file) cut to \(length) of \(bytes.count) bytes decoded")
                continue
            }
            kinds.insert(error.code)
        }
        #expect(kinds.contains("IMAGE_TRUNCATED"), "\(kinds)")
    }

    /// Every single-byte change is either decoded or refused: no trap, no hang.
    @Test(arguments: ["png-grey2-adam7.png", "jpeg-baseline-422.jpg", "jpeg-progressive-444.jpg", "jpeg-restart-420.jpg"])
    func everyFlippedByteIsSafe(_ file: String) throws {
        let bytes = try FixtureFiles.bytes(file)
        var refused = 0
        for i in 0 ..< bytes.count {
            for mask: UInt8 in [0x01, 0xFF] {
                var damaged = bytes
                damaged[i] ^= mask
                if Self.error(damaged) != nil { refused += 1 }
            }
        }
        #expect(refused > 0)
    }

    @Test func pngChecksAreNamed() throws {
        var bytes = try FixtureFiles.bytes("png-rgb8.png")
        bytes[60] ^= 1   // inside IDAT
        #expect(Self.error(bytes)?.code == "IMAGE_BAD_CHECKSUM")
        let raw: [UInt8] = [0, 1, 2, 3, 4, 5, 6]
        let badAdler = Self.png([Self.ihdr(width: 2, height: 1), ("IDAT", Self.zlibStored(raw, adler: 12345)), ("IEND", [])])
        #expect(Self.error(badAdler) == .badChecksum(.png, "zlib Adler-32 of the image data"))
        let short = Self.png([Self.ihdr(width: 3, height: 1), ("IDAT", Self.zlibStored(raw)), ("IEND", [])])
        #expect(Self.error(short) == .damaged(.png, "image data holds 7 bytes, the picture needs 10"))
        let badFilter = Self.png([Self.ihdr(width: 2, height: 1), ("IDAT", Self.zlibStored([7, 1, 2, 3, 4, 5, 6])), ("IEND", [])])
        #expect(Self.error(badFilter) == .damaged(.png, "filter type 7 on row 0"))
        // Block type 3 (final bit 1, type bits 11) right after the zlib header.
        let badBlock = Self.png([Self.ihdr(width: 2, height: 1), ("IDAT", [0x78, 0x01, 0x07, 0, 0, 0, 0]), ("IEND", [])])
        #expect(Self.error(badBlock) == .damaged(.png, "deflate block type 3"))
        // A fixed-Huffman block whose first code is a back-reference (length 3, distance 1) with nothing before it.
        let farBack = Self.png([Self.ihdr(width: 2, height: 1), ("IDAT", [0x78, 0x01, 0x03, 0x02, 0, 0, 0, 0, 0]), ("IEND", [])])
        #expect(Self.error(farBack) == .damaged(.png, "deflate distance 1 reaches before the start of the data"))
    }

    @Test func pngChunkOrderIsChecked() {
        let data = ("IDAT", Self.zlibStored([0, 1, 2, 3, 4, 5, 6]))
        #expect(Self.error(Self.png([data, Self.ihdr(width: 2, height: 1), ("IEND", [])])) == .damaged(.png, "IDAT chunk before IHDR"))
        #expect(Self.error(Self.png([Self.ihdr(width: 2, height: 1), ("IEND", [])])) == .damaged(.png, "no IDAT chunk"))
        #expect(Self.error(Self.png([Self.ihdr(width: 2, height: 1), ("IDAT", Array(data.1[..<4])), ("tEXt", Array("a\0b".utf8)), ("IDAT", Array(data.1[4...])), ("IEND", [])]))
                == .damaged(.png, "IDAT chunks are not consecutive"))
        #expect(Self.error(Self.png([Self.ihdr(width: 2, height: 1, type: 3), data, ("IEND", [])])) == .damaged(.png, "palette image without PLTE before its data"))
        #expect(Self.error(Self.png([Self.ihdr(width: 2, height: 1), data, ("PLTE", [1, 2, 3]), ("IEND", [])])) == .damaged(.png, "PLTE chunk after the image data"))
        #expect(Self.error(Self.png([Self.ihdr(width: 2, height: 1), ("abCD", []), data, ("IEND", [])])) == nil)
        #expect(Self.error(Self.png([Self.ihdr(width: 2, height: 1), ("ABCD", []), data, ("IEND", [])])) == .unsupported(.png, "critical chunk ABCD"))
        #expect(Self.error(Self.png([Self.ihdr(width: 2, height: 1, depth: 4), data, ("IEND", [])])) == .damaged(.png, "bit depth 4 is not allowed with colour type 2"))
        #expect(Self.error(Self.png([Self.ihdr(width: 2, height: 1), data])) == .truncated(.png, "the chunk list (no IEND)"))
        // Palette index past the palette.
        let palette = Self.png([Self.ihdr(width: 2, height: 1, type: 3), ("PLTE", [1, 2, 3]), ("IDAT", Self.zlibStored([0, 0, 1])), ("IEND", [])])
        #expect(Self.error(palette) == .damaged(.png, "palette index 1 at pixel 1 of row 0 is past the palette's 1 colours"))
    }

    @Test func jpegProblemsAreNamed() throws {
        let bytes = try FixtureFiles.bytes("jpeg-baseline-420.jpg")
        #expect(Self.error(Array(bytes.dropLast(2))) == .truncated(.jpeg, "the file (no EOI marker)"))
        #expect(Self.error([0xFF, 0xD8, 0xFF, 0xC9, 0, 11, 8, 0, 8, 0, 8, 1, 1, 0x11, 0, 0xFF, 0xD9]) == .unsupported(.jpeg, "arithmetic-coded JPEG (SOF9)"))
        #expect(Self.error([0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 12, 0, 8, 0, 8, 1, 1, 0x11, 0, 0xFF, 0xD9]) == .unsupported(.jpeg, "12-bit samples (only 8)"))
        #expect(Self.error([0xFF, 0xD8, 0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0]) == .damaged(.jpeg, "SOS before the frame (SOF)"))
        #expect(Self.error([0xFF, 0xD8, 0xFF, 0xD9]) == .damaged(.jpeg, "no frame or no scan before EOI"))
        // Remove the DHT segments: the scan then names tables never defined.
        var withoutHuffman: [UInt8] = Array(bytes[..<2])
        var i = 2
        while i < bytes.count {
            let marker = bytes[i + 1]
            if marker == 0xDA { withoutHuffman += bytes[i...]; break }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker != 0xC4 { withoutHuffman += bytes[i ..< i + 2 + length] }
            i += 2 + length
        }
        #expect(Self.error(withoutHuffman) == .damaged(.jpeg, "scan uses DC Huffman table 0, which was never defined"))
        // A restart file with one RST marker changed to the wrong number.
        var restart = try FixtureFiles.bytes("jpeg-restart-420.jpg")
        let sos = restart.indices.first { restart[$0] == 0xFF && restart[$0 + 1] == 0xDA }!
        let rst = (sos ..< restart.count - 1).first { restart[$0] == 0xFF && restart[$0 + 1] == 0xD0 }!
        restart[rst + 1] = 0xD3
        #expect(Self.error(restart) == .damaged(.jpeg, "restart marker RST0 missing after 2 units"))
    }

    @Test func unknownFormatsAreNamed() {
        #expect(Self.error(Array("GIF89a".utf8)) == .unknownFormat)
        #expect(Self.error([]) == .unknownFormat)
        #expect(Self.error(Array("P6\n2 2\n255\n".utf8))?.code == "PPM_TRUNCATED")
    }
}
