import Testing
import PuzzleClient

/// The full screen's key rule: a printable character always types, whatever
/// is held or open; the table is played with keys that type nothing.
struct KeyMapTests {
    static let contexts: [KeyMap.Context] = [true, false].flatMap { holding in
        [true, false].flatMap { empty in
            [true, false].map { overlay in KeyMap.Context(holding: holding, promptEmpty: empty, overlayOpen: overlay) }
        }
    }

    @Test func everyPrintableCharacterTypesWhateverIsHeldOrOpen() {
        // Letters that were piece keys (r), zoom keys (+ - =), the window's q,
        // digits, a space, and wide characters.
        let characters: [Character] = ["r", "R", "q", "+", "-", "=", "1", " ", "/", "你", "👋", "é"]
        for context in Self.contexts {
            for c in characters {
                #expect(KeyMap.action(for: .character(c), in: context) == .edit, "\(c) in \(context)")
            }
        }
    }

    @Test func ctrlRRotatesWhatIsHeldEvenWhileTyping() {
        let typing = KeyMap.Context(holding: true, promptEmpty: false, overlayOpen: false)
        #expect(KeyMap.action(for: KeyMap.rotateKey, in: typing) == .rotate)
        let empty = KeyMap.Context(holding: false, promptEmpty: true, overlayOpen: false)
        #expect(KeyMap.action(for: KeyMap.rotateKey, in: empty) == .edit)
    }

    @Test func arrowsEnterAndEscPlayOnlyOnAnEmptyPrompt() {
        let playing = KeyMap.Context(holding: true, promptEmpty: true, overlayOpen: false)
        let typing = KeyMap.Context(holding: true, promptEmpty: false, overlayOpen: false)
        #expect(KeyMap.action(for: .left, in: playing) == .moveHeld(dx: -1, dy: 0))
        #expect(KeyMap.action(for: .shiftDown, in: playing) == .moveHeld(dx: 0, dy: 4))
        #expect(KeyMap.action(for: .enter, in: playing) == .drop)
        #expect(KeyMap.action(for: .escape, in: playing) == .release)
        // With text on the line they edit it: the cursor moves, Enter sends, Esc clears.
        #expect(KeyMap.action(for: .left, in: typing) == .edit)
        #expect(KeyMap.action(for: .enter, in: typing) == .edit)
        #expect(KeyMap.action(for: .escape, in: typing) == .clearPrompt)
    }

    @Test func holdingNothingShiftArrowsPanAndTabGrabs() {
        let idle = KeyMap.Context(holding: false, promptEmpty: true, overlayOpen: false)
        #expect(KeyMap.action(for: .shiftLeft, in: idle) == .pan(dx: -1, dy: 0))
        #expect(KeyMap.action(for: .tab, in: idle) == .grabNext)
        #expect(KeyMap.action(for: .up, in: idle) == .edit)  // history
    }

    @Test func zoomAndNumbersAreControlKeys() {
        let idle = KeyMap.Context(holding: false, promptEmpty: false, overlayOpen: false)
        #expect(KeyMap.action(for: .controlUp, in: idle) == .zoom(.zoomIn))
        #expect(KeyMap.action(for: .controlDown, in: idle) == .zoom(.zoomOut))
        #expect(KeyMap.action(for: KeyMap.numbersKey, in: idle) == .toggleNumbers)
        #expect(KeyMap.action(for: KeyMap.chatOnlyKey, in: idle) == .toggleChatOnly)
        #expect(KeyMap.action(for: KeyMap.lidKey, in: idle) == .toggleLid)
    }

    @Test func aWindowClosesWithEscOrEnterAndPagesWithArrows() {
        let open = KeyMap.Context(holding: false, promptEmpty: true, overlayOpen: true)
        #expect(KeyMap.action(for: .escape, in: open) == .closeOverlay)
        #expect(KeyMap.action(for: .enter, in: open) == .closeOverlay)
        #expect(KeyMap.action(for: .down, in: open) == .pageOverlay(back: false))
        // Holding a piece, the arrows still move it.
        let holding = KeyMap.Context(holding: true, promptEmpty: true, overlayOpen: true)
        #expect(KeyMap.action(for: .down, in: holding) == .moveHeld(dx: 0, dy: 1))
        // Typing, Enter sends the line.
        let typing = KeyMap.Context(holding: false, promptEmpty: false, overlayOpen: true)
        #expect(KeyMap.action(for: .enter, in: typing) == .edit)
    }
}
