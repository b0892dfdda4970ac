import Testing
@testable import PuzzleWeb

@Suite struct EncodingTests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// FIPS 180-2 appendix A vectors, plus the empty message and a message
    /// of exactly one block's padding boundary (55 and 56 bytes).
    @Test func sha1Vectors() {
        #expect(hex(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        #expect(hex(SHA1.hash([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.hash([UInt8](repeating: UInt8(ascii: "a"), count: 55))) == "c1c8bbdc22796e28c0e15163d20899b65621d65a")
        #expect(hex(SHA1.hash([UInt8](repeating: UInt8(ascii: "a"), count: 56))) == "c2db330f6083854c99d4b5bfb6e8f29f201be699")
    }

    @Test func sha1InPiecesEqualsAtOnce() {
        let message = Array("The quick brown fox jumps over the lazy dog, several times over to cross blocks.".utf8)
        var sha = SHA1()
        for byte in message { sha.update([byte]) }
        #expect(sha.finish() == SHA1.hash(message))
        #expect(hex(SHA1.hash(Array("The quick brown fox jumps over the lazy dog".utf8))) == "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12")
    }

    /// RFC 4648 §10.
    @Test func base64Vectors() {
        let cases = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in cases {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        let all = (0...255).map { UInt8($0) }
        #expect(Base64.decode(Base64.encode(all)) == all)
    }

    @Test func base64RefusesNonCanonical() {
        for bad in ["Zg", "Zg=", "Z===", "Zh==", "Zm9=", "Zm 9v", "Zm9v!A==", "=Zm9", "Zg==Zg=="] {
            #expect(Base64.decode(bad) == nil, "\(bad)")
        }
    }

    /// RFC 6455 §1.3's worked example.
    @Test func handshakeAcceptOfTheRFCExample() {
        #expect(WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func utf8AcceptsValidText() {
        for text in ["", "hello", "Hello-µ@ßöäüàá-UTF-8!!", "κόσμε", "日本語", "😀 🧩", "\u{10FFFF}", "\u{FFFD}"] {
            #expect(UTF8Validator.isValid(Array(text.utf8)), "\(text)")
        }
    }

    /// Autobahn 6.x's invalid sequences: overlongs, surrogates, beyond
    /// U+10FFFF, lone continuations, truncated characters, bytes never valid.
    @Test func utf8RefusesInvalidSequences() {
        let bad: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF],
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
            [0xFE], [0xFF], [0xCE, 0xBA, 0xE1], [0xE1, 0x80], [0xF0, 0x9F, 0x98],
            [0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65, 0x64, 0x69, 0x74, 0x65, 0x64],
        ]
        for bytes in bad {
            #expect(!UTF8Validator.isValid(bytes), "\(bytes)")
        }
    }

    /// Fed one byte at a time, a validator fails at the first byte that
    /// cannot continue, not only at the end.
    @Test func utf8FailsFast() {
        var v = UTF8Validator()
        let results = [v.feed([0xCE, 0xBA]), v.feed(byte: 0xE1), v.isComplete, v.feed(byte: 0xBD), v.feed(byte: 0x41)]
        #expect(results == [true, true, false, true, false])
    }
}
