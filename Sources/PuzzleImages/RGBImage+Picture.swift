import PuzzleCore

extension RGBImage {
    /// The largest centred region with the shape `aspectWidth:aspectHeight`
    /// (e.g. a board's columns:rows): a photo whose shape does not match the
    /// board loses equal strips from both long sides instead of being squashed.
    public func centredCrop(aspectWidth: Int, aspectHeight: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        precondition(aspectWidth > 0 && aspectHeight > 0)
        // Compare width/height with aspectWidth/aspectHeight without division.
        if width * aspectHeight > height * aspectWidth {
            let w = max(1, min(width, (height * aspectWidth + aspectHeight / 2) / aspectHeight))
            return ((width - w) / 2, 0, w, height)
        } else {
            let h = max(1, min(height, (width * aspectHeight + aspectWidth / 2) / aspectWidth))
            return (0, (height - h) / 2, width, h)
        }
    }

    /// The region `x, y, width, height` averaged down (a box filter, as
    /// `Picture.scaled`) to `outWidth` × `outHeight`, as a `Picture`.
    /// Growing repeats pixels (nearest neighbour).
    public func picture(region: (x: Int, y: Int, width: Int, height: Int), width outWidth: Int, height outHeight: Int) throws(PictureError) -> Picture {
        try Picture.validate(width: outWidth, height: outHeight)
        precondition(region.x >= 0 && region.y >= 0 && region.width > 0 && region.height > 0
                     && region.x + region.width <= width && region.y + region.height <= height)
        var pixels: [RGB] = []
        pixels.reserveCapacity(outWidth * outHeight)
        let stride = width * 3
        rgb.withUnsafeBufferPointer { src in
            for oy in 0..<outHeight {
                let y0 = region.y + oy * region.height / outHeight
                let y1 = max(region.y + (oy + 1) * region.height / outHeight, y0 + 1)
                for ox in 0..<outWidth {
                    let x0 = region.x + ox * region.width / outWidth
                    let x1 = max(region.x + (ox + 1) * region.width / outWidth, x0 + 1)
                    var r = 0, g = 0, b = 0
                    for y in y0..<y1 {
                        var i = y * stride + x0 * 3
                        for _ in x0..<x1 {
                            r += Int(src[i]); g += Int(src[i + 1]); b += Int(src[i + 2])
                            i += 3
                        }
                    }
                    let n = (x1 - x0) * (y1 - y0)
                    pixels.append(RGB(r: UInt8((r + n / 2) / n), g: UInt8((g + n / 2) / n), b: UInt8((b + n / 2) / n)))
                }
            }
        }
        return try Picture(width: outWidth, height: outHeight, pixels: pixels)
    }

    /// The whole image as a `Picture` no larger than `maxSide` on either side
    /// (shape kept, box-filtered down); unchanged when it already fits.
    public func picture(fitting maxSide: Int) throws(PictureError) -> Picture {
        let scale = max(width, height)
        let w = scale <= maxSide ? width : max(1, width * maxSide / scale)
        let h = scale <= maxSide ? height : max(1, height * maxSide / scale)
        return try picture(region: (0, 0, width, height), width: w, height: h)
    }
}
