/// One Huffman table turned around for writing: each symbol's code and
/// length, built from a DHT's counts and symbols (T.81 Annex C).
struct JPEGHuffmanEncoder {
    private(set) var codes = [UInt16](repeating: 0, count: 256)
    private(set) var lengths = [UInt8](repeating: 0, count: 256)

    init(_ table: JPEGStandardTables.Huffman) {
        var code: UInt16 = 0
        var k = 0
        for length in 1...16 {
            for _ in 0..<Int(table.counts[length - 1]) {
                let symbol = Int(table.symbols[k])
                codes[symbol] = code
                lengths[symbol] = UInt8(length)
                code &+= 1
                k += 1
            }
            code <<= 1
        }
    }
}
