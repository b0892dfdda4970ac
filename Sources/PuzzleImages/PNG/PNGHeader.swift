/// A PNG's IHDR: size, sample layout and interlacing, validated against the
/// combinations the PNG specification allows (table 11.1).
struct PNGHeader {
    var width: Int
    var height: Int
    var bitDepth: Int
    /// 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGB + alpha.
    var colourType: Int
    var interlaced: Bool

    var channels: Int {
        switch colourType {
        case 0, 3: 1
        case 2: 3
        case 4: 2
        default: 4
        }
    }

    /// Bytes per complete pixel, at least 1: the distance filters look back.
    var filterStride: Int { max(1, channels * bitDepth / 8) }

    /// Bytes of one filtered row of `pixels` pixels, without its filter byte.
    func rowBytes(_ pixels: Int) -> Int { (pixels * channels * bitDepth + 7) / 8 }

    /// The widest picture read.
    static let maxWidth = 65535

    init(_ data: ArraySlice<UInt8>, limits: ImageLimits) throws(ImageError) {
        guard data.count == 13 else { throw .damaged(.png, "IHDR chunk of \(data.count) bytes (must be 13)") }
        let b = Array(data)
        func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        width = u32(0)
        height = u32(4)
        bitDepth = Int(b[8])
        colourType = Int(b[9])
        guard width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .badSize(.png, width: width, height: height)
        }
        try limits.check(width: width, height: height, format: .png)
        // Rows are decoded one at a time (two held, 8 bytes a pixel at
        // most): bounding the width bounds that memory whatever the shape.
        guard width <= PNGHeader.maxWidth else {
            throw .unsupported(.png, "a width of \(width) pixels (at most \(PNGHeader.maxWidth), as in JPEG)")
        }
        let depths: [Int]
        switch colourType {
        case 0: depths = [1, 2, 4, 8, 16]
        case 3: depths = [1, 2, 4, 8]
        case 2, 4, 6: depths = [8, 16]
        default: throw .damaged(.png, "colour type \(colourType) in IHDR")
        }
        guard depths.contains(bitDepth) else {
            throw .damaged(.png, "bit depth \(bitDepth) is not allowed with colour type \(colourType)")
        }
        guard b[10] == 0 else { throw .damaged(.png, "compression method \(b[10]) in IHDR") }
        guard b[11] == 0 else { throw .damaged(.png, "filter method \(b[11]) in IHDR") }
        guard b[12] <= 1 else { throw .damaged(.png, "interlace method \(b[12]) in IHDR") }
        interlaced = b[12] == 1
    }

    /// Adam7's seven passes: first column and row, steps.
    static let adam7: [(x: Int, y: Int, dx: Int, dy: Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// The passes the image data holds, in order, with their sizes in pixels
    /// (an empty pass has no rows in the data at all).
    var passes: [(x: Int, y: Int, dx: Int, dy: Int, width: Int, height: Int)] {
        let steps = interlaced ? Self.adam7 : [(0, 0, 1, 1)]
        return steps.compactMap { s in
            let w = (width - s.x + s.dx - 1) / s.dx, h = (height - s.y + s.dy - 1) / s.dy
            return w > 0 && h > 0 ? (s.x, s.y, s.dx, s.dy, w, h) : nil
        }
    }

    /// Bytes the decompressed image data must hold: every row of every pass
    /// and its filter byte.
    var dataSize: Int { passes.reduce(0) { $0 + $1.height * (1 + rowBytes($1.width)) } }
}
