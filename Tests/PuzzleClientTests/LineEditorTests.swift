import Testing
@testable import PuzzleClient

private func editor(typing text: String, historyLimit: Int = 100) -> LineEditor {
    var editor = LineEditor(historyLimit: historyLimit)
    editor.insert(contentsOf: text)
    return editor
}

@Suite struct LineEditorTests {
    @Test func insertAtCursor() {
        var line = editor(typing: "helo")
        #expect(line.cursor == 4)
        line.moveLeft()
        line.insert("l")
        #expect(line.text == "hello")
        #expect(line.cursor == 4)
    }

    @Test func cursorStopsAtEnds() {
        var line = editor(typing: "ab")
        line.moveRight()
        #expect(line.cursor == 2)
        line.moveHome()
        line.moveLeft()
        #expect(line.cursor == 0)
        line.moveEnd()
        #expect(line.cursor == 2)
    }

    @Test func backspaceAndDelete() {
        var line = editor(typing: "abcd")
        line.moveLeft()
        line.backspace()
        #expect(line.text == "abd")
        #expect(line.cursor == 2)
        line.deleteForward()
        #expect(line.text == "ab")
        line.deleteForward()
        #expect(line.text == "ab")
        line.moveHome()
        line.backspace()
        #expect(line.text == "ab")
        #expect(line.cursor == 0)
    }

    @Test func unicodeCountsCharacters() {
        var line = editor(typing: "ü😀x")
        #expect(line.cursor == 3)
        line.moveLeft()
        line.backspace()
        #expect(line.text == "üx")
        #expect(line.cursor == 1)
        line.insert("🇫🇷")
        #expect(line.text == "ü🇫🇷x")
        #expect(line.cursor == 2)
    }

    @Test func combiningMarkJoinsPreviousCharacter() {
        var line = editor(typing: "e")
        line.insert("\u{301}")
        #expect(line.text == "é")
        #expect(line.text.count == 1)
        #expect(line.cursor == 1)
    }

    @Test func submitReturnsLineAndClears() {
        var line = editor(typing: "grab 3")
        line.moveLeft()
        #expect(line.submit() == "grab 3")
        #expect(line.text == "")
        #expect(line.cursor == 0)
        #expect(line.history == ["grab 3"])
    }

    @Test func historyKeepsDraft() {
        var line = LineEditor()
        line.insert(contentsOf: "one")
        _ = line.submit()
        line.insert(contentsOf: "two")
        _ = line.submit()
        line.insert(contentsOf: "dra")
        line.historyPrevious()
        #expect(line.text == "two")
        #expect(line.cursor == 3)
        line.historyPrevious()
        #expect(line.text == "one")
        line.historyPrevious()
        #expect(line.text == "one")
        line.historyNext()
        #expect(line.text == "two")
        line.historyNext()
        #expect(line.text == "dra")
        #expect(!line.isBrowsingHistory)
        line.historyNext()
        #expect(line.text == "dra")
    }

    @Test func historySkipsEmptyAndConsecutiveDuplicates() {
        var line = LineEditor()
        for entry in ["a", "a", "", "b", "a"] {
            line.insert(contentsOf: entry)
            _ = line.submit()
        }
        #expect(line.history == ["a", "b", "a"])
    }

    @Test func historyIsBounded() {
        var line = LineEditor(historyLimit: 3)
        for entry in ["1", "2", "3", "4", "5"] {
            line.insert(contentsOf: entry)
            _ = line.submit()
        }
        #expect(line.history == ["3", "4", "5"])
    }

    @Test func recalledLineCanBeEditedAndSubmitted() {
        var line = LineEditor()
        line.insert(contentsOf: "move 1")
        _ = line.submit()
        line.historyPrevious()
        line.backspace()
        line.insert("2")
        #expect(line.submit() == "move 2")
        #expect(line.history == ["move 1", "move 2"])
        #expect(!line.isBrowsingHistory)
    }

    @Test func readlineDeletions() {
        var line = editor(typing: "drop piece  7")
        line.deleteWordBackward()
        #expect(line.text == "drop piece  ")
        line.deleteWordBackward()
        #expect(line.text == "drop ")
        line.moveHome()
        line.moveRight()
        line.deleteToEnd()
        #expect(line.text == "d")
        line.insert(contentsOf: "abc")
        line.moveLeft()
        line.deleteToStart()
        #expect(line.text == "c")
        #expect(line.cursor == 0)
    }

    @Test func handleKeys() {
        var line = LineEditor()
        for key: Key in [.character("h"), .character("i"), .left, .character("x"), .end, .backspace, .character("!")] {
            #expect(line.handle(key) == .edited)
        }
        #expect(line.text == "hx!")
        #expect(line.handle(.escape) == .ignored)
        #expect(line.handle(.control(0x01)) == .edited)
        #expect(line.cursor == 0)
        #expect(line.handle(.enter) == .submitted("hx!"))
        #expect(line.handle(.up) == .edited)
        #expect(line.text == "hx!")
    }

    @Test func visibleSliceShortLine() {
        let line = editor(typing: "abc")
        let view = line.visibleSlice(width: 10)
        #expect(view.text == "abc")
        #expect(view.cursorColumn == 3)
    }

    @Test func visibleSliceScrollsToKeepCursorVisible() {
        var line = editor(typing: "abcdefghij")
        var view = line.visibleSlice(width: 5)
        #expect(view.text == "ghij")
        #expect(view.cursorColumn == 4)
        line.moveHome()
        view = line.visibleSlice(width: 5)
        #expect(view.text == "abcde")
        #expect(view.cursorColumn == 0)
        for _ in 0..<6 { line.moveRight() }
        view = line.visibleSlice(width: 5)
        #expect(view.text == "cdefg")
        #expect(view.cursorColumn == 4)
    }

    @Test func visibleSliceDegenerateWidth() {
        let line = editor(typing: "abc")
        #expect(line.visibleSlice(width: 0).text == "")
        #expect(line.visibleSlice(width: 1).text == "")
        #expect(line.visibleSlice(width: 1).cursorColumn == 0)
    }
}
