import Foundation
import Testing
import PuzzleLink
import PuzzleTestSupport
import PuzzleCore
@testable import PuzzleImages

/// Issue 31: decoding an upload costs at most 128 MB above the server's
/// baseline, however large the picture is within the pixel limit: it is
/// decoded straight into the kept size (512 a side) as its rows arrive.
/// Before, an 8192×8192 16-bit RGBA PNG of 3.3 MB took the server to 1.28 GB.
@Suite(.serialized) struct UploadMemoryTests {
    /// An 8192×8192 PNG, 16 bits a channel, RGBA, every sample 0 (its
    /// filtered rows are all zeros: one DEFLATE block of a literal and
    /// 258-byte matches, written directly).
    static func hugePNG(side: Int = 8192) -> [UInt8] {
        let rowBytes = 1 + side * 8
        let total = rowBytes * side
        var bits = BitWriter()
        bits.bytes = [0x78, 0x01]
        bits.write(1, bits: 1)  // BFINAL
        bits.write(1, bits: 2)  // fixed codes
        // Fixed Huffman codes go most significant bit first: reversed here.
        func code(_ value: UInt32, _ length: Int) {
            var v: UInt32 = 0
            for i in 0..<length where value & (1 << UInt32(i)) != 0 { v |= 1 << UInt32(length - 1 - i) }
            bits.write(v, bits: length)
        }
        code(0b0011_0000, 8)  // literal 0
        var left = total - 1
        while left >= 258 {
            code(0b1100_0101, 8)  // length 258 (code 285)
            code(0, 5)            // distance 1
            left -= 258
        }
        while left > 0 { code(0b0011_0000, 8); left -= 1 }
        code(0, 7)  // end of block (256)
        bits.alignToByte()
        // Adler-32 of zeros: a = 1, b = the count.
        let b = UInt32(total % 65521)
        bits.bytes += [UInt8(b >> 8), UInt8(b & 0xFF), 0, 1]
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let n = UInt32(data.count), crc = CRC32.checksum(body)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + body
                + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        let s = UInt32(side)
        let be = [UInt8(s >> 24), UInt8(s >> 16 & 0xFF), UInt8(s >> 8 & 0xFF), UInt8(s & 0xFF)]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be + be + [16, 6, 0, 0, 0])
            + chunk("IDAT", bits.bytes) + chunk("IEND", [])
    }

    /// The server process's resident memory now and at its peak (bytes).
    static func memory(_ pid: Int32) throws -> (rss: Int, peak: Int) {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func kb(_ key: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(key) } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty }.map(String.init) ?? "0") ?? 0) * 1024
        }
        return (kb("VmRSS:"), kb("VmHWM:"))
    }

    @Test func a64MegapixelUploadCostsAtMost128MB() throws {
        let png = Self.hugePNG()
        #expect(png.count < 4 << 20)
        // The same content decodes (a small one shows the generator is right):
        // fully transparent, so one colour (the background it lies on).
        let small = try ImageDecoder.decode(Self.hugePNG(side: 16))
        #expect(small.width == 16 && small.height == 16 && small.rgb.count == 16 * 16 * 3)
        #expect(stride(from: 0, to: small.rgb.count, by: 3).allSatisfy { small.rgb[$0 ..< $0 + 3] == small.rgb[0 ..< 3] })
        let data = TestServer.temporaryDirectory()
        let server = try ServerProcess(dataDirectory: data, rooms: ["lobby jigsaw 2x2"])
        defer { try? server.kill() }
        let pid = server.process.processIdentifier
        let c = try LineClient(port: server.port, name: "big")
        _ = try c.hello("big")
        #expect(try c.request("PING").reply == "PONG")
        let before = try Self.memory(pid)
        // A deadline, not a pace: 64 megapixels decoded by a debug build while
        // the rest of the suite runs on 2 cores took over 30 s once in CI.
        let reply = try UploadTests.upload(c, "huge", png, timeout: 180)
        #expect(reply.hasPrefix("OK uploaded huge 8192x8192 "), "\(reply)")
        let after = try Self.memory(pid)
        let grown = after.peak - before.rss
        #expect(grown <= 128 << 20, "the server's peak grew \(grown >> 20) MB over its \(before.rss >> 20) MB (peak \(after.peak >> 20) MB)")
        // And the picture is there to play: a room of it.
        #expect(try c.request("CREATE huge jigsaw 4x4 picture=huge").reply == "OK created huge")
        print("UPLOAD MEMORY 8192x8192x16 RGBA PNG: baseline \(before.rss >> 20) MB, peak \(after.peak >> 20) MB")
    }
}
