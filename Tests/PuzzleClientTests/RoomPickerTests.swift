import Testing
@testable import PuzzleClient

/// The start-up room list: none, the only one, or several to pick from (offered once).
@Suite struct RoomPickerTests {
    static let duo = "S room duo kind=swap size=2x2 rotation=off players=1 password=no puzzle=0 progress=1/4"
    static let den = "S room den kind=jigsaw size=5x5 rotation=on players=3 password=yes puzzle=2 progress=25/25 solved"

    @Test func noneOneOrSeveral() {
        var picker = RoomPicker()
        #expect(picker.read([]) == .none)
        #expect(picker.read(["S who 1 alice moves=0 holding=-"]) == .none, "not a room")
        #expect(picker.read([Self.duo]) == .only("duo"))
        #expect(picker.offered == nil, "nothing to pick")
        #expect(picker.read([Self.duo, Self.den]) == .pick(["duo", "den"]))
        let offered = picker.take(), again = picker.take()
        #expect(offered == [PlayerText.listingEntry(Self.duo), PlayerText.listingEntry(Self.den)])
        #expect(offered?.first == "duo  swap 2x2  1 player  1/4 placed")
        #expect(again == nil)
    }
}
