/// Turning a frame into terminal output.
extension Frame {
    /// The bytes that change a terminal showing `previous` into one showing this frame.
    ///
    /// When `previous` is nil or of another size the screen is cleared first and every
    /// non-blank cell is drawn. Otherwise only changed cells are written: the cursor is moved
    /// only where a run of changed cells starts, SGR is emitted only when the style changes, and
    /// attributes are reset at the end. The cursor is then put at `cursor` (shown) or hidden;
    /// identical frames with the same cursor produce no bytes.
    ///
    /// A wide character is written once, from its own cell; its continuation cell never is.
    ///
    /// In `plain` mode colours are left out; bold, underline and inverse are still drawn.
    /// Control characters (and U+2028/U+2029) in cells are written as "?" so they cannot
    /// disturb the terminal.
    public func diff(from previous: Frame?, colorMode: ColorMode) -> [UInt8] {
        var output: [UInt8] = []
        appendDiff(from: previous, colorMode: colorMode, to: &output)
        return output
    }

    /// `diff(from:colorMode:)` appended to `output`.
    func appendDiff(from previous: Frame?, colorMode: ColorMode, to output: inout [UInt8]) {
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
            cursorKnownVisible = nil  // unknown: state it explicitly below
        }

        var pen = Style.default
        // nil: position unknown (after writing the last column the terminal may be pending a wrap).
        var position: Position? = nil
        var wroteCells = false
        // Only plain mode shows a cell otherwise than it is (`shown(in:)`); elsewhere the
        // cells are compared as they are, without copying each one.
        let plain = colorMode == .plain
        output.reserveCapacity(output.count + 4096)
        for row in 0..<height {
            for column in 0..<width {
                let index = row * width + column
                // A continuation is drawn by its wide character, which differs too when it does.
                if cells[index].isContinuation { continue }
                let wide = column + 1 < width && cells[index + 1].isContinuation
                if plain {
                    guard cells[index].shown(in: colorMode) != base.cells[index].shown(in: colorMode)
                            || (wide && cells[index + 1].shown(in: colorMode) != base.cells[index + 1].shown(in: colorMode)) else { continue }
                } else {
                    guard cells[index] != base.cells[index] || (wide && cells[index + 1] != base.cells[index + 1]) else { continue }
                }
                let cell = plain ? cells[index].shown(in: colorMode) : cells[index]
                if position != Position(row: row, column: column) {
                    ANSI.appendMoveCursor(row: row, column: column, to: &output)
                }
                if cell.style != pen {
                    Self.appendSGR(for: cell.style, colorMode: colorMode, to: &output)
                    pen = cell.style
                }
                Self.appendCharacter(cell.character, to: &output)
                wroteCells = true
                // After a wide character, or a cluster of several scalars, the next cell is
                // placed explicitly: a terminal whose idea of the width differs (an older
                // Unicode, '❤️' as one column) then shows at most that one glyph amiss.
                let advance = wide ? 2 : 1
                let certain = !wide && cell.character.unicodeScalars.count == 1
                position = certain && column + advance < width ? Position(row: row, column: column + advance) : nil
            }
        }
        if pen != .default {
            output += ANSI.resetAttributes
        }

        if let cursor {
            if wroteCells || cursor != previousCursor || cursorKnownVisible != true {
                ANSI.appendMoveCursor(row: cursor.row, column: cursor.column, to: &output)
            }
            if cursorKnownVisible != true {
                output += ANSI.showCursor
            }
        } else if cursorKnownVisible != false {
            output += ANSI.hideCursor
        }
    }

    /// SGR selecting `style` from any previous state: reset, then attributes and colours.
    static func sgr(for style: Style, colorMode: ColorMode) -> [UInt8] {
        var bytes: [UInt8] = []
        appendSGR(for: style, colorMode: colorMode, to: &bytes)
        return bytes
    }

    /// `sgr(for:colorMode:)` appended to `output`, with no array made on the way.
    static func appendSGR(for style: Style, colorMode: ColorMode, to output: inout [UInt8]) {
        output.append(ANSI.escape)
        output.append(UInt8(ascii: "["))
        output.append(UInt8(ascii: "0"))
        if style.bold { output.append(UInt8(ascii: ";")); output.append(UInt8(ascii: "1")) }
        if style.underline { output.append(UInt8(ascii: ";")); output.append(UInt8(ascii: "4")) }
        if style.inverse { output.append(UInt8(ascii: ";")); output.append(UInt8(ascii: "7")) }
        if let foreground = style.foreground {
            colorMode.appendSGRParameters(for: foreground, background: false, to: &output)
        }
        if let background = style.background {
            colorMode.appendSGRParameters(for: background, background: true, to: &output)
        }
        output.append(UInt8(ascii: "m"))
    }

    static func appendCharacter(_ character: Character, to output: inout [UInt8]) {
        // C0 and C1 controls, and the line and paragraph separators (U+2028, U+2029), which a
        // terminal may take as a line break.
        let isControl = character.unicodeScalars.contains { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
        }
        if isControl {
            output.append(UInt8(ascii: "?"))
        } else {
            output.append(contentsOf: character.utf8)
        }
    }
}
