/// Turning colours into SGR parameters for each mode.
extension ColorMode {
    /// The SGR parameters (without ESC [ and m) that select `color` as foreground or background,
    /// or an empty array in `plain` mode.
    public func sgrParameters(for color: TerminalColor, background: Bool) -> [Int] {
        switch self {
        case .trueColor:
            return [background ? 48 : 38, 2, Int(color.red), Int(color.green), Int(color.blue)]
        case .palette256:
            return [background ? 48 : 38, 5, Self.nearestXterm256(color)]
        case .palette16:
            let index = Self.nearestANSI16(color)
            let base = index < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
            return [base + index % 8]
        case .plain:
            return []
        }
    }

    /// Appends `;` and each SGR parameter `sgrParameters(for:background:)` gives, without
    /// making an array: a frame of half blocks writes two colours for most of its cells.
    func appendSGRParameters(for color: TerminalColor, background: Bool, to bytes: inout [UInt8]) {
        switch self {
        case .trueColor:
            bytes += background ? Self.trueBackgroundPrefix : Self.trueForegroundPrefix
            ANSI.appendDecimal(Int(color.red), to: &bytes)
            bytes.append(UInt8(ascii: ";"))
            ANSI.appendDecimal(Int(color.green), to: &bytes)
            bytes.append(UInt8(ascii: ";"))
            ANSI.appendDecimal(Int(color.blue), to: &bytes)
        case .palette256:
            bytes += background ? Self.paletteBackgroundPrefix : Self.paletteForegroundPrefix
            ANSI.appendDecimal(Self.nearestXterm256(color), to: &bytes)
        case .palette16:
            let index = Self.nearestANSI16(color)
            let base = index < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
            bytes.append(UInt8(ascii: ";"))
            ANSI.appendDecimal(base + index % 8, to: &bytes)
        case .plain:
            break
        }
    }

    static let trueForegroundPrefix: [UInt8] = Array(";38;2;".utf8)
    static let trueBackgroundPrefix: [UInt8] = Array(";48;2;".utf8)
    static let paletteForegroundPrefix: [UInt8] = Array(";38;5;".utf8)
    static let paletteBackgroundPrefix: [UInt8] = Array(";48;5;".utf8)

    /// The complete sequence (ESC [ ... m) selecting `color`, or no bytes in `plain` mode.
    public func sgr(for color: TerminalColor, background: Bool) -> [UInt8] {
        let parameters = sgrParameters(for: color, background: background)
        guard !parameters.isEmpty else { return [] }
        return Self.sgrSequence(parameters)
    }

    /// ESC [ p1;p2;... m
    static func sgrSequence(_ parameters: [Int]) -> [UInt8] {
        var bytes: [UInt8] = [ANSI.escape, UInt8(ascii: "[")]
        for (index, parameter) in parameters.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ";")) }
            ANSI.appendDecimal(parameter, to: &bytes)
        }
        bytes.append(UInt8(ascii: "m"))
        return bytes
    }

    /// The xterm default RGB values of the 16 ANSI colours, indexed 0–15.
    public static let ansi16Palette: [TerminalColor] = [
        0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
        0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
    ].map { TerminalColor(hex: $0) }

    /// Index 0–15 of the ANSI colour nearest to `color`.
    public static func nearestANSI16(_ color: TerminalColor) -> Int {
        var best = 0
        var bestDistance = Int.max
        for (index, candidate) in ansi16Palette.enumerated() {
            let distance = color.distanceSquared(to: candidate)
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }

    /// The channel values of the 6×6×6 cube at palette entries 16–231.
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// For each channel value, the index of the nearest of `cubeLevels` (the lower on a tie).
    static let nearestLevels: [UInt8] = (0...255).map { value in
        var best = 0
        for index in 1..<cubeLevels.count where abs(cubeLevels[index] - value) < abs(cubeLevels[best] - value) {
            best = index
        }
        return UInt8(best)
    }

    /// Index 16–255 of the xterm-256 entry nearest to `color`: the closest point of the colour
    /// cube or of the grey ramp (232–255), whichever is nearer. Entries 0–15 are skipped because
    /// terminals often redefine them.
    public static func nearestXterm256(_ color: TerminalColor) -> Int {
        let r = Int(nearestLevels[Int(color.red)])
        let g = Int(nearestLevels[Int(color.green)])
        let b = Int(nearestLevels[Int(color.blue)])
        let cubeColor = TerminalColor(
            red: UInt8(cubeLevels[r]), green: UInt8(cubeLevels[g]), blue: UInt8(cubeLevels[b]))
        let cubeIndex = 16 + 36 * r + 6 * g + b

        // Grey ramp: 8, 18, ..., 238 at entries 232–255.
        let average = (Int(color.red) + Int(color.green) + Int(color.blue)) / 3
        let greyStep = min(23, max(0, (average - 8 + 5) / 10))
        let greyValue = UInt8(8 + 10 * greyStep)
        let greyColor = TerminalColor(red: greyValue, green: greyValue, blue: greyValue)
        let greyIndex = 232 + greyStep

        return color.distanceSquared(to: greyColor) < color.distanceSquared(to: cubeColor) ? greyIndex : cubeIndex
    }
}
