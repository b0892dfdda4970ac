import Testing
@testable import PuzzleClient

private func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}

@Suite struct ColorModeTests {
    @Test func plainWhenNotATerminal() {
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], isTTY: false) == .plain)
    }

    @Test func plainForDumbTerminal() {
        #expect(ColorMode.detect(environment: ["TERM": "dumb", "COLORTERM": "truecolor"], isTTY: true) == .plain)
    }

    @Test func noColorWithAnyNonEmptyValue() {
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"], isTTY: true) == .plain)
        #expect(ColorMode.detect(environment: ["TERM": "xterm", "NO_COLOR": "0", "COLORTERM": "24bit"], isTTY: true) == .plain)
        // no-color.org: an empty NO_COLOR does not count.
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color", "NO_COLOR": ""], isTTY: true) == .palette256)
    }

    @Test func trueColorFromColorterm() {
        #expect(ColorMode.detect(environment: ["TERM": "xterm", "COLORTERM": "truecolor"], isTTY: true) == .trueColor)
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color", "COLORTERM": "24bit"], isTTY: true) == .trueColor)
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color", "COLORTERM": "yes"], isTTY: true) == .palette256)
    }

    @Test func palette256AndFallback() {
        #expect(ColorMode.detect(environment: ["TERM": "screen-256color"], isTTY: true) == .palette256)
        #expect(ColorMode.detect(environment: ["TERM": "xterm"], isTTY: true) == .palette16)
        #expect(ColorMode.detect(environment: [:], isTTY: true) == .palette16)
    }

    @Test func trueColorSequences() {
        let color = TerminalColor(red: 1, green: 22, blue: 255)
        #expect(text(ColorMode.trueColor.sgr(for: color, background: false)) == "\u{1B}[38;2;1;22;255m")
        #expect(text(ColorMode.trueColor.sgr(for: color, background: true)) == "\u{1B}[48;2;1;22;255m")
    }

    @Test func nearestXterm256Entries() {
        #expect(ColorMode.nearestXterm256(TerminalColor(hex: 0xFF0000)) == 196)
        #expect(ColorMode.nearestXterm256(TerminalColor(hex: 0x000000)) == 16)
        #expect(ColorMode.nearestXterm256(TerminalColor(hex: 0xFFFFFF)) == 231)
        #expect(ColorMode.nearestXterm256(TerminalColor(hex: 0x5F87AF)) == 67)  // exact cube point
        #expect(ColorMode.nearestXterm256(TerminalColor(hex: 0x808080)) == 244)  // grey ramp 128
        #expect(ColorMode.nearestXterm256(TerminalColor(hex: 0x121212)) == 233)  // grey 18
        #expect(ColorMode.nearestXterm256(TerminalColor(hex: 0xFE0102)) == 196)  // near cube point
    }

    @Test func palette256Sequences() {
        let red = TerminalColor(hex: 0xFF0000)
        #expect(text(ColorMode.palette256.sgr(for: red, background: false)) == "\u{1B}[38;5;196m")
        #expect(text(ColorMode.palette256.sgr(for: red, background: true)) == "\u{1B}[48;5;196m")
    }

    @Test func nearestANSI16Entries() {
        #expect(ColorMode.nearestANSI16(TerminalColor(hex: 0x000000)) == 0)
        #expect(ColorMode.nearestANSI16(TerminalColor(hex: 0xC00000)) == 1)
        #expect(ColorMode.nearestANSI16(TerminalColor(hex: 0xFA1010)) == 9)
        #expect(ColorMode.nearestANSI16(TerminalColor(hex: 0x6060F0)) == 12)
        #expect(ColorMode.nearestANSI16(TerminalColor(hex: 0x808080)) == 8)
    }

    @Test func palette16Sequences() {
        let dark = TerminalColor(hex: 0xC00000)
        let bright = TerminalColor(hex: 0xFA1010)
        #expect(text(ColorMode.palette16.sgr(for: dark, background: false)) == "\u{1B}[31m")
        #expect(text(ColorMode.palette16.sgr(for: dark, background: true)) == "\u{1B}[41m")
        #expect(text(ColorMode.palette16.sgr(for: bright, background: false)) == "\u{1B}[91m")
        #expect(text(ColorMode.palette16.sgr(for: bright, background: true)) == "\u{1B}[101m")
    }

    @Test func plainHasNoSequences() {
        #expect(ColorMode.plain.sgr(for: TerminalColor(hex: 0xFF0000), background: false).isEmpty)
    }
}
