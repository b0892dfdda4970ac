/// Where a decoder puts pixels as it produces them, a row (or an Adam7
/// pass's part of a row) at a time, in the file's stored orientation: the
/// whole image (`FullImageSink`) or a box-filtered reduction of it
/// (`BoxShrinker`), so that a decoder need never hold a large picture whole.
protocol ImageRowSink {
    /// `count` pixels of stored row `y`, three bytes each in `rgb`, at
    /// columns `x0`, `x0 + dx`, `x0 + 2 dx`, ...
    mutating func add(row y: Int, x0: Int, dx: Int, count: Int, rgb: UnsafePointer<UInt8>)
}

/// Every pixel, into an image of the stored size.
struct FullImageSink: ImageRowSink {
    let width: Int
    let height: Int
    var rgb: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        rgb = [UInt8](repeating: 0, count: width * height * 3)
    }

    mutating func add(row y: Int, x0: Int, dx: Int, count: Int, rgb source: UnsafePointer<UInt8>) {
        let width = width
        rgb.withUnsafeMutableBufferPointer { out in
            let base = out.baseAddress! + (y * width + x0) * 3
            if dx == 1 {
                base.update(from: source, count: count * 3)
                return
            }
            for i in 0..<count {
                let o = base + i * dx * 3, s = source + i * 3
                o[0] = s[0]; o[1] = s[1]; o[2] = s[2]
            }
        }
    }

    var image: RGBImage { RGBImage(width: width, height: height, rgb: rgb) }
}
