/// Turns decompressed PNG image data into RGB rows as it arrives: undoes
/// each row's filter (against the row above of the same pass), converts its
/// samples and hands them to a sink with where they belong (Adam7 passes'
/// pixels are every `dx`-th of a row).
///
/// Samples scale to 8 bits as `(v * 255 + max / 2) / max`; a pixel with
/// alpha `a` (from the alpha channel, the palette's tRNS entries or the
/// colour key) is blended with the grey background `bg` exactly as
/// `(v * a * 255 + bg * max * (maxA - a) + max * maxA / 2) / (max * maxA)`,
/// in the samples' own precision (so 16-bit images round once).
struct PNGRows {
    let header: PNGHeader
    /// 256 composited palette colours, three bytes each; indices past the
    /// palette are marked in `paletteSize`.
    var paletteRGB: [UInt8] = []
    var paletteSize = 0
    /// The colour key of a grey or RGB tRNS chunk, as raw samples.
    var key: (Int, Int, Int)?
    let background: Int

    init(header: PNGHeader, palette: [UInt8]?, transparency: [UInt8]?, background: Int) {
        self.header = header
        self.background = background
        passes = header.passes
        current = [UInt8](repeating: 0, count: max(1, header.rowBytes(header.width)))
        previous = current
        rgbRow = [UInt8](repeating: 0, count: header.width * 3)
        if let palette {
            paletteSize = palette.count / 3
            paletteRGB = [UInt8](repeating: 0, count: 256 * 3)
            for i in 0..<paletteSize {
                let alpha = transparency.flatMap { i < $0.count ? Int($0[i]) : nil } ?? 255
                for c in 0..<3 {
                    paletteRGB[i * 3 + c] = PNGRows.blend(Int(palette[i * 3 + c]), max: 255, alpha: alpha, maxAlpha: 255, background: background)
                }
            }
        }
        if let t = transparency, header.colourType == 0 || header.colourType == 2 {
            let mask = (1 << header.bitDepth) - 1
            func at(_ i: Int) -> Int { (Int(t[i]) << 8 | Int(t[i + 1])) & mask }
            key = header.colourType == 0 ? (at(0), at(0), at(0)) : (at(0), at(2), at(4))
        }
    }

    @inline(__always)
    static func blend(_ v: Int, max: Int, alpha: Int, maxAlpha: Int, background: Int) -> UInt8 {
        UInt8((v * alpha * 255 + background * max * (maxAlpha - alpha) + max * maxAlpha / 2) / (max * maxAlpha))
    }

    /// Where the reader is: the pass (index into `passes`) and its row.
    private var passIndex = 0
    private var passRow = 0
    private let passes: [(x: Int, y: Int, dx: Int, dy: Int, width: Int, height: Int)]
    /// The row being read (unfiltered in place) and the one above it in the
    /// same pass; the row's pixels as RGB.
    private var current: [UInt8]
    private var previous: [UInt8]
    private var rgbRow: [UInt8]

    /// The longest row in the data with its filter byte: what `read` may
    /// leave unconsumed is less than this.
    var longestRow: Int { 1 + header.rowBytes(header.width) }

    /// Reads the whole rows at the start of `bytes` (decompressed image
    /// data, continuing where the last call stopped), hands their pixels to
    /// `sink`, and returns how many bytes they took: only a row and the row
    /// above it are ever held.
    mutating func read<Sink: ImageRowSink>(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout Sink) throws(ImageError) -> Int {
        var offset = 0
        // The buffers are taken out of `self` while `convert` (a method) runs.
        var row = current, above = previous, rgb = rgbRow
        current = []; previous = []; rgbRow = []
        defer { current = row; previous = above; rgbRow = rgb }
        while passIndex < passes.count {
            let pass = passes[passIndex]
            let rowBytes = header.rowBytes(pass.width)
            guard bytes.count - offset >= 1 + rowBytes else { break }
            let y = pass.y + passRow * pass.dy
            let filter = bytes[offset]
            if passRow == 0 {
                // A pass's first row is filtered against a row of zeros.
                for i in 0..<rowBytes { above[i] = 0 }
            }
            try row.withUnsafeMutableBufferPointer { row throws(ImageError) in
                try above.withUnsafeBufferPointer { above throws(ImageError) in
                    try rgb.withUnsafeMutableBufferPointer { rgb throws(ImageError) in
                        row.baseAddress!.update(from: bytes.baseAddress! + offset + 1, count: rowBytes)
                        try Self.unfilter(filter, row: row.baseAddress!, previous: above.baseAddress!, count: rowBytes, stride: header.filterStride, y: y)
                        try convert(row.baseAddress!, pixels: pass.width, into: rgb.baseAddress!, step: 3, y: y)
                        sink.add(row: y, x0: pass.x, dx: pass.dx, count: pass.width, rgb: rgb.baseAddress!)
                    }
                }
            }
            swap(&row, &above)
            offset += 1 + rowBytes
            passRow += 1
            if passRow == pass.height {
                passIndex += 1
                passRow = 0
            }
        }
        return offset
    }

    /// Undoes filter `type` (0 none, 1 sub, 2 up, 3 average, 4 Paeth) on one row.
    static func unfilter(_ type: UInt8, row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>,
                         count: Int, stride: Int, y: Int) throws(ImageError) {
        let s = min(stride, count)
        switch type {
        case 0: break
        case 1:
            for i in s..<max(s, count) { row[i] &+= row[i - s] }
        case 2:
            for i in 0..<count { row[i] &+= previous[i] }
        case 3:
            for i in 0..<s { row[i] &+= previous[i] >> 1 }
            for i in s..<max(s, count) { row[i] &+= UInt8((Int(row[i - s]) + Int(previous[i])) >> 1) }
        case 4:
            for i in 0..<s { row[i] &+= previous[i] }
            for i in s..<max(s, count) {
                let a = Int(row[i - s]), b = Int(previous[i]), c = Int(previous[i - s])
                let pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c)
                row[i] &+= UInt8(pa <= pb && pa <= pc ? a : (pb <= pc ? b : c))
            }
        default:
            throw .damaged(.png, "filter type \(type) on row \(y)")
        }
    }

    /// Writes one row's pixels as RGB, `step` bytes apart.
    func convert(_ row: UnsafeMutablePointer<UInt8>, pixels: Int, into out: UnsafeMutablePointer<UInt8>, step: Int, y: Int) throws(ImageError) {
        let depth = header.bitDepth
        let bg = background
        var o = 0
        switch (header.colourType, depth) {
        case (2, 8) where key == nil:
            for i in 0..<pixels {
                out[o] = row[i * 3]; out[o + 1] = row[i * 3 + 1]; out[o + 2] = row[i * 3 + 2]
                o += step
            }
        case (6, 8):
            for i in 0..<pixels {
                let a = Int(row[i * 4 + 3])
                if a == 255 {
                    out[o] = row[i * 4]; out[o + 1] = row[i * 4 + 1]; out[o + 2] = row[i * 4 + 2]
                } else {
                    let back = bg * 255 * (255 - a) + 32512
                    out[o] = UInt8((Int(row[i * 4]) * a * 255 + back) / 65025)
                    out[o + 1] = UInt8((Int(row[i * 4 + 1]) * a * 255 + back) / 65025)
                    out[o + 2] = UInt8((Int(row[i * 4 + 2]) * a * 255 + back) / 65025)
                }
                o += step
            }
        case (0, 8) where key == nil:
            for i in 0..<pixels {
                let v = row[i]
                out[o] = v; out[o + 1] = v; out[o + 2] = v
                o += step
            }
        default:
            try convertGenerally(row, pixels: pixels, into: out, step: step, y: y)
        }
    }

    /// Every other layout, one sample at a time.
    private func convertGenerally(_ row: UnsafeMutablePointer<UInt8>, pixels: Int, into out: UnsafeMutablePointer<UInt8>, step: Int, y: Int) throws(ImageError) {
        let depth = header.bitDepth
        let max = (1 << depth) - 1
        let bg = background
        @inline(__always) func sample(_ i: Int) -> Int {
            switch depth {
            case 8: return Int(row[i])
            case 16: return Int(row[2 * i]) << 8 | Int(row[2 * i + 1])
            default:
                let bit = i * depth
                return Int(row[bit >> 3] >> UInt8(8 - depth - (bit & 7))) & max
            }
        }
        @inline(__always) func scale(_ v: Int) -> UInt8 { UInt8((v * 255 + max / 2) / max) }
        var o = 0
        for i in 0..<pixels {
            switch header.colourType {
            case 0:
                let v = sample(i)
                let g = key.map { $0.0 == v } == true ? UInt8(bg) : scale(v)
                out[o] = g; out[o + 1] = g; out[o + 2] = g
            case 2:
                let r = sample(i * 3), g = sample(i * 3 + 1), b = sample(i * 3 + 2)
                if let key, key == (r, g, b) {
                    out[o] = UInt8(bg); out[o + 1] = UInt8(bg); out[o + 2] = UInt8(bg)
                } else {
                    out[o] = scale(r); out[o + 1] = scale(g); out[o + 2] = scale(b)
                }
            case 3:
                let index = sample(i)
                guard index < paletteSize else {
                    throw .damaged(.png, "palette index \(index) at pixel \(i) of row \(y) is past the palette's \(paletteSize) colours")
                }
                out[o] = paletteRGB[index * 3]; out[o + 1] = paletteRGB[index * 3 + 1]; out[o + 2] = paletteRGB[index * 3 + 2]
            case 4:
                let g = Self.blend(sample(i * 2), max: max, alpha: sample(i * 2 + 1), maxAlpha: max, background: bg)
                out[o] = g; out[o + 1] = g; out[o + 2] = g
            default:
                let a = sample(i * 4 + 3)
                out[o] = Self.blend(sample(i * 4), max: max, alpha: a, maxAlpha: max, background: bg)
                out[o + 1] = Self.blend(sample(i * 4 + 1), max: max, alpha: a, maxAlpha: max, background: bg)
                out[o + 2] = Self.blend(sample(i * 4 + 2), max: max, alpha: a, maxAlpha: max, background: bg)
            }
            o += step
        }
    }
}
