/// Entropy-coded bytes for a JPEG scan: bits packed from the top, and a zero
/// stuffed after every 0xFF so no marker appears inside the data.
struct JPEGBitWriter {
    private(set) var bytes: [UInt8] = []
    private var accumulator: UInt32 = 0
    private var count = 0

    /// Appends the low `length` bits of `value` (0...16 bits).
    mutating func write(_ value: UInt32, length: Int) {
        guard length > 0 else { return }
        accumulator = (accumulator << UInt32(length)) | (value & ((1 << UInt32(length)) - 1))
        count += length
        while count >= 8 {
            count -= 8
            let byte = UInt8(truncatingIfNeeded: accumulator >> UInt32(count))
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0) }
        }
        accumulator &= (1 << UInt32(count)) - 1
    }

    /// Fills the last byte with one bits, as the standard asks before a marker.
    mutating func finish() {
        if count > 0 { write(0x7F, length: 8 - count) }
    }
}
