/// Decodes one scan's entropy-coded data into the components' coefficients:
/// baseline/extended sequential (all 64 coefficients a block) and the four
/// progressive kinds (DC first and refinement, AC first and refinement),
/// with restart intervals. Loops are bounded by the block count; the bits
/// past the data are zeros and using them is an error at the next check.
struct JPEGScan {
    /// Zig-zag position to natural (row-major) position, with 16 spare
    /// entries so a damaged run can never index past the block.
    static let naturalOrder: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
        12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
        58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
        63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    ]

    let components: [JPEGComponent]
    let dcTables: [JPEGHuffmanTable?]
    let acTables: [JPEGHuffmanTable?]
    let progressive: Bool
    let spectralStart: Int
    let spectralEnd: Int
    let approximationHigh: Int
    let approximationLow: Int
    let restartInterval: Int
    let mcusPerLine: Int
    let mcuRows: Int
    var endOfBandRun = 0

    /// Decodes the scan starting at `position`; returns where its data ends
    /// (the next marker's `FF`).
    mutating func decode(_ data: UnsafeBufferPointer<UInt8>, from position: Int) throws(ImageError) -> Int {
        var bits = JPEGBits(data, from: position)
        let single = components.count == 1
        // A one-component scan covers that component's own blocks, not the MCU padding.
        let unitsPerLine = single ? (components[0].width + 7) / 8 : mcusPerLine
        let unitRows = single ? (components[0].height + 7) / 8 : mcuRows
        let total = unitsPerLine * unitRows
        var restartsSeen = 0
        for c in components {
            c.dcPredictor = 0
            c.dcHuffman = dcTables[c.dcTable]
            c.acHuffman = acTables[c.acTable]
        }
        var unit = 0
        try JPEGScan.naturalOrder.withUnsafeBufferPointer { order throws(ImageError) in
            while unit < total {
                let end = restartInterval > 0 ? min(total, unit + restartInterval) : total
                while unit < end {
                    let row = unit / unitsPerLine, col = unit % unitsPerLine
                    if single {
                        try decodeUnit(components[0], row: row, col: col, &bits, order)
                    } else {
                        for c in components {
                            for by in 0..<c.v {
                                for bx in 0..<c.h {
                                    try decodeUnit(c, row: row * c.v + by, col: col * c.h + bx, &bits, order)
                                }
                            }
                        }
                    }
                    unit += 1
                    if bits.overran { break }
                }
                if bits.overran {
                    throw bits.atEnd ? .truncated(.jpeg, "the scan data") : .damaged(.jpeg, "scan data stops at a marker before block \(unit) of \(total)")
                }
                if unit < total {
                    // Expect RSTn with n counting 0...7, then start afresh.
                    let p = bits.position
                    guard p + 1 < data.count else { throw .truncated(.jpeg, "the scan data (restart marker)") }
                    let expected = UInt8(0xD0 + restartsSeen % 8)
                    guard data[p] == 0xFF && data[p + 1] == expected else {
                        throw .damaged(.jpeg, "restart marker RST\(restartsSeen % 8) missing after \(unit) units")
                    }
                    restartsSeen += 1
                    bits = JPEGBits(data, from: p + 2)
                    for c in components { c.dcPredictor = 0 }
                    endOfBandRun = 0
                }
            }
        }
        return Self.endOfData(data, from: bits.position)
    }

    /// Where a scan's data starting at or before `position` ends: the next
    /// FF not followed by 00 or an RST marker (or the file's end).
    static func endOfData(_ data: UnsafeBufferPointer<UInt8>, from position: Int) -> Int {
        var p = position
        while p + 1 < data.count && !(data[p] == 0xFF && data[p + 1] != 0 && !(0xD0...0xD7).contains(data[p + 1])) { p += 1 }
        return min(p, data.count)
    }

    /// A whole block's 64 coefficients, for a component that keeps fewer:
    /// decoded here, then the kept ones (and which are non-zero) copied back.
    var scratch = [Int16](repeating: 0, count: 64)

    /// Decodes one block of `c`, straight into its coefficients at scale 8;
    /// otherwise through `scratch`, keeping the `scale`² lowest frequencies.
    @inline(__always)
    private mutating func decodeUnit(_ c: JPEGComponent, row: Int, col: Int, _ bits: inout JPEGBits,
                                     _ order: UnsafeBufferPointer<Int>) throws(ImageError) {
        let kept = c.block(row: row, col: col)
        // DC scans touch coefficient 0 alone, which every scale keeps first.
        if c.scale == 8 || (progressive && spectralStart == 0) {
            try decodeBlock(c, kept, &bits, order)
            return
        }
        let k = c.scale
        let maskIndex = row * c.blocksPerLine + col
        var local = scratch
        scratch = []
        defer { scratch = local }
        try local.withUnsafeMutableBufferPointer { full throws(ImageError) in
            let block = full.baseAddress!
            if progressive, let nonZero = c.nonZero {
                // Only whether the others are non-zero matters to refinement.
                let mask = nonZero[maskIndex]
                for z in 0..<64 { block[z] = mask >> UInt64(z) & 1 == 1 ? 0x4000 : 0 }
                for r in 0..<k { for q in 0..<k { block[r * 8 + q] = kept[r * k + q] } }
            } else {
                block.update(repeating: 0, count: 64)
            }
            try decodeBlock(c, block, &bits, order)
            for r in 0..<k { for q in 0..<k { kept[r * k + q] = block[r * 8 + q] } }
            if let nonZero = c.nonZero {
                var mask: UInt64 = 0
                for z in 0..<64 where block[z] != 0 { mask |= 1 << UInt64(z) }
                nonZero[maskIndex] = mask
            }
        }
    }

    @inline(__always)
    private mutating func decodeBlock(_ c: JPEGComponent, _ block: UnsafeMutablePointer<Int16>, _ bits: inout JPEGBits,
                                      _ order: UnsafeBufferPointer<Int>) throws(ImageError) {
        if !progressive {
            try decodeSequential(c, block, &bits, order)
        } else if spectralStart == 0 {
            if approximationHigh == 0 {
                let dc = try dcTable(c).decode(&bits)
                guard dc <= 16 else { throw .damaged(.jpeg, "DC difference of \(dc) bits") }
                c.dcPredictor &+= bits.signed(dc)
                block[0] = Int16(truncatingIfNeeded: c.dcPredictor << approximationLow)
            } else if bits.bit() == 1 {
                block[0] |= Int16(truncatingIfNeeded: 1 << approximationLow)
            }
        } else if approximationHigh == 0 {
            try decodeACFirst(c, block, &bits, order)
        } else {
            try decodeACRefinement(c, block, &bits, order)
        }
    }

    @inline(__always)
    private func dcTable(_ c: JPEGComponent) throws(ImageError) -> JPEGHuffmanTable {
        guard let table = c.dcHuffman else { throw .damaged(.jpeg, "scan uses DC Huffman table \(c.dcTable), which was never defined") }
        return table
    }

    @inline(__always)
    private func acTable(_ c: JPEGComponent) throws(ImageError) -> JPEGHuffmanTable {
        guard let table = c.acHuffman else { throw .damaged(.jpeg, "scan uses AC Huffman table \(c.acTable), which was never defined") }
        return table
    }

    @inline(__always)
    private func decodeSequential(_ c: JPEGComponent, _ block: UnsafeMutablePointer<Int16>, _ bits: inout JPEGBits,
                                  _ order: UnsafeBufferPointer<Int>) throws(ImageError) {
        let dcBits = try dcTable(c).decode(&bits)
        guard dcBits <= 16 else { throw .damaged(.jpeg, "DC difference of \(dcBits) bits") }
        c.dcPredictor &+= bits.signed(dcBits)
        block[0] = Int16(truncatingIfNeeded: c.dcPredictor)
        let ac = try acTable(c)
        var k = 1
        while k < 64 {
            // 32 bits cover a code (at most 16) and its value (at most 15):
            // one refill check per coefficient.
            if bits.count < 32 { bits.fill() }
            let rs = try ac.decode(&bits)
            let run = rs >> 4, size = rs & 15
            if size == 0 {
                if run != 15 { return }
                k += 16
                continue
            }
            k += run
            guard k < 64 else { throw .damaged(.jpeg, "AC coefficients run past the end of a block") }
            // EXTEND without a branch: a leading 0 bit means v - 2^size + 1.
            let v = Int(truncatingIfNeeded: bits.buffer >> UInt64(64 - size))
            bits.buffer <<= UInt64(size)
            bits.count -= size
            block[order[k]] = Int16(truncatingIfNeeded: v &+ (((v >> (size - 1)) &- 1) & (1 &- (1 << size))))
            k += 1
        }
    }

    private mutating func decodeACFirst(_ c: JPEGComponent, _ block: UnsafeMutablePointer<Int16>, _ bits: inout JPEGBits,
                                        _ order: UnsafeBufferPointer<Int>) throws(ImageError) {
        if endOfBandRun > 0 {
            endOfBandRun -= 1
            return
        }
        let ac = try acTable(c)
        var k = spectralStart
        while k <= spectralEnd {
            let rs = try ac.decode(&bits)
            let run = rs >> 4, size = rs & 15
            if size == 0 {
                if run < 15 {
                    endOfBandRun = (1 << run) - 1 + (run > 0 ? bits.bits(run) : 0)
                    return
                }
                k += 16
                continue
            }
            k += run
            guard k <= spectralEnd else { throw .damaged(.jpeg, "AC coefficients run past the scan's band") }
            block[order[k]] = Int16(truncatingIfNeeded: bits.signed(size) * (1 << approximationLow))
            k += 1
        }
    }

    /// Successive approximation of AC coefficients: one more bit of every
    /// coefficient already non-zero, and new ones of magnitude 1 (T.81 G.1.2.3,
    /// as libjpeg's decode_mcu_AC_refine).
    private mutating func decodeACRefinement(_ c: JPEGComponent, _ block: UnsafeMutablePointer<Int16>, _ bits: inout JPEGBits,
                                             _ order: UnsafeBufferPointer<Int>) throws(ImageError) {
        let p1 = Int16(truncatingIfNeeded: 1 << approximationLow)
        let m1 = Int16(truncatingIfNeeded: -1 << approximationLow)
        var k = spectralStart
        if endOfBandRun == 0 {
            let ac = try acTable(c)
            while k <= spectralEnd {
                let rs = try ac.decode(&bits)
                var run = rs >> 4
                let size = rs & 15
                var value: Int16 = 0
                if size != 0 {
                    guard size == 1 else { throw .damaged(.jpeg, "refinement coefficient of \(size) bits (must be 1)") }
                    value = bits.bit() == 1 ? p1 : m1
                } else if run != 15 {
                    endOfBandRun = 1 << run
                    if run > 0 { endOfBandRun += bits.bits(run) }
                    break
                }
                while k <= spectralEnd {
                    let z = order[k]
                    if block[z] != 0 {
                        if bits.bit() == 1 && block[z] & p1 == 0 {
                            block[z] = block[z] >= 0 ? block[z] &+ p1 : block[z] &+ m1
                        }
                    } else {
                        if run == 0 { break }
                        run -= 1
                    }
                    k += 1
                }
                if value != 0 {
                    guard k <= spectralEnd else { throw .damaged(.jpeg, "refinement runs past the scan's band") }
                    block[order[k]] = value
                }
                k += 1
            }
        }
        if endOfBandRun > 0 {
            // The rest of the band: correction bits for coefficients already non-zero.
            while k <= spectralEnd {
                let z = order[k]
                if block[z] != 0, bits.bit() == 1, block[z] & p1 == 0 {
                    block[z] = block[z] >= 0 ? block[z] &+ p1 : block[z] &+ m1
                }
                k += 1
            }
            endOfBandRun -= 1
        }
    }
}
