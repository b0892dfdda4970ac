import Foundation
import PuzzleCore
@testable import PuzzleImages

/// The reference files in `Fixtures/` (made by make-fixtures.py with standard
/// encoders) and the pixels each must decode to.
enum FixtureFiles {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Names (without extension) of the fixtures whose file ends in `ext`
    /// and whose expected pixels are a PPM beside it.
    static func names(prefix: String, ext: String) -> [String] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return all.filter { $0.hasPrefix(prefix) && $0.hasSuffix("." + ext) }.map { String($0.dropLast(ext.count + 1)) }
            .filter { all.contains($0 + ".ppm") }.sorted()
    }

    static func bytes(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
    }

    static func expected(_ name: String) throws -> Picture {
        try Picture(ppm: bytes(name + ".ppm"))
    }

    /// The largest difference of any sample, or nil when the sizes differ.
    static func largestDifference(_ image: RGBImage, _ picture: Picture) -> Int? {
        guard image.width == picture.width, image.height == picture.height else { return nil }
        var worst = 0
        for (i, p) in picture.pixels.enumerated() {
            worst = max(worst, abs(Int(image.rgb[i * 3]) - Int(p.r)), abs(Int(image.rgb[i * 3 + 1]) - Int(p.g)), abs(Int(image.rgb[i * 3 + 2]) - Int(p.b)))
        }
        return worst
    }
}
