import PuzzleCore

/// Decodes PNG files (ISO/IEC 15948): every colour type and bit depth,
/// palettes, `tRNS` transparency (composited over `background`), Adam7,
/// the five filters, and its own zlib inflate. Chunk CRCs and the zlib
/// Adler-32 are checked; chunk order follows the specification (IHDR first,
/// PLTE and tRNS before the image data, IDAT chunks consecutive, IEND last).
public enum PNGDecoder {
    /// The grey that transparent pixels are blended with, 0...255: neutral,
    /// so a transparent logo neither glows nor vanishes.
    public static let background = 128

    public static func decode(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(ImageError) -> RGBImage {
        var sink: FullImageSink?
        try decode(bytes, limits: limits) { header throws(ImageError) in
            sink = FullImageSink(width: header.width, height: header.height)
        } rows: { rows, data throws(ImageError) in
            try rows.read(data, into: &sink!)
        }
        return sink!.image
    }

    /// The picture box-filtered to at most `maxSide` pixels a side as its
    /// rows are decompressed (the same pixels as `decode(_:limits:)` then
    /// `picture(fitting:)`), and its full size: the whole picture is never
    /// held, only two rows and the output's sums. Interlaced (Adam7)
    /// pictures too: each pass's pixels are added to their boxes.
    public static func decode(_ bytes: [UInt8], limits: ImageLimits = ImageLimits(), fitting maxSide: Int) throws(ImageError) -> (image: RGBImage, width: Int, height: Int) {
        var sink: BoxShrinker?
        var size = (0, 0)
        try decode(bytes, limits: limits) { header throws(ImageError) in
            size = (header.width, header.height)
            let fitted = BoxShrinker.fittedSize(width: header.width, height: header.height, orientation: 1, maxSide: maxSide)
            sink = try BoxShrinker(sourceWidth: header.width, sourceHeight: header.height, orientation: 1,
                                   width: fitted.width, height: fitted.height, format: .png)
        } rows: { rows, data throws(ImageError) in
            try rows.read(data, into: &sink!)
        }
        return (sink!.image, size.0, size.1)
    }

    /// The chunk walk and checks; `start` is told the header once the image
    /// data begins, `rows` is handed the decompressed data as it comes.
    private static func decode(_ bytes: [UInt8], limits: ImageLimits, start: (PNGHeader) throws(ImageError) -> Void,
                               rows read: (inout PNGRows, UnsafeBufferPointer<UInt8>) throws(ImageError) -> Int) throws(ImageError) {
        try limits.check(fileBytes: bytes.count)
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8 else { throw .truncated(.png, "the signature") }
        guard bytes.starts(with: signature) else { throw .damaged(.png, "not a PNG signature") }
        var header: PNGHeader?
        var palette: [UInt8]?
        var transparency: [UInt8]?
        var imageData: [UInt8] = []
        /// 0: no IDAT yet, 1: inside the run of IDAT chunks, 2: after it.
        var idatState = 0
        var position = 8
        var ended = false
        while !ended {
            guard position + 8 <= bytes.count else { throw .truncated(.png, header == nil ? "the IHDR chunk" : "the chunk list (no IEND)") }
            let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let typeBytes = bytes[position + 4 ..< position + 8]
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw .damaged(.png, "chunk type \(typeBytes.map { String($0, radix: 16) }.joined(separator: " ")) at byte \(position + 4) is not four letters")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= Int(Int32.max) else { throw .damaged(.png, "\(type) chunk length \(length)") }
            guard bytes.count - position - 12 >= length else { throw .truncated(.png, "the \(type) chunk") }
            let dataStart = position + 8, dataEnd = position + 8 + length
            let stored = bytes[dataEnd ..< dataEnd + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let actual = bytes.withUnsafeBufferPointer { CRC32.checksum(buffer: UnsafeBufferPointer(rebasing: $0[position + 4 ..< dataEnd])) }
            guard stored == actual else { throw .badChecksum(.png, "CRC of the \(type) chunk at byte \(position)") }
            let data = bytes[dataStart ..< dataEnd]
            position = dataEnd + 4
            if header == nil && type != "IHDR" { throw .damaged(.png, "\(type) chunk before IHDR") }
            if idatState == 1 && type != "IDAT" { idatState = 2 }
            switch type {
            case "IHDR":
                guard header == nil else { throw .damaged(.png, "a second IHDR chunk") }
                header = try PNGHeader(data, limits: limits)
            case "PLTE":
                guard palette == nil else { throw .damaged(.png, "a second PLTE chunk") }
                guard idatState == 0 else { throw .damaged(.png, "PLTE chunk after the image data") }
                guard transparency == nil else { throw .damaged(.png, "PLTE chunk after tRNS") }
                guard header!.colourType != 0, header!.colourType != 4 else { throw .damaged(.png, "PLTE chunk in a greyscale image") }
                guard length % 3 == 0, (3...768).contains(length) else { throw .damaged(.png, "PLTE chunk of \(length) bytes") }
                palette = Array(data)
            case "tRNS":
                guard transparency == nil else { throw .damaged(.png, "a second tRNS chunk") }
                guard idatState == 0 else { throw .damaged(.png, "tRNS chunk after the image data") }
                switch header!.colourType {
                case 0: guard length == 2 else { throw .damaged(.png, "greyscale tRNS chunk of \(length) bytes (must be 2)") }
                case 2: guard length == 6 else { throw .damaged(.png, "RGB tRNS chunk of \(length) bytes (must be 6)") }
                case 3:
                    guard let palette else { throw .damaged(.png, "tRNS chunk before PLTE") }
                    guard length <= palette.count / 3 else { throw .damaged(.png, "tRNS chunk with more entries than the palette") }
                default: throw .damaged(.png, "tRNS chunk in an image with an alpha channel")
                }
                transparency = Array(data)
            case "IDAT":
                guard idatState != 2 else { throw .damaged(.png, "IDAT chunks are not consecutive") }
                if header!.colourType == 3 && palette == nil { throw .damaged(.png, "palette image without PLTE before its data") }
                idatState = 1
                imageData.append(contentsOf: data)
            case "IEND":
                ended = true
            default:
                // Bit 5 of the first letter: lower case marks an ancillary
                // chunk, safe to skip; an unknown critical one is not.
                guard typeBytes.first! & 0x20 != 0 else { throw .unsupported(.png, "critical chunk \(type)") }
            }
        }
        guard let header else { throw .damaged(.png, "no IHDR chunk") }
        guard idatState != 0 else { throw .damaged(.png, "no IDAT chunk") }
        try start(header)
        var rows = PNGRows(header: header, palette: palette, transparency: transparency, background: background)
        try imageData.withUnsafeBufferPointer { data throws(ImageError) in
            try Inflater.zlib(data, outputSize: header.dataSize, chunk: rows.longestRow) { inflated throws(ImageError) in
                try read(&rows, inflated)
            }
        }
    }
}
