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

    /// Photo-like pictures: decoded at 1/2, 1/4 and 1/8 scale (the IDCT of
    /// a block's lowest frequencies), then box-shrunk, they are within two
    /// levels of the whole picture box-shrunk on the mean; the worst pixels
    /// lie on the sharpest edges (the large fixture's shapes, JPEG quality 60).
    @Test(arguments: ["smooth-420", "smooth-444", "smooth-progressive", "jpeg-large-420"])
    func aPhotoFitsAtReducedScalesClosely(_ name: String) throws {
        for (side, d) in try Self.reducedScales(name) {
            #expect(d.mean <= 2 && d.worst <= 72, "\(name) at \(side): mean \(d.mean), worst \(d.worst)")
        }
    }

    /// The reference fixtures are small and sharp (a pattern changing every
    /// pixel or two): a reduced scale and a box average are different filters
    /// there, as libjpeg's own `djpeg -scale 1/N` is 13 to 25 levels from the
    /// box average on the mean on these (measured). Sizes, orientation and
    /// colours hold: a turned or mirrored picture is as close as an upright one.
    @Test(arguments: jpegs) func aSharpPictureFitsAtReducedScales(_ name: String) throws {
        for (side, d) in try Self.reducedScales(name) {
            #expect(d.mean <= 24 && d.worst <= 160, "\(name) at \(side): mean \(d.mean), worst \(d.worst)")
        }
    }

    /// Each reduced scale of `name` (1/2, 1/4, 1/8, and smaller still) against
    /// the old way: the fitted side and the difference; the sizes must agree.
    static func reducedScales(_ name: String) throws -> [(side: Int, difference: (mean: Double, worst: Int))] {
        let bytes = try FixtureFiles.bytes(name + ".jpg")
        let full = try ImageDecoder.decode(bytes)
        let longest = max(full.width, full.height)
        var out: [(Int, (Double, Int))] = []
        for side in [longest / 2, longest / 4, longest / 8, max(1, longest / 16)] where side >= 1 {
            let fitted = try ImageDecoder.decode(bytes, fitting: side).image
            let reference = try Self.reference(bytes, side)
            #expect(fitted.width == reference.width && fitted.height == reference.height, "\(name) at \(side)")
            guard fitted.width == reference.width && fitted.height == reference.height else { continue }
            out.append((side, Self.difference(fitted, reference)))
        }
        return out
    }
}
