import PuzzleCore
import Testing
@testable import PuzzleImages

/// PNG files we write, read back by our own decoder and inflater.
@Suite struct PNGEncoderTests {
    private func inflate(_ z: [UInt8], size: Int) throws -> [UInt8] {
        try z.withUnsafeBufferPointer { buffer in try Inflater.zlib(buffer, outputSize: size) }
    }

    @Test func deflateRoundTrips() throws {
        var rng = SeededGenerator(seed: 4)
        let random = (0..<5000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let inputs: [[UInt8]] = [[], [7], Array("abcabcabcabcabcabc".utf8), [UInt8](repeating: 9, count: 70_000),
                                 random, random + random, (0..<300).map { UInt8($0 % 7) },
                                 // Matches of every length class, and farther than 32 KiB back.
                                 (0..<40_000).map { UInt8(truncatingIfNeeded: ($0 / 3) % 251) } + random + [UInt8](repeating: 1, count: 300)]
        for input in inputs {
            let z = Deflater.zlib(input)
            #expect(try inflate(z, size: input.count) == input, "\(input.count) bytes")
        }
        // Repetitive input shrinks.
        #expect(Deflater.zlib([UInt8](repeating: 9, count: 70_000)).count < 1000)
    }

    @Test func picturesRoundTripThroughOurDecoder() throws {
        var rng = SeededGenerator(seed: 9)
        let noise = try Picture(width: 17, height: 5) { _, _ in
            RGB(r: UInt8(truncatingIfNeeded: rng.next()), g: UInt8(truncatingIfNeeded: rng.next()), b: UInt8(truncatingIfNeeded: rng.next()))
        }
        var pictures = [noise]
        for name in Picture.builtinNames { pictures.append(try #require(Picture.builtin(name, width: 123, height: 77))) }
        pictures.append(try Picture(width: 1, height: 1) { _, _ in RGB(r: 1, g: 2, b: 3) })
        for picture in pictures {
            let png = PNGEncoder.encode(picture)
            let image = try PNGDecoder.decode(png)
            #expect(image.width == picture.width && image.height == picture.height)
            #expect(image.rgb == picture.pixels.flatMap { [$0.r, $0.g, $0.b] })
        }
    }

    /// The scenes are smooth: filters and matches make a PNG much smaller than its pixels.
    @Test func scenesCompress() throws {
        let picture = try #require(Picture.builtin("sunset", width: 400, height: 300))
        #expect(PNGEncoder.encode(picture).count < 400 * 300 * 3 / 2)
    }
}
