// Netpbm PPM, the simplest picture format that needs no library: P3 (ASCII
// samples) and P6 (binary samples). See https://netpbm.sourceforge.net/doc/ppm.html

extension Picture {
    /// Decodes a P3 or P6 PPM picture.
    ///
    /// Accepts whitespace and `#` comments anywhere in the header (and between
    /// P3 samples), maxval 1...65535 (P6 samples above 255 are two bytes,
    /// big-endian), and scales samples to 0...255 with rounding. The size is
    /// checked against `maxSide` / `maxPixelCount` before anything is
    /// allocated. Bytes after the last pixel are ignored, as Netpbm allows
    /// several images in one file.
    public init(ppm bytes: [UInt8]) throws(PictureError) {
        var reader = PPMReader(bytes: bytes)
        let binary = try reader.readMagic()
        let width = try reader.readNumber()
        let height = try reader.readNumber()
        try Picture.validate(width: width, height: height)
        let maxValue = try reader.readNumber()
        guard (1...65535).contains(maxValue) else { throw .maxValueOutOfRange(maxValue) }
        let pixels: [RGB]
        if binary {
            try reader.skipRasterSeparator()
            pixels = try reader.readBinaryPixels(count: width * height, maxValue: maxValue)
        } else {
            pixels = try reader.readASCIIPixels(count: width * height, maxValue: maxValue)
        }
        self.init(validWidth: width, height: height, pixels: pixels)
    }

    /// Encodes the picture as binary PPM (P6, maxval 255).
    public func ppmP6() -> [UInt8] {
        var out = Array("P6\n\(width) \(height)\n255\n".utf8)
        out.reserveCapacity(out.count + pixels.count * 3)
        for pixel in pixels {
            out.append(pixel.r)
            out.append(pixel.g)
            out.append(pixel.b)
        }
        return out
    }

    /// Encodes the picture as ASCII PPM (P3, maxval 255), one picture row per line.
    public func ppmP3() -> [UInt8] {
        var out = Array("P3\n\(width) \(height)\n255\n".utf8)
        for y in 0..<height {
            var line: [String] = []
            line.reserveCapacity(width)
            for x in 0..<width {
                let pixel = self[x: x, y: y]
                line.append("\(pixel.r) \(pixel.g) \(pixel.b)")
            }
            out.append(contentsOf: line.joined(separator: "  ").utf8)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }
}

/// A cursor over PPM bytes that knows the format's lexical rules.
private struct PPMReader {
    /// Longer numbers cannot be valid (all limits are ≤ 65535), and capping
    /// the digits keeps `Int` arithmetic from overflowing.
    static let maxDigits = 9

    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        // Space, tab, LF, VT, FF, CR: the set Netpbm treats as whitespace.
        byte == 0x20 || (0x09...0x0d).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Reads `P3` or `P6`; returns true for binary (P6).
    mutating func readMagic() throws(PictureError) -> Bool {
        guard bytes.count >= 2 else {
            // A prefix of a valid magic is just short; anything else is wrong.
            if bytes.isEmpty || bytes[0] == UInt8(ascii: "P") { throw .truncated }
            throw .badMagic
        }
        guard bytes[0] == UInt8(ascii: "P") else { throw .badMagic }
        let binary: Bool
        switch bytes[1] {
        case UInt8(ascii: "3"): binary = false
        case UInt8(ascii: "6"): binary = true
        default: throw .badMagic
        }
        index = 2
        if index < bytes.count, !Self.isWhitespace(bytes[index]), bytes[index] != UInt8(ascii: "#") {
            throw .badMagic
        }
        return binary
    }

    /// Skips whitespace and `#` comments (which run to the end of the line).
    mutating func skipSeparators() {
        while index < bytes.count {
            let byte = bytes[index]
            if Self.isWhitespace(byte) {
                index += 1
            } else if byte == UInt8(ascii: "#") {
                while index < bytes.count, bytes[index] != 0x0a, bytes[index] != 0x0d {
                    index += 1
                }
            } else {
                return
            }
        }
    }

    /// Reads one unsigned decimal number preceded by separators and followed
    /// by a separator or the end of the data.
    mutating func readNumber() throws(PictureError) -> Int {
        skipSeparators()
        guard index < bytes.count else { throw .truncated }
        let start = index
        var value = 0
        while index < bytes.count, Self.isDigit(bytes[index]) {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
            if index - start > Self.maxDigits { throw .badNumber(token(from: start)) }
        }
        guard index > start else { throw .badNumber(token(from: start)) }
        if index < bytes.count, !Self.isWhitespace(bytes[index]), bytes[index] != UInt8(ascii: "#") {
            throw .badNumber(token(from: start))
        }
        return value
    }

    /// The non-separator run starting at `start`, cut short, for error messages.
    func token(from start: Int) -> String {
        var end = start
        while end < bytes.count, end - start < 16, !Self.isWhitespace(bytes[end]), bytes[end] != UInt8(ascii: "#") {
            end += 1
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// P6 has exactly one whitespace byte between maxval and the raster, so
    /// raster bytes that look like whitespace are not swallowed. As in
    /// libnetpbm, a comment there counts as (and ends with) that byte.
    mutating func skipRasterSeparator() throws(PictureError) {
        guard index < bytes.count else { throw .truncated }
        if bytes[index] == UInt8(ascii: "#") {
            while index < bytes.count, bytes[index] != 0x0a, bytes[index] != 0x0d {
                index += 1
            }
            guard index < bytes.count else { throw .truncated }
        }
        // readNumber guarantees a whitespace or '#' follows the maxval.
        index += 1
    }

    mutating func readBinaryPixels(count: Int, maxValue: Int) throws(PictureError) -> [RGB] {
        let sampleSize = maxValue > 255 ? 2 : 1
        // Check the length before allocating: the header alone cannot make us reserve memory.
        guard bytes.count - index >= count * 3 * sampleSize else { throw .truncated }
        var pixels: [RGB] = []
        pixels.reserveCapacity(count)
        var channels: (UInt8, UInt8, UInt8) = (0, 0, 0)
        for _ in 0..<count {
            channels.0 = try binarySample(size: sampleSize, maxValue: maxValue)
            channels.1 = try binarySample(size: sampleSize, maxValue: maxValue)
            channels.2 = try binarySample(size: sampleSize, maxValue: maxValue)
            pixels.append(RGB(r: channels.0, g: channels.1, b: channels.2))
        }
        return pixels
    }

    private mutating func binarySample(size: Int, maxValue: Int) throws(PictureError) -> UInt8 {
        var value = Int(bytes[index])
        if size == 2 {
            value = value << 8 | Int(bytes[index + 1])
        }
        index += size
        return try Self.scale(value, maxValue: maxValue)
    }

    mutating func readASCIIPixels(count: Int, maxValue: Int) throws(PictureError) -> [RGB] {
        // Each P3 sample takes at least one digit and all but the last a
        // separator, so a body that is obviously too short is refused before
        // reserving memory for it.
        guard bytes.count - index >= count * 6 - 1 else { throw .truncated }
        var pixels: [RGB] = []
        pixels.reserveCapacity(count)
        for _ in 0..<count {
            let r = try Self.scale(readNumber(), maxValue: maxValue)
            let g = try Self.scale(readNumber(), maxValue: maxValue)
            let b = try Self.scale(readNumber(), maxValue: maxValue)
            pixels.append(RGB(r: r, g: g, b: b))
        }
        return pixels
    }

    /// Maps 0...maxValue onto 0...255, rounding half up.
    static func scale(_ value: Int, maxValue: Int) throws(PictureError) -> UInt8 {
        guard value <= maxValue else { throw .sampleOutOfRange(value) }
        if maxValue == 255 { return UInt8(value) }
        return UInt8((value * 255 + maxValue / 2) / maxValue)
    }
}
