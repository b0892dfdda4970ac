import Testing
import PuzzleCore
@testable import PuzzleImages

/// Decoding straight into a small size (what the server keeps of a picture)
/// against decoding the whole picture and then shrinking it: PNG exactly,
/// at every size and for interlaced files too; JPEG exactly while it is
/// decoded at full scale, within a few levels once at 1/2, 1/4 or 1/8.
@Suite struct FittedDecodeTests {
    static let pngs = FixtureFiles.names(prefix: "png-", ext: "png")
    static let jpegs = FixtureFiles.names(prefix: "jpeg-", ext: "jpg")

    /// The old way: the whole picture, then `picture(fitting:)`.
    static func reference(_ bytes: [UInt8], _ maxSide: Int) throws -> RGBImage {
        let full = try ImageDecoder.decode(bytes)
        let picture = try full.picture(fitting: maxSide)
        var rgb: [UInt8] = []
        for p in picture.pixels { rgb += [p.r, p.g, p.b] }
        return RGBImage(width: picture.width, height: picture.height, rgb: rgb)
    }

    /// Mean and largest difference of the samples (same sizes required).
    static func difference(_ a: RGBImage, _ b: RGBImage) -> (mean: Double, worst: Int) {
        var total = 0, worst = 0
        for (x, y) in zip(a.rgb, b.rgb) {
            let d = abs(Int(x) - Int(y))
            total += d
            worst = max(worst, d)
        }
        return (Double(total) / Double(a.rgb.count), worst)
    }

    @Test(arguments: pngs) func pngFitsExactly(_ name: String) throws {
        let bytes = try FixtureFiles.bytes(name + ".png")
        let full = try ImageDecoder.decode(bytes)
        for side in [1, 5, 16, 30, 44, 512] {
            let fitted = try ImageDecoder.decode(bytes, fitting: side)
            #expect(fitted.width == full.width && fitted.height == full.height)
            #expect(fitted.image == (try Self.reference(bytes, side)), "\(name) at \(side)")
        }
    }

    @Test(arguments: jpegs) func jpegFitsAtFullScaleExactly(_ name: String) throws {
        let bytes = try FixtureFiles.bytes(name + ".jpg")
        let full = try ImageDecoder.decode(bytes)
        // Below twice the side asked for, a JPEG is decoded at full scale.
        let side = max(full.width, full.height) / 2 + 1
        let fitted = try ImageDecoder.decode(bytes, fitting: side)
        #expect(fitted.width == full.width && fitted.height == full.height, "\(name): the size is upright")
        #expect(fitted.image == (try Self.reference(bytes, side)), "\(name)")
    }

    @Test(arguments: jpegs) func jpegFitsAtReducedScalesClosely(_ name: String) throws {
        let bytes = try FixtureFiles.bytes(name + ".jpg")
        let full = try ImageDecoder.decode(bytes)
        let longest = max(full.width, full.height)
        // 1/2, 1/4 and 1/8 scale.
        for side in [longest / 2, longest / 4, longest / 8, max(1, longest / 16)] where side >= 1 {
            let fitted = try ImageDecoder.decode(bytes, fitting: side).image
            let reference = try Self.reference(bytes, side)
            #expect(fitted.width == reference.width && fitted.height == reference.height, "\(name) at \(side)")
            guard fitted.width == reference.width && fitted.height == reference.height else { continue }
            let d = Self.difference(fitted, reference)
            print("FITTED \(name) side \(side): mean \(d.mean) worst \(d.worst)")
            #expect(d.mean <= 3 && d.worst <= 40, "\(name) at \(side): mean \(d.mean), worst \(d.worst)")
        }
    }
}
