import Foundation
import PuzzleCore
import Testing
@testable import PuzzleImages

/// JPEG files we write, read back by our own decoder.
@Suite struct JPEGEncoderTests {
    /// Peak signal-to-noise ratio of a decode against the picture, in dB.
    private func psnr(_ picture: Picture, _ image: RGBImage) -> Double {
        var sum = 0.0
        for (i, p) in picture.pixels.enumerated() {
            for (a, b) in [(p.r, image.rgb[3 * i]), (p.g, image.rgb[3 * i + 1]), (p.b, image.rgb[3 * i + 2])] {
                let d = Double(a) - Double(b)
                sum += d * d
            }
        }
        let mse = sum / Double(picture.pixels.count * 3)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// What libjpeg makes of the same 256×192 scenes (`cjpeg -quality 85
    /// -sample 2x2`, then `djpeg -dct int`), measured once: PSNR in dB and
    /// file size. The scenes' grain and hard edges keep any 4:2:0 JPEG near
    /// 26-29 dB; ours must be as faithful and no larger.
    private static let libjpeg: [String: (psnr: Double, bytes: Int)] = [
        "sunset": (29.27, 17054), "rings": (26.06, 20959), "quilt": (26.50, 25381), "waves": (26.93, 21440),
    ]

    @Test func builtInScenesComeBackAsCloseAsLibjpegMakesThem() throws {
        for name in Picture.builtinNames {
            let picture = try #require(Picture.builtin(name, width: 256, height: 192))
            let jpeg = JPEGEncoder.encode(picture)
            let image = try JPEGDecoder.decode(jpeg)
            #expect(image.width == 256 && image.height == 192)
            let reference = try #require(Self.libjpeg[name], "measure \(name) with cjpeg")
            #expect(psnr(picture, image) > reference.psnr - 0.05, "\(name): \(psnr(picture, image)) dB")
            #expect(jpeg.count <= reference.bytes, "\(name): \(jpeg.count) bytes")
            // The point of it: far smaller than the lossless form.
            #expect(jpeg.count * 3 < PNGEncoder.encode(picture).count, "\(name): \(jpeg.count) bytes")
        }
    }

    @Test func sizesThatAreNotWholeBlocksKeepTheirEdges() throws {
        for (w, h) in [(1, 1), (7, 3), (17, 9), (16, 16), (33, 255), (80, 80)] {
            let picture = try Picture(width: w, height: h) { x, y in
                // A flat left half and a flat right half: no ringing inside either.
                x < (w + 1) / 2 ? RGB(r: 200, g: 40, b: 30) : RGB(r: 20, g: 90, b: 220)
            }
            let image = try JPEGDecoder.decode(JPEGEncoder.encode(picture, quality: 95))
            #expect(image.width == w && image.height == h)
            // The corners (far from the colour edge) keep their colour.
            for (x, y) in [(0, 0), (0, h - 1), (w - 1, 0), (w - 1, h - 1)] where w == 1 || abs(2 * x - w) > 6 {
                let p = picture.pixels[y * w + x], i = 3 * (y * w + x)
                for (a, b) in [(p.r, image.rgb[i]), (p.g, image.rgb[i + 1]), (p.b, image.rgb[i + 2])] {
                    #expect(abs(Int(a) - Int(b)) <= 6, "\(w)x\(h) at \(x),\(y): \(a) vs \(b)")
                }
            }
        }
    }

    @Test func qualityTradesBytesForFidelity() throws {
        var rng = SeededGenerator(seed: 11)
        let noisy = try Picture(width: 64, height: 48) { x, y in
            let n = UInt8(truncatingIfNeeded: rng.next() % 24)
            return RGB(r: UInt8(x * 3) &+ n, g: UInt8(y * 4) &+ n, b: 128 &+ n)
        }
        let low = JPEGEncoder.encode(noisy, quality: 30), high = JPEGEncoder.encode(noisy, quality: 95)
        #expect(low.count < high.count)
        #expect(psnr(noisy, try JPEGDecoder.decode(low)) < psnr(noisy, try JPEGDecoder.decode(high)))
        // Extremes are clamped, not trapped: black and white at quality 100
        // reach the largest DC values.
        let extremes = try Picture(width: 16, height: 16) { x, _ in x < 8 ? RGB(r: 0, g: 0, b: 0) : RGB(r: 255, g: 255, b: 255) }
        let image = try JPEGDecoder.decode(JPEGEncoder.encode(extremes, quality: 100))
        #expect(psnr(extremes, image) > 35)
        _ = JPEGEncoder.encode(extremes, quality: -5)
        _ = JPEGEncoder.encode(extremes, quality: 500)
    }

    @Test func standardTablesAreWhole() {
        for table in [JPEGStandardTables.luminanceDC, JPEGStandardTables.chrominanceDC,
                      JPEGStandardTables.luminanceAC, JPEGStandardTables.chrominanceAC] {
            #expect(table.counts.count == 16)
            #expect(table.counts.reduce(0) { $0 + Int($1) } == table.symbols.count)
            #expect(Set(table.symbols).count == table.symbols.count)
        }
        #expect(JPEGStandardTables.scaled(JPEGStandardTables.luminanceQuantization, quality: 50) == JPEGStandardTables.luminanceQuantization)
        #expect(JPEGStandardTables.scaled(JPEGStandardTables.luminanceQuantization, quality: 100).allSatisfy { $0 == 1 })
        #expect(JPEGStandardTables.scaled(JPEGStandardTables.chrominanceQuantization, quality: 1).allSatisfy { $0 <= 255 })
    }

    @Test func bitWriterStuffsAZeroAfterEveryFF() {
        var bits = JPEGBitWriter()
        bits.write(0xFF, length: 8)
        bits.write(0b101, length: 3)
        bits.finish()
        #expect(bits.bytes == [0xFF, 0x00, 0b1011_1111])
    }
}
