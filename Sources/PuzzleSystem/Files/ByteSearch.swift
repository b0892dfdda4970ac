#if canImport(Glibc)
import Glibc
#endif

/// Byte searches through the C library's vectorised `memchr`, for code that
/// splits large buffers into lines (the load tester scans millions a second).
public enum ByteSearch {
    /// The offset of the first `byte` in `bytes[from...]`, or nil.
    @inlinable
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from: Int = 0) -> Int? {
        guard from < bytes.count, let base = bytes.baseAddress else { return nil }
        guard let hit = memchr(base + from, Int32(byte), bytes.count - from) else { return nil }
        return UnsafeRawPointer(hit) - base
    }
}
