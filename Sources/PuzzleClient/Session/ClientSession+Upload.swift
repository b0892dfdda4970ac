import PuzzleCore
import PuzzleProtocol

/// Why a picture file could not be read (missing, a directory, too large).
public struct PictureFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// `/create NAME KIND SIZE picture=FILE`: the file read by the driver,
/// uploaded (`UPLOAD`, then its bytes in DATA lines once the server says
/// go), then the room created from it; each step said in the messages.
/// The upload's state is the `PictureUploader`'s.
extension ClientSession {
    /// Picture files the player named, for the driver to read and hand back
    /// through `pictureFileRead` (in order).
    public mutating func takePictureFiles() -> [PictureFile] {
        uploads.takeFiles()
    }

    /// The driver read `file` (or could not): its upload starts.
    public mutating func pictureFileRead(_ file: PictureFile, _ result: Result<[UInt8], PictureFileError>, now: Int64) {
        switch result {
        case .failure(let error):
            failedCommands += 1
            emit(.error, "error: cannot upload \(file.path): \(error.message)")
        case .success(let bytes):
            guard phase == .joined || phase == .choosingRoom else { return refuse("not connected; /create the room again once the link is back") }
            emit(.info, "uploading \(file.path) as picture \(file.name) (\(Self.size(bytes.count)))…")
            send(uploads.start(file, bytes: bytes), fromUser: true, now: now)
        }
    }

    /// The server's go-ahead: every DATA line at once (the server reads them
    /// in order; nothing else is sent between them), awaiting one reply.
    mutating func sendUploadData(charactersPerLine: Int, now: Int64) {
        guard uploads.job != nil else { return }
        pending.append(PendingRequest(request: .data([]), fromUser: true, sentAt: now))
        outgoing += uploads.dataRequests(charactersPerLine: charactersPerLine)
    }

    /// Stored: the room is created from it.
    mutating func uploaded(_ name: String, width: Int, height: Int, now: Int64) {
        guard let file = uploads.end() else { return }
        emit(.info, "uploaded picture \(name) (\(width)x\(height)); creating room \(file.spec.name)…")
        send(.create(file.spec), fromUser: true, now: now,
             successNote: "room \(file.spec.name) has your picture: /join \(file.spec.name) to play it")
    }

    /// After `PICTURE_EXISTS`: uploads the same bytes as the next name
    /// (`trip-2`, ...; the room will use it); false when the names are used up.
    mutating func retryUploadUnderAnotherName(now: Int64) -> Bool {
        guard let (file, request) = uploads.retryUnderAnotherName() else { return false }
        let tried = file.attempt > 1 ? "\(file.baseName)-\(file.attempt)" : file.baseName
        emit(.info, "a picture named \(tried) exists already: uploading as \(file.name)…")
        send(request, fromUser: true, now: now)
        return true
    }

    /// A byte count as people read it: `812 bytes`, `34 KB`, `3.4 MB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return "\(bytes / 1000) KB" }
        let tenths = bytes / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
