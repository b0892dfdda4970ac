import Testing
@testable import PuzzleClient

/// The frame diff, the SGR it writes and the widths it measures were made cheaper for
/// telnet players' frames (issue 30: no arrays per cell, no scratch digits, tables for
/// the 256-colour cube, a fast path for half blocks). The bytes must not change: these
/// tests hold the new code to the code it replaced, kept here as the reference, over
/// random frames in every colour mode.
@Suite struct FrameDiffReferenceTests {
    static let characters: [Character] = [" ", "a", "Z", "|", "-", "▀", "▄", "█", "漢", "字", "❤️", "\u{7}", "\u{85}",
                                          "e\u{301}", "\u{2028}", "ä", "→", "·", "😀"]
    static let colors: [TerminalColor?] = [nil, TerminalColor(hex: 0x000000), TerminalColor(hex: 0xFFFFFF),
                                           TerminalColor(hex: 0x3C4650), TerminalColor(hex: 0x5F87AF), TerminalColor(hex: 0x808080)]

    static func randomColor(_ rng: inout SplitMix) -> TerminalColor? {
        if rng.next() % 3 == 0 { return colors[Int(rng.next() % UInt64(colors.count))] }
        let v = rng.next()
        return TerminalColor(red: UInt8(v & 0xFF), green: UInt8(v >> 8 & 0xFF), blue: UInt8(v >> 16 & 0xFF))
    }

    static func randomStyle(_ rng: inout SplitMix) -> Frame.Style {
        let bits = rng.next()
        return Frame.Style(foreground: randomColor(&rng), background: randomColor(&rng),
                           bold: bits & 1 != 0, underline: bits & 2 != 0, inverse: bits & 4 != 0)
    }

    /// A frame with some runs of random cells (through the subscript, so wide characters stay whole).
    static func randomFrame(width: Int, height: Int, from base: Frame?, changes: Int, _ rng: inout SplitMix) -> Frame {
        var frame = base ?? Frame(width: width, height: height)
        var style = randomStyle(&rng)
        for _ in 0..<changes {
            if rng.next() % 4 == 0 { style = randomStyle(&rng) }
            let row = Int(rng.next() % UInt64(height)), column = Int(rng.next() % UInt64(width))
            frame[row, column] = Frame.Cell(characters[Int(rng.next() % UInt64(characters.count))], style: style)
        }
        frame.cursor = rng.next() % 3 == 0 ? nil : Frame.Position(row: Int(rng.next() % UInt64(height)), column: Int(rng.next() % UInt64(width)))
        return frame
    }

    @Test func diffWritesWhatTheReferenceWrote() {
        var rng = SplitMix(seed: 30)
        for round in 0..<300 {
            let width = 1 + Int(rng.next() % 40), height = 1 + Int(rng.next() % 12)
            let first = Self.randomFrame(width: width, height: height, from: nil, changes: width * height, &rng)
            let second = Self.randomFrame(width: width, height: height, from: first, changes: Int(rng.next() % UInt64(width * height + 1)), &rng)
            let other = Frame(width: width + 1, height: height)
            for mode in ColorMode.allCases {
                for previous in [nil, first, other] as [Frame?] {
                    let new = second.diff(from: previous, colorMode: mode)
                    let old = Reference.diff(second, from: previous, colorMode: mode)
                    #expect(new == old, "round \(round), \(mode)")
                    if new != old { return }
                }
                // The renderer wraps the same bytes in one synchronized update, or writes nothing.
                var renderer = FrameRenderer(colorMode: mode)
                _ = renderer.render(first)
                let wrapped = renderer.render(second)
                let changes = Reference.diff(second, from: first, colorMode: mode)
                #expect(wrapped == (changes.isEmpty ? [] : ANSI.beginSynchronizedUpdate + changes + ANSI.endSynchronizedUpdate))
                #expect(renderer.render(second).isEmpty)
            }
        }
    }

    @Test func xterm256MatchesTheSearchItReplaced() {
        var rng = SplitMix(seed: 256)
        for _ in 0..<50_000 {
            let v = rng.next()
            let color = TerminalColor(red: UInt8(v & 0xFF), green: UInt8(v >> 8 & 0xFF), blue: UInt8(v >> 16 & 0xFF))
            #expect(ColorMode.nearestXterm256(color) == Reference.nearestXterm256(color))
        }
        for grey in 0...255 {
            let color = TerminalColor(red: UInt8(grey), green: UInt8(grey), blue: UInt8(grey))
            #expect(ColorMode.nearestXterm256(color) == Reference.nearestXterm256(color))
            #expect(ColorMode.nearestLevels[grey] == UInt8(Reference.nearestLevel(UInt8(grey))))
        }
    }

    @Test func decimalsAsBefore() {
        for value in [-5, 0, 1, 9, 10, 11, 99, 100, 101, 255, 999, 1000, 10_000, 123_456_789, Int.max] {
            var bytes: [UInt8] = [0x41]
            ANSI.appendDecimal(value, to: &bytes)
            #expect(bytes == [0x41] + Array((value > 0 ? String(value) : "0").utf8))
        }
    }

    @Test func blockElementsFastPathAgreesWithTheTables() {
        for value in UInt32(0x2500)..<0x25A0 {
            let scalar = Unicode.Scalar(value)!
            #expect(DisplayWidth.of(scalar) == Reference.width(scalar), "U+\(String(value, radix: 16))")
            #expect(DisplayWidth.of(Character(scalar)) == 1)
        }
    }

    @Test func clusterWidthsAsBefore() {
        for c in Self.characters + ["👍🏽", "👨‍👩‍👧", "\u{301}", "a\u{301}\u{302}", "☺︎", "☺️", "\r\n"] as [Character] {
            #expect(DisplayWidth.of(c) == Reference.width(c), "\(c.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}

/// The code the faster paths replaced, as it was.
private enum Reference {
    static func width(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x300 { return 1 }
        if DisplayWidth.isWide(scalar) { return 2 }
        if scalar.value == 0x2028 || scalar.value == 0x2029 { return 1 }
        if DisplayWidth.isZeroWidth(scalar) { return 0 }
        return 1
    }

    static func width(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count == 1 { return width(first) }
        var width = width(first)
        for scalar in scalars {
            if DisplayWidth.isWide(scalar) { return 2 }
            if scalar.value == 0xFE0F && first.properties.isEmoji { return 2 }
        }
        if width == 0 && scalars.count > 1 { width = 1 }
        return width
    }

    static func nearestLevel(_ value: UInt8) -> Int {
        var best = 0
        for index in 1..<ColorMode.cubeLevels.count
        where abs(ColorMode.cubeLevels[index] - Int(value)) < abs(ColorMode.cubeLevels[best] - Int(value)) {
            best = index
        }
        return best
    }

    static func nearestXterm256(_ color: TerminalColor) -> Int {
        let levels = ColorMode.cubeLevels
        let r = nearestLevel(color.red), g = nearestLevel(color.green), b = nearestLevel(color.blue)
        let cubeColor = TerminalColor(red: UInt8(levels[r]), green: UInt8(levels[g]), blue: UInt8(levels[b]))
        let cubeIndex = 16 + 36 * r + 6 * g + b
        let average = (Int(color.red) + Int(color.green) + Int(color.blue)) / 3
        let greyStep = min(23, max(0, (average - 8 + 5) / 10))
        let greyValue = UInt8(8 + 10 * greyStep)
        let greyColor = TerminalColor(red: greyValue, green: greyValue, blue: greyValue)
        return color.distanceSquared(to: greyColor) < color.distanceSquared(to: cubeColor) ? 232 + greyStep : cubeIndex
    }

    static func decimal(_ value: Int) -> [UInt8] {
        guard value > 0 else { return [UInt8(ascii: "0")] }
        var digits: [UInt8] = []
        var rest = value
        while rest > 0 {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        return digits.reversed()
    }

    static func moveCursor(row: Int, column: Int) -> [UInt8] {
        [ANSI.escape, UInt8(ascii: "[")] + decimal(row + 1) + [UInt8(ascii: ";")] + decimal(column + 1) + [UInt8(ascii: "H")]
    }

    static func sgrParameters(_ mode: ColorMode, _ color: TerminalColor, background: Bool) -> [Int] {
        switch mode {
        case .trueColor: return [background ? 48 : 38, 2, Int(color.red), Int(color.green), Int(color.blue)]
        case .palette256: return [background ? 48 : 38, 5, nearestXterm256(color)]
        case .palette16:
            let index = ColorMode.nearestANSI16(color)
            let base = index < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
            return [base + index % 8]
        case .plain: return []
        }
    }

    static func sgr(_ style: Frame.Style, _ mode: ColorMode) -> [UInt8] {
        var parameters = [0]
        if style.bold { parameters.append(1) }
        if style.underline { parameters.append(4) }
        if style.inverse { parameters.append(7) }
        if let f = style.foreground { parameters += sgrParameters(mode, f, background: false) }
        if let b = style.background { parameters += sgrParameters(mode, b, background: true) }
        var bytes: [UInt8] = [ANSI.escape, UInt8(ascii: "[")]
        for (i, p) in parameters.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ";")) }
            bytes += decimal(p)
        }
        bytes.append(UInt8(ascii: "m"))
        return bytes
    }

    static func character(_ character: Character) -> [UInt8] {
        let isControl = character.unicodeScalars.contains { s in
            s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
        }
        return isControl ? [UInt8(ascii: "?")] : Array(character.utf8)
    }

    static func diff(_ frame: Frame, from previous: Frame?, colorMode: ColorMode) -> [UInt8] {
        typealias Position = Frame.Position
        let width = frame.width, height = frame.height, cells = frame.cells
        var output: [UInt8] = []
        var base: Frame
        let previousCursor: Position?
        let cursorKnownVisible: Bool?
        if let previous, previous.width == width, previous.height == height {
            base = previous
            previousCursor = previous.cursor
            cursorKnownVisible = previous.cursor != nil
        } else {
            output += ANSI.resetAttributes
            output += ANSI.clearScreen
            base = Frame(width: width, height: height)
            previousCursor = nil
            cursorKnownVisible = nil
        }
        var pen = Frame.Style.default
        var position: Position? = nil
        var wroteCells = false
        for row in 0..<height {
            for column in 0..<width {
                let index = row * width + column
                let cell = cells[index].shown(in: colorMode)
                if cell.isContinuation { continue }
                let wide = column + 1 < width && cells[index + 1].isContinuation
                guard cell != base.cells[index].shown(in: colorMode)
                        || (wide && cells[index + 1].shown(in: colorMode) != base.cells[index + 1].shown(in: colorMode)) else { continue }
                if position != Position(row: row, column: column) { output += moveCursor(row: row, column: column) }
                if cell.style != pen {
                    output += sgr(cell.style, colorMode)
                    pen = cell.style
                }
                output += character(cell.character)
                wroteCells = true
                let advance = wide ? 2 : 1
                let certain = !wide && cell.character.unicodeScalars.count == 1
                position = certain && column + advance < width ? Position(row: row, column: column + advance) : nil
            }
        }
        if pen != .default { output += ANSI.resetAttributes }
        if let cursor = frame.cursor {
            if wroteCells || cursor != previousCursor || cursorKnownVisible != true { output += moveCursor(row: cursor.row, column: cursor.column) }
            if cursorKnownVisible != true { output += ANSI.showCursor }
        } else if cursorKnownVisible != false {
            output += ANSI.hideCursor
        }
        return output
    }
}
