import Dispatch
import Foundation

/// Decodes JPEG files (ITU T.81, JFIF/EXIF): baseline, extended sequential
/// (8-bit Huffman) and progressive; greyscale, YCbCr, RGB and Adobe
/// CMYK/YCCK; any sampling factors 1...4; restart intervals; the EXIF
/// orientation applied. Samples equal libjpeg-turbo's `djpeg -dct int`
/// (islow IDCT, fancy upsampling, its YCbCr tables), both its defaults.
public enum JPEGDecoder {
    public static func decode(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(ImageError) -> RGBImage {
        try limits.check(fileBytes: bytes.count)
        return try bytes.withUnsafeBufferPointer { data throws(ImageError) in
            var parser = JPEGParser(data: data, limits: limits)
            return try parser.run()
        }
    }

    /// The picture box-filtered to at most `maxSide` pixels a side, upright,
    /// and its full upright size. A picture at least twice `maxSide` (the
    /// larger side) is decoded at 1/2, 1/4 or 1/8 scale, keeping only the
    /// coefficients that scale's IDCT needs (see `JPEGComponent`), so a
    /// progressive picture's coefficients take at most 2/128 of their full
    /// size for pictures 8 times `maxSide` and more; the samples then go row
    /// by row into the output's boxes, never into a full-size image.
    public static func decode(_ bytes: [UInt8], limits: ImageLimits = ImageLimits(), fitting maxSide: Int) throws(ImageError) -> (image: RGBImage, width: Int, height: Int) {
        try limits.check(fileBytes: bytes.count)
        return try bytes.withUnsafeBufferPointer { data throws(ImageError) in
            var parser = JPEGParser(data: data, limits: limits, maxSide: maxSide)
            try parser.parse()
            let image = try parser.fittedOutput(maxSide: maxSide)
            let swaps = (5...8).contains(parser.orientation)
            return (image, swaps ? parser.height : parser.width, swaps ? parser.width : parser.height)
        }
    }
}

/// The marker-by-marker walk over one file.
private struct JPEGParser {
    let data: UnsafeBufferPointer<UInt8>
    let limits: ImageLimits
    var position = 2
    var quantTables: [[Int32]?] = [nil, nil, nil, nil]
    var dcTables: [JPEGHuffmanTable?] = [nil, nil, nil, nil]
    var acTables: [JPEGHuffmanTable?] = [nil, nil, nil, nil]
    var restartInterval = 0
    var components: [JPEGComponent] = []
    var width = 0, height = 0, hMax = 1, vMax = 1, mcusPerLine = 0, mcuRows = 0
    var progressive = false
    var sawJFIF = false
    var adobeTransform: Int?
    var orientation = 1
    var scans = 0
    /// With a size to fit: the picture is decoded at 1/`reduction` scale.
    let maxSide: Int?
    var reduction = 1

    init(data: UnsafeBufferPointer<UInt8>, limits: ImageLimits, maxSide: Int? = nil) {
        self.data = data
        self.limits = limits
        self.maxSide = maxSide
    }

    mutating func run() throws(ImageError) -> RGBImage {
        try parse()
        return try output().oriented(orientation)
    }

    /// Reads every marker and scan up to EOI.
    mutating func parse() throws(ImageError) {
        guard data.count >= 2, data[0] == 0xFF, data[1] == 0xD8 else { throw .damaged(.jpeg, "no SOI marker at the start") }
        while true {
            // Markers may be preceded by any number of FF fill bytes.
            guard position < data.count else {
                throw .truncated(.jpeg, components.isEmpty ? "the headers (no frame)" : scans == 0 ? "the headers (no scan)" : "the file (no EOI marker)")
            }
            guard data[position] == 0xFF else { throw .damaged(.jpeg, "expected a marker at byte \(position), found \(data[position])") }
            while position < data.count && data[position] == 0xFF { position += 1 }
            guard position < data.count else { throw .truncated(.jpeg, "a marker") }
            let marker = data[position]
            position += 1
            if marker == 0xD9 { break }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { continue }
            guard marker != 0xD8 else { throw .damaged(.jpeg, "a second SOI marker") }
            guard position + 2 <= data.count else { throw .truncated(.jpeg, "the length of marker \(hex(marker))") }
            let length = Int(data[position]) << 8 | Int(data[position + 1])
            guard length >= 2 else { throw .damaged(.jpeg, "marker \(hex(marker)) with length \(length)") }
            guard position + length <= data.count else { throw .truncated(.jpeg, "segment \(hex(marker))") }
            let segment = Array(data[position + 2 ..< position + length])[...]
            position += length
            switch marker {
            case 0xC0, 0xC1, 0xC2: try frame(segment, progressive: marker == 0xC2)
            case 0xC3, 0xC5, 0xC6, 0xC7, 0xCB, 0xCD, 0xCE, 0xCF:
                throw .unsupported(.jpeg, "lossless or hierarchical JPEG (SOF\(marker - 0xC0))")
            case 0xC9, 0xCA: throw .unsupported(.jpeg, "arithmetic-coded JPEG (SOF\(marker - 0xC0))")
            case 0xC4: try huffmanTables(segment)
            case 0xDB: try quantisationTables(segment)
            case 0xDD:
                guard segment.count == 2 else { throw .damaged(.jpeg, "DRI segment of \(segment.count) bytes") }
                restartInterval = Int(segment[segment.startIndex]) << 8 | Int(segment[segment.startIndex + 1])
            case 0xDA: try scan(segment)
            case 0xDC: throw .unsupported(.jpeg, "a DNL marker (height given after the data)")
            case 0xE0: if segment.starts(with: [0x4A, 0x46, 0x49, 0x46, 0]) { sawJFIF = true }
            case 0xE1: if orientation == 1 { orientation = EXIFOrientation.read(segment) }
            case 0xEE:
                if segment.count >= 12, segment.starts(with: [0x41, 0x64, 0x6F, 0x62, 0x65]) {
                    adobeTransform = Int(segment[segment.startIndex + 11])
                }
            default: break   // APPn, COM and others carry nothing we need.
            }
        }
        guard scans > 0, !components.isEmpty else { throw .damaged(.jpeg, "no frame or no scan before EOI") }
    }

    func hex(_ marker: UInt8) -> String { "FF" + String(marker, radix: 16, uppercase: true) }

    mutating func frame(_ s: ArraySlice<UInt8>, progressive: Bool) throws(ImageError) {
        guard components.isEmpty else { throw .damaged(.jpeg, "a second frame (SOF) marker") }
        let b = Array(s)
        guard b.count >= 6 else { throw .damaged(.jpeg, "SOF segment of \(b.count) bytes") }
        guard b[0] == 8 else { throw .unsupported(.jpeg, "\(b[0])-bit samples (only 8)") }
        height = Int(b[1]) << 8 | Int(b[2])
        width = Int(b[3]) << 8 | Int(b[4])
        let count = Int(b[5])
        guard height > 0 else { throw .unsupported(.jpeg, "height 0 (given later by DNL)") }
        try limits.check(width: width, height: height, format: .jpeg)
        guard [1, 3, 4].contains(count) else { throw .unsupported(.jpeg, "\(count) components") }
        guard b.count == 6 + count * 3 else { throw .damaged(.jpeg, "SOF segment of \(b.count) bytes for \(count) components") }
        var specs: [(id: Int, h: Int, v: Int, q: Int)] = []
        for i in 0..<count {
            let id = Int(b[6 + i * 3]), hv = Int(b[7 + i * 3]), q = Int(b[8 + i * 3])
            let h = hv >> 4, v = hv & 15
            guard (1...4).contains(h), (1...4).contains(v) else { throw .damaged(.jpeg, "component \(id) sampling \(h)x\(v)") }
            guard q <= 3 else { throw .damaged(.jpeg, "component \(id) uses quantisation table \(q)") }
            guard !specs.contains(where: { $0.id == id }) else { throw .damaged(.jpeg, "component id \(id) appears twice") }
            specs.append((id, h, v, q))
        }
        hMax = specs.map(\.h).max()!
        vMax = specs.map(\.v).max()!
        for s in specs where hMax % s.h != 0 || vMax % s.v != 0 {
            throw .unsupported(.jpeg, "component \(s.id) sampling \(s.h)x\(s.v) is not a whole fraction of \(hMax)x\(vMax)")
        }
        mcusPerLine = (width + 8 * hMax - 1) / (8 * hMax)
        mcuRows = (height + 8 * vMax - 1) / (8 * vMax)
        // Blocks cover whole MCUs: a 1-pixel-wide, very tall picture with
        // large sampling factors would need 32 times its pixels. Bound the
        // padded area too before allocating coefficients for it.
        let paddedWidth = mcusPerLine * 8 * hMax, paddedHeight = mcuRows * 8 * vMax
        guard paddedWidth * paddedHeight <= max(4 * limits.maxPixels, 1 << 20) else {
            throw .unsupported(.jpeg, "a \(width)x\(height) picture in \(8 * hMax)x\(8 * vMax) blocks needs \(paddedWidth)x\(paddedHeight) samples, more than 4 times the pixel limit")
        }
        self.progressive = progressive
        // Fitting a picture at least twice the side asked for: decode at
        // 1/2, 1/4 or 1/8 scale (the output then still has at least as many
        // samples as the fitted picture along each side).
        if let maxSide {
            while reduction < 8 && max(width, height) >= reduction * 2 * maxSide { reduction *= 2 }
        }
        let base = 8 / reduction
        let hMax = hMax, vMax = vMax
        components = specs.map { spec in
            // As libjpeg-turbo: a subsampled component gets a larger IDCT
            // instead of being upsampled, where its ratio allows.
            var size = base
            while size < 8 && (hMax * base) % (spec.h * size * 2) == 0 && (vMax * base) % (spec.v * size * 2) == 0 { size *= 2 }
            return JPEGComponent(id: spec.id, h: spec.h, v: spec.v, quantTable: spec.q, mcusPerLine: mcusPerLine, mcuRows: mcuRows,
                                 imageWidth: width, imageHeight: height, hMax: hMax, vMax: vMax, scale: size, progressive: progressive)
        }
    }

    mutating func huffmanTables(_ s: ArraySlice<UInt8>) throws(ImageError) {
        var i = s.startIndex
        while i < s.endIndex {
            guard i + 17 <= s.endIndex else { throw .damaged(.jpeg, "DHT segment ends inside a table") }
            let tc = Int(s[i] >> 4), th = Int(s[i] & 15)
            guard tc <= 1, th <= 3 else { throw .damaged(.jpeg, "DHT table class \(tc) id \(th)") }
            let counts = (0..<16).map { Int(s[i + 1 + $0]) }
            let total = counts.reduce(0, +)
            guard total <= 256, i + 17 + total <= s.endIndex else { throw .damaged(.jpeg, "DHT table \(tc == 0 ? "DC" : "AC")\(th) holds \(total) symbols beyond its segment") }
            let table = try JPEGHuffmanTable(counts: counts, values: Array(s[i + 17 ..< i + 17 + total]))
            if tc == 0 { dcTables[th] = table } else { acTables[th] = table }
            i += 17 + total
        }
    }

    mutating func quantisationTables(_ s: ArraySlice<UInt8>) throws(ImageError) {
        var i = s.startIndex
        while i < s.endIndex {
            let precision = Int(s[i] >> 4), id = Int(s[i] & 15)
            guard precision <= 1, id <= 3 else { throw .damaged(.jpeg, "DQT table \(id) precision \(precision)") }
            let size = precision == 0 ? 64 : 128
            guard i + 1 + size <= s.endIndex else { throw .damaged(.jpeg, "DQT segment ends inside table \(id)") }
            var table = [Int32](repeating: 0, count: 64)
            for k in 0..<64 {
                let v = precision == 0 ? Int32(s[i + 1 + k]) : Int32(s[i + 1 + 2 * k]) << 8 | Int32(s[i + 2 + 2 * k])
                table[JPEGScan.naturalOrder[k]] = v
            }
            quantTables[id] = table
            i += 1 + size
        }
    }

    mutating func scan(_ s: ArraySlice<UInt8>) throws(ImageError) {
        guard !components.isEmpty else { throw .damaged(.jpeg, "SOS before the frame (SOF)") }
        let b = Array(s)
        guard let count = b.first.map(Int.init), (1...4).contains(count), b.count == 4 + count * 2 else {
            throw .damaged(.jpeg, "SOS segment of \(b.count) bytes")
        }
        var scanComponents: [JPEGComponent] = []
        for i in 0..<count {
            let id = Int(b[1 + i * 2])
            guard let c = components.first(where: { $0.id == id }) else { throw .damaged(.jpeg, "scan names component \(id), which the frame has not") }
            guard !scanComponents.contains(where: { $0 === c }) else { throw .damaged(.jpeg, "scan names component \(id) twice") }
            c.dcTable = Int(b[2 + i * 2] >> 4)
            c.acTable = Int(b[2 + i * 2] & 15)
            guard c.dcTable <= 3, c.acTable <= 3 else { throw .damaged(.jpeg, "scan uses Huffman table \(max(c.dcTable, c.acTable))") }
            if c.quant == nil {
                guard let q = quantTables[c.quantTable] else { throw .damaged(.jpeg, "component \(id) uses quantisation table \(c.quantTable), which was never defined") }
                c.quant = q
            }
            scanComponents.append(c)
        }
        let ss = Int(b[1 + count * 2]), se = Int(b[2 + count * 2]), ah = Int(b[3 + count * 2] >> 4), al = Int(b[3 + count * 2] & 15)
        if progressive {
            let dc = ss == 0
            guard (dc && se == 0) || (!dc && ss <= se && se <= 63 && count == 1), ah <= 13, al <= 13 else {
                throw .damaged(.jpeg, "progressive scan band \(ss)...\(se), bits \(ah)/\(al)")
            }
        } else {
            guard ss == 0, se == 63, ah == 0, al == 0 else { throw .damaged(.jpeg, "sequential scan band \(ss)...\(se), bits \(ah)/\(al)") }
        }
        if progressive && ss > 0 && scanComponents[0].scale == 1 {
            // Only the DC is kept at 1/8 scale: an AC scan is skipped unread.
            position = JPEGScan.endOfData(data, from: position)
            scans += 1
            return
        }
        let blocksPerMCU = scanComponents.reduce(0) { $0 + $1.h * $1.v }
        guard count == 1 || blocksPerMCU <= 10 else { throw .damaged(.jpeg, "an MCU of \(blocksPerMCU) blocks (at most 10)") }
        var decoder = JPEGScan(components: scanComponents, dcTables: dcTables, acTables: acTables, progressive: progressive,
                               spectralStart: ss, spectralEnd: se, approximationHigh: ah, approximationLow: al,
                               restartInterval: restartInterval, mcusPerLine: mcusPerLine, mcuRows: mcuRows)
        position = try decoder.decode(data, from: position)
        scans += 1
    }

    /// IDCT every block into component planes, then upsample and convert
    /// row by row into RGB.
    func output() throws(ImageError) -> RGBImage {
        let colour = colour
        var planes: [UnsafeMutablePointer<UInt8>] = []
        defer { for p in planes { p.deallocate() } }
        for c in components {
            planes.append(.allocate(capacity: c.blocksPerLine * 8 * c.blocksPerColumn * 8))
        }
        // A large picture is transformed and converted in bands on every
        // core (djpeg uses SIMD instead); each band has its own scratch
        // memory and writes only its own rows. The result does not depend
        // on the number of bands.
        let bands = width * height >= 1 << 20 ? max(1, min(8, ProcessInfo.processInfo.activeProcessorCount)) : 1
        let shared = Unchecked((components, planes))
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let (components, planes) = shared.value
            let workspace = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
            defer { workspace.deallocate() }
            for (c, plane) in zip(components, planes) {
                let stride = c.blocksPerLine * 8
                // A component no scan reached has no quantisation table: grey.
                let quant = c.quant ?? [Int32](repeating: 0, count: 64)
                quant.withUnsafeBufferPointer { q in
                    for row in c.blocksPerColumn * band / bands ..< c.blocksPerColumn * (band + 1) / bands {
                        for col in 0 ..< c.blocksPerLine {
                            JPEGIDCT.transform(c.block(row: row, col: col), q.baseAddress!, workspace, plane + row * 8 * stride + col * 8, stride: stride)
                        }
                    }
                }
            }
        }
        let upsamplers = zip(components, planes).map { c, plane in
            JPEGUpsampler(plane: plane, stride: c.blocksPerLine * 8, width: c.width, height: c.height, ratioH: hMax / c.h, ratioV: vMax / c.v)
        }
        let scratchWidth = mcusPerLine * hMax * 8 + 16
        let w = width, h = height
        // Every sample is written below: no need to zero 3 bytes a pixel first.
        let rgb = [UInt8](unsafeUninitializedCapacity: w * h * 3) { out, initialized in
            initialized = w * h * 3
            let target = Unchecked(out.baseAddress!)
            let shared = Unchecked(upsamplers)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let upsamplers = shared.value
                let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchWidth * upsamplers.count)
                defer { scratch.deallocate() }
                let t = JPEGColour.tables
                t.crR.withUnsafeBufferPointer { crR in
                    t.cbB.withUnsafeBufferPointer { cbB in
                        t.crG.withUnsafeBufferPointer { crG in
                            t.cbG.withUnsafeBufferPointer { cbG in
                                var rows = [UnsafePointer<UInt8>](repeating: UnsafePointer(scratch), count: upsamplers.count)
                                for y in h * band / bands ..< h * (band + 1) / bands {
                                    for i in upsamplers.indices { rows[i] = upsamplers[i].row(y, into: scratch + i * scratchWidth) }
                                    JPEGColour.convert(colour, rows: rows, width: w, into: target.value + y * w * 3,
                                                       crR: crR.baseAddress!, cbB: cbB.baseAddress!, crG: crG.baseAddress!, cbG: cbG.baseAddress!)
                                }
                            }
                        }
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, rgb: rgb)
    }
}

extension JPEGParser {
    /// How the components become RGB, chosen as libjpeg does.
    var colour: JPEGColour {
        switch components.count {
        case 1: return .grey
        case 3:
            let ids = components.map(\.id)
            if let t = adobeTransform { return t == 0 ? .rgb : .yCbCr }
            if !sawJFIF && ids == [0x52, 0x47, 0x42] { return .rgb }
            return .yCbCr
        default: return adobeTransform == 2 ? .ycck : .cmyk
        }
    }

    /// The picture at its decoding scale, transformed into small component
    /// planes, then upsampled, converted and box-filtered a row at a time
    /// into at most `maxSide` a side, upright.
    func fittedOutput(maxSide: Int) throws(ImageError) -> RGBImage {
        let base = 8 / reduction
        let w = (width * base + 7) / 8, h = (height * base + 7) / 8
        let fitted = BoxShrinker.fittedSize(width: width, height: height, orientation: orientation, maxSide: maxSide)
        var sink = try BoxShrinker(sourceWidth: w, sourceHeight: h, reduction: reduction, pixelWidth: width, pixelHeight: height,
                                   orientation: orientation,
                                   width: fitted.width, height: fitted.height, format: .jpeg)
        var planes: [UnsafeMutablePointer<UInt8>] = []
        defer { for p in planes { p.deallocate() } }
        let workspace = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
        defer { workspace.deallocate() }
        for c in components {
            let k = c.scale, stride = c.blocksPerLine * k
            let plane = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * c.blocksPerColumn * k)
            planes.append(plane)
            // A component no scan reached has no quantisation table: grey.
            let quant = c.quant ?? [Int32](repeating: 0, count: 64)
            quant.withUnsafeBufferPointer { q in
                for row in 0 ..< c.blocksPerColumn {
                    for col in 0 ..< c.blocksPerLine {
                        let out = plane + row * k * stride + col * k
                        if k == 8 {
                            JPEGIDCT.transform(c.block(row: row, col: col), q.baseAddress!, workspace, out, stride: stride)
                        } else {
                            JPEGScaledIDCT.transform(size: k, c.block(row: row, col: col), q.baseAddress!, out, stride: stride)
                        }
                    }
                }
            }
        }
        let upsamplers = zip(components, planes).map { c, plane in
            JPEGUpsampler(plane: plane, stride: c.blocksPerLine * c.scale, width: c.scaledWidth, height: c.scaledHeight,
                          ratioH: hMax * base / (c.h * c.scale), ratioV: vMax * base / (c.v * c.scale))
        }
        let scratchWidth = mcusPerLine * hMax * base + 16
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchWidth * upsamplers.count)
        defer { scratch.deallocate() }
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: w * 3)
        defer { line.deallocate() }
        let colour = colour
        let t = JPEGColour.tables
        t.crR.withUnsafeBufferPointer { crR in
            t.cbB.withUnsafeBufferPointer { cbB in
                t.crG.withUnsafeBufferPointer { crG in
                    t.cbG.withUnsafeBufferPointer { cbG in
                        var rows = [UnsafePointer<UInt8>](repeating: UnsafePointer(scratch), count: upsamplers.count)
                        for y in 0..<h {
                            for i in upsamplers.indices { rows[i] = upsamplers[i].row(y, into: scratch + i * scratchWidth) }
                            JPEGColour.convert(colour, rows: rows, width: w, into: line,
                                               crR: crR.baseAddress!, cbB: cbB.baseAddress!, crG: crG.baseAddress!, cbG: cbG.baseAddress!)
                            sink.add(row: y, x0: 0, dx: 1, count: w, rgb: line)
                        }
                    }
                }
            }
        }
        return sink.image
    }
}

/// Hands values that are not `Sendable` (pointers, the components) to the
/// bands of `concurrentPerform`; safe because each band touches only its own
/// rows of the shared buffers and nothing else changes meanwhile.
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
