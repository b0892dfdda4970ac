import Foundation
import PuzzleCore
import PuzzleImages
import PuzzleProtocol
@testable import PuzzleServer
import PuzzleTestSupport
import Testing

/// The upload rules alone, without a server or sockets: what an UPLOAD, a
/// DATA line, a line that is not one and the time limit do to a
/// connection's upload slot, and what each answers.
@Suite struct PictureUploadsTests {
    static func uploads(_ change: (inout ServerConfig) -> Void = { _ in }) throws -> PictureUploads {
        var config = ServerConfig(dataDirectory: TestServer.temporaryDirectory(), fsync: .never)
        change(&config)
        let store = try UploadStore(directory: config.dataDirectory, sync: false)
        return try PictureUploads(store: store, config: config, logger: Logger(level: .error))
    }

    static let pictures = try! PictureLibrary(files: [:])

    static func data(_ bytes: [UInt8]) -> [UInt8] {
        Array("DATA \(UploadChunk.encode(bytes[...]))".utf8)
    }

    /// An upload of `expected` bytes with its go-ahead given.
    static func started(_ uploads: PictureUploads, expected: Int = 6, now: Int64 = 0) -> UploadInProgress? {
        var slot: UploadInProgress?
        let reply = uploads.begin("trip", bytes: expected, slot: &slot, host: "10.0.0.1", label: "ann", receivingElsewhere: 0,
                                  pictures: pictures, now: now)
        guard case .uploadReady = reply else { Issue.record("no go-ahead: \(reply)"); return nil }
        return slot
    }

    @Test func theGoAheadOpensTheSlotAndSaysTheLineLength() throws {
        let uploads = try Self.uploads()
        var slot: UploadInProgress?
        let reply = uploads.begin("trip", bytes: 300, slot: &slot, host: "h", label: "ann", receivingElsewhere: 0, pictures: Self.pictures, now: 5)
        #expect(reply == .uploadReady(name: "trip", bytes: 300, lineCharacters: UploadChunk.charactersPerLine(maxLineLength: 1024)))
        #expect(slot?.name == "trip" && slot?.expected == 300 && slot?.deadline == 5 + UploadInProgress.timeLimitMillis)
    }

    @Test func eachRefusalComesBeforeTheGoAhead() throws {
        func refusal(_ uploads: PictureUploads, name: String = "trip", bytes: Int = 10, elsewhere: Int = 0) -> ErrorCode? {
            var slot: UploadInProgress?
            let reply = uploads.begin(name, bytes: bytes, slot: &slot, host: "h", label: "ann", receivingElsewhere: elsewhere,
                                      pictures: Self.pictures, now: 0)
            guard case .error(let error) = reply else { return nil }
            #expect(slot == nil)
            return error.code
        }
        #expect(refusal(try Self.uploads { $0.uploads = false }) == .uploadsOff)
        #expect(refusal(try Self.uploads { $0.uploadMaxBytes = 9 }, bytes: 10) == .tooLarge)
        #expect(refusal(try Self.uploads(), name: "sunset") == .pictureExists)
        #expect(refusal(try Self.uploads { $0.uploadMaxCount = 3 }, elsewhere: 3) == .uploadsFull)
        #expect(refusal(try Self.uploads(), elsewhere: UploadInProgress.openAtOnce) == .rateLimited)
        #expect(refusal(try Self.uploads(), elsewhere: UploadInProgress.openAtOnce - 1) == nil)
        let paced = try Self.uploads { $0.uploadsPerHour = 1 }
        #expect(refusal(paced) == nil)
        #expect(refusal(paced) == .rateLimited)
    }

    @Test func anUploadNotStartedGivesWayToTheNextOneWithoutAReply() throws {
        let uploads = try Self.uploads()
        var slot = Self.started(uploads)
        let reply = uploads.begin("other", bytes: 4, slot: &slot, host: "h", label: "ann", receivingElsewhere: 0, pictures: Self.pictures, now: 0)
        #expect(reply == .uploadReady(name: "other", bytes: 4, lineCharacters: UploadChunk.charactersPerLine(maxLineLength: 1024)))
        #expect(slot?.name == "other")
    }

    @Test func aRequestBeforeTheFirstDataLineIsAnsweredAndTheUploadWaits() throws {
        let uploads = try Self.uploads()
        var slot = Self.started(uploads)
        #expect(uploads.take(Array("PING 1".utf8), slot: &slot, token: 7, label: "ann") == .notTaken(reply: nil))
        #expect(slot?.name == "trip")
    }

    @Test func aRequestAfterTheFirstDataLineEndsTheUploadWithItsReply() throws {
        let uploads = try Self.uploads()
        var slot = Self.started(uploads)
        #expect(uploads.take(Self.data([1, 2, 3]), slot: &slot, token: 7, label: "ann") == .taken(reply: nil))
        #expect(slot?.bytes == [1, 2, 3] && slot?.lines == 1)
        let outcome = uploads.take(Array("PING 1".utf8), slot: &slot, token: 7, label: "ann")
        #expect(outcome == .notTaken(reply: .error(.uploadAborted("trip", "another request came before its last byte"))))
        #expect(slot == nil)
    }

    @Test func aBadOrOneTooManyDataLineAbortsOnceAndTheRestIsDropped() throws {
        let uploads = try Self.uploads()
        var slot = Self.started(uploads)
        let bad = uploads.take(Array("DATA abc".utf8), slot: &slot, token: 7, label: "ann")
        #expect(bad == .taken(reply: .error(.uploadAborted("trip", "DATA line 1 is not whole quads of padded base64"))))
        #expect(slot?.discarding == true && slot?.bytes == [])
        // Pipelined DATA lines after it: read and dropped, no reply each.
        #expect(uploads.take(Self.data([1, 2, 3]), slot: &slot, token: 7, label: "ann") == .taken(reply: nil))

        var over = Self.started(uploads, expected: 2)
        let outcome = uploads.take(Self.data([1, 2, 3]), slot: &over, token: 7, label: "ann")
        #expect(outcome == .taken(reply: .error(.uploadAborted("trip", "more than the 2 bytes announced arrived"))))
    }

    @Test func anUploadOutOfTimeBeforeItsFirstLineOwesItsLateLinesOneReply() throws {
        let uploads = try Self.uploads()
        var slot = Self.started(uploads, now: 1000)
        #expect(uploads.expire(&slot, label: "ann", now: 1000 + UploadInProgress.timeLimitMillis - 1) == nil)
        #expect(slot?.discarding == false)
        // No DATA line yet: nothing is owed now.
        #expect(uploads.expire(&slot, label: "ann", now: 1000 + UploadInProgress.timeLimitMillis) == nil)
        #expect(slot?.discarding == true && slot?.owesReply == true)
        let late = uploads.take(Self.data([1]), slot: &slot, token: 7, label: "ann")
        #expect(late == .taken(reply: .error(.uploadAborted("trip", "its bytes did not all arrive within 120 s"))))
        #expect(uploads.take(Self.data([1]), slot: &slot, token: 7, label: "ann") == .taken(reply: nil))
        // Any other line ends the discarding at once.
        #expect(uploads.take(Array("PING".utf8), slot: &slot, token: 7, label: "ann") == .notTaken(reply: nil))
        #expect(slot == nil)
    }

    @Test func anOverlongLineAbortsAReceivingUploadAndEndsADiscardingOne() throws {
        let uploads = try Self.uploads()
        var none: UploadInProgress?
        #expect(uploads.takeOverlong(slot: &none, label: "ann") == .notTaken(reply: nil))
        var slot = Self.started(uploads)
        guard case .taken(.error(let error)?) = uploads.takeOverlong(slot: &slot, label: "ann") else {
            Issue.record("an overlong line did not abort the upload")
            return
        }
        #expect(error.code == .uploadAborted && slot?.discarding == true)
        #expect(uploads.takeOverlong(slot: &slot, label: "ann") == .notTaken(reply: nil))
        #expect(slot == nil)
    }

    @Test func theLastByteHandsThePictureToTheWorkerAndItsReplyRecordsIt() throws {
        let uploads = try Self.uploads()
        let jpeg = try UploadTests.fixture("jpeg-exif-6.jpg")
        var slot = Self.started(uploads, expected: jpeg.count)
        #expect(uploads.take(Self.data(jpeg), slot: &slot, token: 7, label: "ann") == .storing)
        #expect(slot == nil)
        // The worker says so through its descriptor.
        let done = try awaitResults(of: uploads.descriptor) { uploads.collect() }
        let finished = try #require(done.first)
        #expect(finished.token == 7 && finished.name == "trip")
        var pictures = Self.pictures
        let reply = uploads.finish(finished, record: true, pictures: &pictures)
        #expect(reply == .uploaded(name: "trip", width: 37, height: 45, sha256: SHA256.hex(jpeg)))
        #expect(uploads.store.entries["trip"]?.sha256 == SHA256.hex(jpeg))
        #expect(pictures.contains("trip"))
        // The same name and bytes again: nothing more to record, the same reply.
        #expect(uploads.finish(finished, record: true, pictures: &pictures) == reply)
    }

    @Test func aFinishedJobWhoseConnectionIsGoneIsNotRecorded() throws {
        let uploads = try Self.uploads()
        let entry = UploadStore.Entry(sha256: String(repeating: "a", count: 64), fileExtension: "png", bytes: 10)
        let image = RGBImage(width: 1, height: 1, rgb: [0, 0, 0])
        let done = UploadJob.Finished(token: 7, name: "trip",
                                         outcome: .success(UploadJob.Stored(entry: entry, image: image, width: 1, height: 1)))
        var pictures = Self.pictures
        #expect(uploads.finish(done, record: false, pictures: &pictures) == .uploaded(name: "trip", width: 1, height: 1, sha256: entry.sha256))
        #expect(uploads.store.entries.isEmpty && !pictures.contains("trip"))
        // A host picture's name, taken meanwhile: refused, not recorded.
        let sunset = UploadJob.Finished(token: 7, name: "sunset", outcome: done.outcome)
        guard case .error(let error) = uploads.finish(sunset, record: true, pictures: &pictures) else {
            Issue.record("a host picture's name was recorded")
            return
        }
        #expect(error.code == .pictureExists && uploads.store.entries.isEmpty)
    }

    @Test func aDataLinesPayloadIsFoundInAnyCaseBetweenSpaces() {
        #expect(PictureUploads.dataPayload(Array("data  QUJD  ".utf8)).map { Array($0) } == Array("QUJD".utf8))
        #expect(PictureUploads.dataPayload(Array("DATAQUJD".utf8)) == nil)
        #expect(PictureUploads.dataPayload(Array("DATA ".utf8)) == nil)
        #expect(PictureUploads.dataPayload(Array("DATUM QUJD".utf8)) == nil)
    }
}
