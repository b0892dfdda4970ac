import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// The upload's state: one file at a time, its bytes cut into DATA requests,
/// the next name after a taken one, and an end.
@Suite struct PictureUploaderTests {
    static let spec = try! ClientCommand.parse("create trip jigsaw 4x4 picture=~/trip.jpg")
    var file: PictureFile {
        guard case .createWithFile(let spec, let path)? = Self.spec else { fatalError("not a picture file: \(String(describing: Self.spec))") }
        return PictureFile(path: path, name: spec.picture, spec: spec)
    }

    @Test func aFileIsNamedReadStartedCutIntoDataAndEnded() {
        var up = PictureUploader()
        #expect(!up.isBusy)
        up.name(file)
        #expect(up.isBusy)
        let taken = up.takeFiles(), again = up.takeFiles()
        #expect(taken == [file] && again.isEmpty)
        #expect(up.dataRequests(charactersPerLine: 8).isEmpty, "nothing under way")
        let started = up.start(file, bytes: Array(0..<10))
        #expect(started == .upload(name: "trip", bytes: 10))
        #expect(up.isBusy)
        // 8 base64 characters a line: 6 bytes.
        #expect(up.dataRequests(charactersPerLine: 8) == [.data(Array(0..<6)), .data(Array(6..<10))])
        // Fewer than 4 characters: still one group of 3 a line.
        let small: [Request] = [.data([0, 1, 2]), .data([3, 4, 5]), .data([6, 7, 8]), .data([9])]
        #expect(up.dataRequests(charactersPerLine: 2) == small)
        let ended = up.end(), none = up.end()
        #expect(ended == file)
        #expect(none == nil && !up.isBusy)
    }

    @Test func aTakenNameIsTriedAgainAsTheNextUntilTheyAreUsedUp() throws {
        var up = PictureUploader()
        _ = up.start(file, bytes: [1, 2, 3])
        var names: [String] = []
        while let (next, request) = up.retryUnderAnotherName() {
            names.append(next.name)
            #expect(request == .upload(name: next.name, bytes: 3))
            #expect(next.spec.picture == next.name && next.baseName == "trip")
        }
        #expect(names == ["trip-2", "trip-3", "trip-4", "trip-5"])
        let last = up.end()
        #expect(last?.name == "trip-5")
        let after = up.retryUnderAnotherName()
        #expect(after == nil, "nothing under way")
    }

    /// A 24-byte name keeps room for its suffix.
    @Test func aLongNameIsCutForItsSuffix() throws {
        var long = file
        long.name = String(repeating: "n", count: NameRule.maxLength)
        long.baseName = long.name
        var up = PictureUploader()
        _ = up.start(long, bytes: [1])
        let retried = up.retryUnderAnotherName()
        let next = try #require(retried)
        #expect(next.file.name == String(repeating: "n", count: NameRule.maxLength - 2) + "-2")
        #expect(NameRule.isValid(next.file.name))
    }
}
