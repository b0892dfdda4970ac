import PuzzleCore

/// A gzip member (RFC 1952) around DEFLATE data: what a browser inflates for
/// `Content-Encoding: gzip`. The same compressor as PNG's zlib streams
/// (fixed codes, LZ77 through a hash), which takes the page's script to
/// about a third of its size.
public enum Gzip {
    /// `data` as one gzip member.
    public static func compress(_ data: [UInt8]) -> [UInt8] {
        var out = BitWriter()
        // ID1 ID2, CM 8 (deflate), no flags, MTIME 0 (the same bytes on every
        // start, so the same ETag), XFL 0, OS 255 (unknown).
        out.bytes = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
        Deflater.compress(data, into: &out)
        out.alignToByte()
        out.bytes += littleEndian(CRC32.checksum(data))
        out.bytes += littleEndian(UInt32(truncatingIfNeeded: data.count))
        return out.bytes
    }

    private static func littleEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 24)]
    }
}
