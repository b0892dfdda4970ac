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
