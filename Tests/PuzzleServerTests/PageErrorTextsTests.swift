import Testing
import PuzzleProtocol
@testable import PuzzleServer

/// The page's error texts have one source (`PageErrorTexts`, served as
/// `/errors.js`): a text for every code the server sends, none for a code it
/// does not, and the page's script names no code the server does not have.
@Suite struct PageErrorTextsTests {
    /// The page's own code for a request whose link dropped before a reply:
    /// no server sends it, so it is no `ErrorCode`.
    static let pageOwnCodes: Set<String> = ["LINK"]
    /// The goodbye codes (`BYE <code>`), which the page's BYE handler compares too.
    static let goodbyeCodes = Set([GoodbyeCode.full, .idle, .shutdown, .resumed, .slow].map(\.rawValue))

    private func pageFile(_ path: String) throws -> String {
        String(decoding: try #require(WebFile.page[path], "\(path) is not served").bytes, as: UTF8.self)
    }

    @Test func everyCodeTheServerSendsHasATextAndNoOtherCodeHasOne() {
        for code in ErrorCode.known {
            let text = PageErrorTexts.texts[code] ?? ""
            #expect(!text.isEmpty, "the page has no text for \(code)")
            #expect(text.first?.isUppercase == true && text.last == ".", "\(code)'s text is not a sentence: \(text)")
        }
        let dead = Set(PageErrorTexts.texts.keys).subtracting(ErrorCode.known).map(\.rawValue).sorted()
        #expect(dead.isEmpty, "texts for codes the server never sends: \(dead)")
        #expect(Set(ErrorCode.known).count == ErrorCode.known.count, "a code is listed twice in ErrorCode.known")
    }

    @Test func thePageIsServedEveryTextAndLoadsItBeforeItsScript() throws {
        let script = try pageFile(PageErrorTexts.path)
        #expect(WebFile.page[PageErrorTexts.path]?.contentType == "text/javascript; charset=utf-8")
        #expect(script.contains("window.puzzleErrors = Object.freeze({"))
        for code in ErrorCode.known {
            let entry = "\(PageErrorTexts.jsString(code.rawValue)): \(PageErrorTexts.jsString(PageErrorTexts.texts[code] ?? ""))"
            #expect(script.contains(entry), "errors.js lacks \(entry)")
        }
        let html = try pageFile("/")
        let errors = try #require(html.range(of: "<script src=\"errors.js\" defer></script>"), "the page does not load errors.js")
        let app = try #require(html.range(of: "<script src=\"app.js\" type=\"module\"></script>"))
        // Deferred and module scripts run in document order: the texts are there when app.js runs.
        #expect(errors.upperBound <= app.lowerBound, "errors.js must come before app.js")
    }

    @Test func thePageNamesOnlyCodesTheServerSends() throws {
        // Every module of the page's script (app.js and what it imports), not the texts themselves.
        let app = try WebFile.page.keys.filter { $0.hasSuffix(".js") && $0 != PageErrorTexts.path }.sorted()
            .map { try pageFile($0) }.joined(separator: "\n")
        // The page keeps no table of its own.
        #expect(!app.contains("ERRORS = {"), "the page has its own error table again")
        var named: Set<String> = []
        // ERRORS.ROOM_FULL, ERRORS['ROOM_FULL'], code === 'NOT_HOLDER', c === 'LINK', code !== 'BAD_ARGS'.
        let patterns = [#/ERRORS\.([A-Z][A-Z0-9_]*)/#, #/ERRORS\[['"]([A-Z][A-Z0-9_]*)['"]\]/#,
                        #/\b(?:code|c)\s*[!=]==?\s*['"]([A-Z][A-Z0-9_]*)['"]/#]
        for pattern in patterns {
            for match in app.matches(of: pattern) { named.insert(String(match.output.1)) }
        }
        // The extraction must see the page's uses, or this test checks nothing.
        #expect(named.isSuperset(of: ["ROOM_FULL", "BAD_PASSWORD", "WATCHING", "NOT_HOLDER", "LINK"]), "found only \(named.sorted())")
        let known = Set(ErrorCode.known.map(\.rawValue))
        let unknown = named.subtracting(known).subtracting(Self.goodbyeCodes).subtracting(Self.pageOwnCodes).sorted()
        #expect(unknown.isEmpty, "the page names codes the server never sends: \(unknown)")
        #expect(Self.pageOwnCodes.isDisjoint(with: known), "a page-only code is a server code too")
    }

    @Test func textsAreWrittenAsScriptStringsThatCannotEscape() {
        #expect(PageErrorTexts.jsString("The page's text.") == #""The page's text.""#)
        #expect(PageErrorTexts.jsString("a \"b\" \\ c\nd") == #""a \"b\" \\ c\nd""#)
        #expect(PageErrorTexts.jsString("</script>\u{2028}\u{1}") == #""\u003C/script>\u2028\u0001""#)
        #expect(PageErrorTexts.jsString("é 🧩") == "\"é 🧩\"")
    }
}
