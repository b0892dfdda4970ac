import Testing
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleClient

/// The upload conversation `PictureUploader` owns: each step's lines and
/// requests, from the file read to the room created, a taken name, a
/// refusal, a dropped link.
@Suite struct PictureUploaderConversationTests {
    var file: PictureFile { PictureUploaderTests().file }

    @Test func aFileReadStartsTheUploadAndItsStoreCreatesTheRoom() {
        var up = PictureUploader()
        let started = up.fileRead(file, .success(Array(repeating: 7, count: 34_000)), connected: true)
        #expect(!started.failed)
        #expect(started.lines.map(\.text) == ["uploading ~/trip.jpg as picture trip (34 KB)…"])
        #expect(started.requests == [SessionEffects.Send(request: .upload(name: "trip", bytes: 34_000), fromUser: true, successNote: nil)])
        let stored = up.stored("trip", width: 640, height: 480)
        #expect(stored.lines.map(\.text) == ["uploaded picture trip (640x480); creating room trip…"])
        #expect(stored.requests == [SessionEffects.Send(request: .create(file.spec), fromUser: true,
                                                        successNote: "room trip has your picture: /join trip to play it")])
        #expect(!up.isBusy)
        let again = up.stored("trip", width: 640, height: 480)
        #expect(again.lines.isEmpty && again.requests.isEmpty, "no upload under way: nothing to create")
    }

    @Test func anUnreadableFileOrNoLinkIsAFailedCommand() {
        var up = PictureUploader()
        let unread = up.fileRead(file, .failure(PictureFileError("no such file")), connected: true)
        #expect(unread.failed && unread.requests.isEmpty)
        #expect(unread.lines == [OutputLine(kind: .error, text: "error: cannot upload ~/trip.jpg: no such file")])
        let offline = up.fileRead(file, .success([1, 2, 3]), connected: false)
        #expect(offline.failed && offline.requests.isEmpty && !up.isBusy)
    }

    @Test func aTakenNameIsRetriedThenOtherRefusalsEndTheUpload() {
        var up = PictureUploader()
        _ = up.fileRead(file, .success([1, 2, 3]), connected: true)
        let retry = up.refused(.pictureExists)
        #expect(retry?.lines.map(\.text) == ["a picture named trip exists already: uploading as trip-2…"])
        #expect(retry?.requests.map(\.request) == [.upload(name: "trip-2", bytes: 3)])
        let next = up.refused(.pictureExists)
        #expect(next?.lines.map(\.text) == ["a picture named trip-2 exists already: uploading as trip-3…"])
        #expect(up.refused(.badPicture) == nil, "told by the session as any refusal")
        #expect(!up.isBusy)
        #expect(up.refused(.pictureExists) == nil, "nothing under way")
    }

    @Test func aDroppedLinkCutsTheUploadOffAndSaysSo() {
        var up = PictureUploader()
        #expect(up.linkLost().lines.isEmpty)
        _ = up.fileRead(file, .success([1]), connected: true)
        #expect(up.linkLost().lines.map(\.text) == ["the upload of trip was cut off with the connection: /create the room again"])
        #expect(!up.isBusy)
    }
}
