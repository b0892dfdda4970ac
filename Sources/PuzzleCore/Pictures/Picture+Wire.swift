// The text form used on the wire: one string per row, each the concatenation
// of that row's pixels as "rrggbb". Plain ASCII, so any line protocol can carry it.

extension Picture {
    /// Each row as concatenated lowercase `"rrggbb"` colours, top row first.
    public func hexRows() -> [String] {
        var rows: [String] = []
        rows.reserveCapacity(height)
        var utf8: [UInt8] = []
        utf8.reserveCapacity(width * 6)
        for y in 0..<height {
            utf8.removeAll(keepingCapacity: true)
            for pixel in pixels[(y * width)..<((y + 1) * width)] {
                RGB.appendHex(of: pixel, to: &utf8)
            }
            rows.append(String(decoding: utf8, as: UTF8.self))
        }
        return rows
    }

    /// Rebuilds a picture from `hexRows()` output.
    ///
    /// - Throws: `sizeOutOfRange` / `tooLarge` for a bad size,
    ///   `rowCountMismatch` unless there are `height` rows, and `badHexRow`
    ///   for a row that is not exactly `width` hex colours.
    public init<S: StringProtocol>(width: Int, height: Int, hexRows: [S]) throws(PictureError) {
        try Picture.validate(width: width, height: height)
        guard hexRows.count == height else {
            throw .rowCountMismatch(expected: height, actual: hexRows.count)
        }
        var pixels: [RGB] = []
        pixels.reserveCapacity(width * height)
        for (index, row) in hexRows.enumerated() {
            let utf8 = row.utf8
            guard utf8.count == width * 6 else { throw .badHexRow(index) }
            var nibbles = utf8.makeIterator()
            for _ in 0..<width {
                guard let pixel = Self.nextColour(&nibbles) else { throw .badHexRow(index) }
                pixels.append(pixel)
            }
        }
        self.init(validWidth: width, height: height, pixels: pixels)
    }

    private static func nextColour<I: IteratorProtocol<UInt8>>(_ bytes: inout I) -> RGB? {
        guard let r = RGB.nextChannel(&bytes),
              let g = RGB.nextChannel(&bytes),
              let b = RGB.nextChannel(&bytes) else { return nil }
        return RGB(r: r, g: g, b: b)
    }
}
