extension RGBImage {
    /// The image turned as an EXIF orientation tag (1...8) says it must be
    /// to show upright: 2 mirrors, 3 turns half round, 4 flips, 5 transposes,
    /// 6 turns a quarter clockwise, 7 transverses, 8 turns a quarter
    /// anticlockwise. Other values leave the image as it is.
    public func oriented(_ orientation: Int) -> RGBImage {
        guard (2...8).contains(orientation) else { return self }
        let swaps = orientation >= 5
        let outWidth = swaps ? height : width
        let outHeight = swaps ? width : height
        var out = [UInt8](repeating: 0, count: rgb.count)
        let w = width, h = height
        rgb.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // Where output (x, y) comes from in the stored image.
                        let sx: Int, sy: Int
                        switch orientation {
                        case 2: sx = w - 1 - x; sy = y
                        case 3: sx = w - 1 - x; sy = h - 1 - y
                        case 4: sx = x; sy = h - 1 - y
                        case 5: sx = y; sy = x
                        case 6: sx = y; sy = h - 1 - x
                        case 7: sx = w - 1 - y; sy = h - 1 - x
                        default: sx = w - 1 - y; sy = x
                        }
                        let s = (sy * w + sx) * 3, d = (y * outWidth + x) * 3
                        dst[d] = src[s]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return RGBImage(width: outWidth, height: outHeight, rgb: out)
    }
}
