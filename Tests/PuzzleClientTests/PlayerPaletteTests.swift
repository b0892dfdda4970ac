import Testing
import PuzzleCore
@testable import PuzzleClient

/// The players' palette (issue 16, spoiler 4).
@Suite struct PlayerPaletteTests {
    @Test func twelveColoursStayApartInTwoHundredFiftySixColours() {
        #expect(PlayerPalette.colors.count >= 12)
        let indices = PlayerPalette.colors.map(ColorMode.nearestXterm256)
        #expect(Set(indices).count == PlayerPalette.colors.count, "\(indices)")
        // Middle brightness: readable on a dark and on a light terminal.
        for c in PlayerPalette.colors { #expect((75...180).contains(c.luminance), "\(c) luminance \(c.luminance)") }
    }

    @Test func markersAreDistinctSingleColumnASCIIUnusedForShadingOrBorders() {
        let markers = PlayerPalette.markers
        #expect(markers.count >= 12 && Set(markers).count == markers.count)
        let reserved = Set(PixelCanvas.shades + ["|", "-", "+", "<", ">", "^", "v", "/", "\\", "?"])
        for m in markers {
            #expect(m.isASCII && !m.isNumber && !m.isWhitespace && !reserved.contains(m), "\(m)")
        }
    }

    /// Beyond twelve players colours repeat, but colour and marker together
    /// tell the first 144 slots apart.
    @Test func slotsBeyondThePaletteDifferByColourAndMarker() {
        let pairs = (0..<144).map { "\(PlayerPalette.color(slot: $0))\(PlayerPalette.marker(slot: $0))" }
        #expect(Set(pairs).count == 144)
        #expect(PlayerPalette.color(slot: 12) == PlayerPalette.color(slot: 0))
        #expect(PlayerPalette.marker(slot: 12) != PlayerPalette.marker(slot: 0))
    }

    /// alice (#1) and erin (#9) in one room: by id they were both red `##`.
    @Test func playersOneAndNineDrawInDifferentColours() throws {
        var st = RoomState(settings: RoomSettings(first: try PuzzleSpec(kind: .jigsaw, rows: 3, cols: 3), seed: 3))
        let alice = PlayerID(1), erin = PlayerID(9)
        try st.perform(.join(name: "alice"), by: alice, at: 0)
        try st.perform(.join(name: "erin"), by: erin, at: 0)
        #expect(PlayerPalette.color(of: alice, in: st.colorSlots) != PlayerPalette.color(of: erin, in: st.colorSlots))
        #expect(PlayerPalette.marker(of: alice, in: st.colorSlots) != PlayerPalette.marker(of: erin, in: st.colorSlots))
        // On screen: the panel's swatches.
        for mode in [ColorMode.trueColor, .plain] {
            let scene = Scene(width: 120, height: 40, colorMode: mode, room: "lobby", state: st, picture: nil,
                              myID: alice, names: [alice: "alice", erin: "erin"], now: 0, rttMillis: 1, messages: [])
            let f = SceneRenderer.render(scene)
            func swatch(_ name: String) -> Frame.Cell? {
                for r in 0..<f.height {
                    let row = String((0..<f.width).map { f[r, $0].character })
                    if let i = row.range(of: " \(name)")?.lowerBound {
                        let column = row.distance(from: row.startIndex, to: i) - 2
                        return column >= 0 ? f[r, column] : nil
                    }
                }
                return nil
            }
            let a = try #require(swatch("alice")), e = try #require(swatch("erin"))
            #expect(a.character != e.character || a.style.foreground != e.style.foreground, "\(mode)")
            if mode == .trueColor { #expect(a.style.foreground != e.style.foreground) }
            if mode == .plain { #expect(a.character != e.character) }
        }
    }
}
