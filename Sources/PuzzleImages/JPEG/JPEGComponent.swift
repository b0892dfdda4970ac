/// One colour component of a JPEG frame and its coefficients, kept for the
/// whole image (progressive scans refine them one band or bit at a time).
///
/// A picture decoded at a reduced scale keeps only each block's `scale` ×
/// `scale` lowest frequencies (1: the DC alone), all a scaled IDCT uses, and
/// for progressive refinement which of the other 63 are non-zero (a bit
/// each), all their bits need: 2 to 40 bytes a block instead of 128.
final class JPEGComponent {
    let id: Int
    /// Sampling factors, 1...4.
    let h: Int
    let v: Int
    let quantTable: Int
    /// Blocks in the MCU-padded component (what interleaved scans cover).
    let blocksPerLine: Int
    let blocksPerColumn: Int
    /// The component's own size in samples, as libjpeg's `downsampled_width`:
    /// `ceil(width * h / hmax)`; non-interleaved scans cover only its blocks.
    let width: Int
    let height: Int
    /// The IDCT's size, 8 (the whole block), 4, 2 or 1: the component's
    /// samples a block along each side.
    let scale: Int
    /// The component's size at that scale (libjpeg's scaled
    /// `downsampled_width`: `ceil(width * h * scale / (hmax * 8))`).
    let scaledWidth: Int
    let scaledHeight: Int
    /// `scale`² coefficients a block in natural (row-major) order, block rows of `blocksPerLine`.
    let coefficients: UnsafeMutablePointer<Int16>
    let coefficientCount: Int
    /// Below scale 8 in a progressive picture: a bit for each of a block's
    /// 64 coefficients that is non-zero (refinement scans send a bit for each).
    let nonZero: UnsafeMutablePointer<UInt64>?
    /// The quantisation table in natural order, latched at the first scan
    /// that includes the component (as libjpeg does).
    var quant: [Int32]?
    /// The DC prediction of the current scan.
    var dcPredictor = 0
    var dcTable = 0
    var acTable = 0
    /// The current scan's tables, looked up once per scan rather than per block.
    var dcHuffman: JPEGHuffmanTable?
    var acHuffman: JPEGHuffmanTable?

    init(id: Int, h: Int, v: Int, quantTable: Int, mcusPerLine: Int, mcuRows: Int, imageWidth: Int, imageHeight: Int, hMax: Int, vMax: Int,
         scale: Int = 8, progressive: Bool = false) {
        self.id = id
        self.h = h
        self.v = v
        self.quantTable = quantTable
        blocksPerLine = mcusPerLine * h
        blocksPerColumn = mcuRows * v
        width = (imageWidth * h + hMax - 1) / hMax
        height = (imageHeight * v + vMax - 1) / vMax
        self.scale = scale
        scaledWidth = (imageWidth * h * scale + hMax * 8 - 1) / (hMax * 8)
        scaledHeight = (imageHeight * v * scale + vMax * 8 - 1) / (vMax * 8)
        coefficientCount = blocksPerLine * blocksPerColumn * scale * scale
        coefficients = .allocate(capacity: coefficientCount)
        coefficients.initialize(repeating: 0, count: coefficientCount)
        if progressive && scale > 1 && scale < 8 {
            nonZero = .allocate(capacity: blocksPerLine * blocksPerColumn)
            nonZero!.initialize(repeating: 0, count: blocksPerLine * blocksPerColumn)
        } else {
            nonZero = nil
        }
    }

    deinit {
        coefficients.deallocate()
        nonZero?.deallocate()
    }

    /// The first coefficient kept of the block at (`row`, `col`).
    @inline(__always)
    func block(row: Int, col: Int) -> UnsafeMutablePointer<Int16> {
        coefficients + (row * blocksPerLine + col) * scale * scale
    }
}
