import PuzzleCore

/// What a key does in the full-screen client: one pure decision, so the rule
/// a player relies on can be tested without a terminal.
///
/// The rule: **a printable character always types.** Whatever the player
/// holds and whatever is open, letters, digits, signs and spaces go to the
/// command line, so a chat line never loses its first letter to a piece key
/// ("rotate it?" once arrived as "otate it?"). The table is played with keys
/// that type nothing: Tab, arrows, Enter and Esc on an empty command line,
/// and control keys (Ctrl-R rotates, Ctrl-Up/Down zoom, Ctrl-N numbers,
/// Ctrl-T chat only, Ctrl-P the box lid, Ctrl-O a solved puzzle's replay).
public enum KeyMap {
    /// What the full screen does with one key.
    public enum Action: Hashable, Sendable {
        /// Give the key to the command line (typing, editing, history, Enter submits).
        case edit
        case quit
        /// Move the held piece by table units.
        case moveHeld(dx: Int, dy: Int)
        /// Pan the view a step in a direction (-1, 0 or 1 on each axis).
        case pan(dx: Int, dy: Int)
        case drop
        case rotate
        /// Give the held piece back (it returns where it was taken).
        case release
        case clearPrompt
        /// Take the next free piece (Tab).
        case grabNext
        /// Scroll the messages a page back (older) or on.
        case scrollMessages(back: Bool)
        /// Let the view follow the held piece again.
        case follow
        case zoom(ZoomStep)
        case toggleNumbers
        /// Only chat in the messages, or everything again.
        case toggleChatOnly
        /// Open the box lid (small) or close it: a plain toggle, so one key
        /// press always does what the player saw it do last time.
        case toggleLid
        /// Watch the solved puzzle again (Ctrl-O).
        case watchReplay
        case closeOverlay
        /// Page the open window back or on.
        case pageOverlay(back: Bool)
        case mouse(MouseEvent)
    }

    /// What the full screen is showing when the key comes.
    public struct Context: Hashable, Sendable {
        /// Whether this player holds a piece.
        public var holding: Bool
        /// Whether the command line is empty.
        public var promptEmpty: Bool
        /// Whether a window (help, players, rooms, board) is open over the table.
        public var overlayOpen: Bool

        public init(holding: Bool, promptEmpty: Bool, overlayOpen: Bool) {
            self.holding = holding
            self.promptEmpty = promptEmpty
            self.overlayOpen = overlayOpen
        }
    }

    /// Ctrl-N: piece numbers on and off.
    public static let numbersKey = Key.control(0x0E)
    /// Ctrl-T: only chat in the messages, or everything.
    public static let chatOnlyKey = Key.control(0x14)
    /// Ctrl-P: the box lid, open or closed.
    public static let lidKey = Key.control(0x10)
    /// Ctrl-O: watch the solved puzzle again (its replay).
    public static let replayKey = Key.control(0x0F)
    /// Ctrl-R: turn the held piece a quarter clockwise.
    public static let rotateKey = Key.control(0x12)

    /// The action for `key` in `context`.
    public static func action(for key: Key, in context: Context) -> Action {
        if case .character = key { return .edit }
        // Playing keys that would also edit the line act only on an empty one.
        let playing = context.holding && context.promptEmpty
        if context.overlayOpen {
            switch key {
            case .escape: return .closeOverlay
            case .enter where context.promptEmpty: return .closeOverlay
            case .pageUp: return .pageOverlay(back: true)
            case .pageDown: return .pageOverlay(back: false)
            case .up where !playing: return .pageOverlay(back: true)
            case .down where !playing: return .pageOverlay(back: false)
            default: break
            }
        }
        let cell = TableGeometry.unitsPerCell
        switch key {
        case .interrupt: return .quit
        case .endOfFile where context.promptEmpty: return .quit
        case .up where playing: return .moveHeld(dx: 0, dy: -1)
        case .down where playing: return .moveHeld(dx: 0, dy: 1)
        case .left where playing: return .moveHeld(dx: -1, dy: 0)
        case .right where playing: return .moveHeld(dx: 1, dy: 0)
        case .shiftUp where playing: return .moveHeld(dx: 0, dy: -cell)
        case .shiftDown where playing: return .moveHeld(dx: 0, dy: cell)
        case .shiftLeft where playing: return .moveHeld(dx: -cell, dy: 0)
        case .shiftRight where playing: return .moveHeld(dx: cell, dy: 0)
        // Holding nothing, Shift+arrows pan (plain arrows stay the command
        // line's: cursor and history).
        case .shiftUp where context.promptEmpty: return .pan(dx: 0, dy: -1)
        case .shiftDown where context.promptEmpty: return .pan(dx: 0, dy: 1)
        case .shiftLeft where context.promptEmpty: return .pan(dx: -1, dy: 0)
        case .shiftRight where context.promptEmpty: return .pan(dx: 1, dy: 0)
        case .mouse(let event): return .mouse(event)
        case .enter where playing: return .drop
        case rotateKey where context.holding: return .rotate
        case .escape where playing: return .release
        case .escape: return .clearPrompt
        case .tab: return .grabNext
        case .pageUp: return .scrollMessages(back: true)
        case .pageDown: return .scrollMessages(back: false)
        case .home where context.promptEmpty: return .follow
        case .controlUp: return .zoom(.zoomIn)
        case .controlDown: return .zoom(.zoomOut)
        case numbersKey: return .toggleNumbers
        case chatOnlyKey: return .toggleChatOnly
        case lidKey: return .toggleLid
        case replayKey: return .watchReplay
        default: return .edit
        }
    }
}
