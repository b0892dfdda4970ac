import Testing
import PuzzleCore
@testable import PuzzleImages

/// Every PNG colour type and bit depth, interlaced and not, palettes with and
/// without tRNS, colour keys, stored blocks: our pixels must equal the
/// reference (pngtopnm's samples, blended over grey by the documented formula).
@Suite struct PNGReferenceTests {
    static let names = FixtureFiles.names(prefix: "png-", ext: "png")

    @Test func everyKindIsThere() {
        #expect(Self.names.count >= 40)
        for kind in ["grey1", "grey2", "grey4", "grey8", "grey16", "rgb8", "rgb16", "rgba8", "rgba16", "greyalpha8", "greyalpha16",
                     "palette1", "palette2", "palette4", "palette8"] {
            #expect(Self.names.contains("png-\(kind)") && Self.names.contains("png-\(kind)-adam7"), "\(kind)")
        }
    }

    @Test(arguments: names) func decodesExactly(_ name: String) throws {
        let image = try ImageDecoder.decode(FixtureFiles.bytes(name + ".png"))
        let expected = try FixtureFiles.expected(name)
        #expect(FixtureFiles.largestDifference(image, expected) == 0, "\(name)")
    }
}
