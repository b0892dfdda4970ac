import PuzzleLink
import Foundation
import Testing
import PuzzleTestSupport
@testable import PuzzleClient

/// One player's emoji and CJK chat must leave another player's screen exact (issue 16: at 80x24
/// carol's pane read `<carol> nextblin  def`, fragments stayed on later lines, and her prompt
/// showed `你好你好 typing` as `你好 typing`). carol runs the real `puzzle play` on a
/// pseudo-terminal; her screen is rebuilt from the bytes written to it by a terminal model.
@Suite(.serialized) struct WideChatTerminalTests {
    @Test func wideChatLeavesAnotherPlayersScreenExact() throws {
        guard PtyPlayer.available else { Issue.record("util-linux script is needed to give the client a terminal"); return }
        let server = try TestServer()
        let bob = try LineClient(port: server.port, name: "bob")
        try bob.enter(as: "bob")

        let carol = try PtyPlayer(port: server.port, name: "carol")
        func type(_ text: String) { carol.type(text) }

        // carol is in once her chat reaches bob (typed before the join, it is refused: again).
        let joined = carol.typeUntilSeen("ready\r") {
            (try? bob.waitForEvent(timeout: 0.5) { $0.contains(" say ") && $0.hasSuffix(" ready") }) != nil
        }
        #expect(joined, "carol never joined")

        // Each line waited for on carol's screen before the next, so the pane scrolls under
        // wide text line by line, as it did for the players.
        func bobSays(_ text: String) throws {
            _ = try bob.request("SAY \(text)")
        }
        /// Waits for a row starting with `row`; says what the screen showed if it never came.
        func expectRow(_ row: String) {
            let (seen, model) = carol.waitForScreen { $0.rows.contains { $0.hasPrefix(row) } }
            #expect(seen, "no row \(row) on carol's screen:\n\(model.rows.joined(separator: "\n"))")
        }
        try bobSays("héllo 👋 你好 ok")
        expectRow("<bob> héllo 👋 你好 ok")
        try bobSays("你好 abc 👋 def")
        expectRow("<bob> 你好 abc 👋 def")
        type("next line\r")
        expectRow("<carol> next line")
        try bobSays("👍🏽 ❤️ １２３ 👨‍👩‍👧 ｗｉｄｅ")
        expectRow("<bob> 👍🏽 ❤️ １２３ 👨‍👩‍👧 ｗｉｄｅ")
        type("done\r")
        expectRow("<carol> done")
        type("你好你好 typing")

        func padded(_ s: String) -> String { s + String(repeating: " ", count: 80 - DisplayWidth.of(s)) }
        let expected = [
            String(repeating: "-", count: 80),
            padded("<bob> héllo 👋 你好 ok"),
            padded("<bob> 你好 abc 👋 def"),
            padded("<carol> next line"),
            padded("<bob> 👍🏽 ❤️ １２３ 👨‍👩‍👧 ｗｉｄｅ"),
            padded("<carol> done"),
            padded("> 你好你好 typing"),
        ]
        let (exact, last) = carol.waitForScreen { Array($0.rows[17...]) == expected && $0.cursor == Frame.Position(row: 23, column: 17) }
        #expect(exact, "carol's screen:\n\(last.rows.joined(separator: "\n"))\ncursor \(last.cursor)")
        // Every row is whole: nothing wider or narrower than the terminal, nothing left over.
        #expect(last.rows.allSatisfy { DisplayWidth.of($0) == 80 })

        type("\u{15}/quit\r")  // Ctrl-U clears the typed line first
        #expect(carol.waitForExit(), "the client did not exit on quit")
    }

    /// Another player's grabs and releases show on the table, not as message lines: twenty of
    /// them (ten Tab presses' worth) leave the chat before them in view (issue 16: each Tab
    /// press added two lines, and a 5-line pane lost the chat at once).
    @Test func othersMovesDoNotPushTheChatOutOfThePane() throws {
        guard PtyPlayer.available else { Issue.record("util-linux script is needed to give the client a terminal"); return }
        let server = try TestServer()
        let bob = try LineClient(port: server.port, name: "bob")
        try bob.enter(as: "bob")
        let carol = try PtyPlayer(port: server.port, name: "carol")
        let joined = carol.typeUntilSeen("ready\r") {
            (try? bob.waitForEvent(timeout: 0.5) { $0.contains(" say ") && $0.hasSuffix(" ready") }) != nil
        }
        #expect(joined, "carol never joined")
        _ = try bob.request("SAY carol, the sky goes top left")
        for piece in 0..<10 {
            _ = try bob.request("GRAB \(piece % 9)")
            _ = try bob.request("RELEASE")
        }
        // Then a line carol waits for, so that every move before it has reached her screen.
        _ = try bob.request("SAY ok")
        let (seen, model) = carol.waitForScreen { $0.rows.contains { $0.hasPrefix("<bob> ok") } }
        #expect(seen, "no '<bob> ok':\n\(model.rows.joined(separator: "\n"))")
        let pane = Array(model.rows[18...22])
        #expect(pane.contains { $0.hasPrefix("<bob> carol, the sky goes top left") }, "\(pane)")
        #expect(!pane.contains { $0.contains("grabbed") || $0.contains("released") }, "\(pane)")
        carol.type("/quit\r")
        #expect(carol.waitForExit(), "the client did not exit on quit")
    }
}
