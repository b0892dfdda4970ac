import Testing
import PuzzleCore
@testable import PuzzleImages

/// JPEG files from cjpeg (baseline 4:4:4, 4:2:2, 4:2:0, 4:4:0, 4:1:1,
/// progressive, restart intervals, greyscale, optimised tables, all eight
/// EXIF orientations) against `djpeg -dct int` turned upright: within ±2
/// levels as promised, and in fact exact (same IDCT, upsampling, tables).
@Suite struct JPEGReferenceTests {
    static let names = FixtureFiles.names(prefix: "jpeg-", ext: "jpg")

    @Test func everyKindIsThere() {
        for kind in ["baseline-444", "baseline-422", "baseline-420", "progressive-420", "restart-420", "grey", "exif-6"] {
            #expect(Self.names.contains("jpeg-\(kind)"), "\(kind)")
        }
    }

    @Test(arguments: names) func matchesDjpeg(_ name: String) throws {
        let image = try ImageDecoder.decode(FixtureFiles.bytes(name + ".jpg"))
        let expected = try FixtureFiles.expected(name)
        let difference = FixtureFiles.largestDifference(image, expected)
        #expect(difference != nil && difference! <= 2, "\(name): size \(image.width)x\(image.height), largest difference \(difference.map(String.init) ?? "-")")
        #expect(difference == 0, "\(name) is not exact: \(difference.map(String.init) ?? "-")")
    }
}

/// A 1.1 Mpx JPEG, large enough to be transformed and converted in bands on
/// several cores: its pixels must still be djpeg's (kept as the CRC-32 of
/// djpeg's RGB samples, not a 3 MB file).
@Suite struct JPEGLargeReferenceTests {
    @Test func bandsGiveDjpegsPixels() throws {
        let image = try ImageDecoder.decode(FixtureFiles.bytes("jpeg-large-420.jpg"))
        let expected = String(decoding: try FixtureFiles.bytes("jpeg-large-420.crc"), as: UTF8.self).split(whereSeparator: \.isWhitespace)
        #expect(expected.count == 3)
        #expect("\(image.width)" == expected[0] && "\(image.height)" == expected[1])
        #expect(String(CRC32.checksum(image.rgb), radix: 16).leftPadded(8) == expected[2])
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
