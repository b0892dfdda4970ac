/// One colour component of a JPEG frame and its coefficients, kept for the
/// whole image (progressive scans refine them one band or bit at a time).
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
    /// 64 coefficients a block in natural (row-major) order, block rows of `blocksPerLine`.
    let coefficients: UnsafeMutablePointer<Int16>
    let coefficientCount: Int
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

    init(id: Int, h: Int, v: Int, quantTable: Int, mcusPerLine: Int, mcuRows: Int, imageWidth: Int, imageHeight: Int, hMax: Int, vMax: Int) {
        self.id = id
        self.h = h
        self.v = v
        self.quantTable = quantTable
        blocksPerLine = mcusPerLine * h
        blocksPerColumn = mcuRows * v
        width = (imageWidth * h + hMax - 1) / hMax
        height = (imageHeight * v + vMax - 1) / vMax
        coefficientCount = blocksPerLine * blocksPerColumn * 64
        coefficients = .allocate(capacity: coefficientCount)
        coefficients.initialize(repeating: 0, count: coefficientCount)
    }

    deinit {
        coefficients.deallocate()
    }

    /// The first coefficient of the block at (`row`, `col`).
    @inline(__always)
    func block(row: Int, col: Int) -> UnsafeMutablePointer<Int16> {
        coefficients + (row * blocksPerLine + col) * 64
    }
}
