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
extension ClientSession {
    /// Picture files the player named, for the driver to read and hand back
    /// through `pictureFileRead` (in order).
    public mutating func takePictureFiles() -> [PictureFile] {
        defer { pictureFiles.removeAll() }
        return pictureFiles
    }

    /// The driver read `file` (or could not): its upload starts.
    public mutating func pictureFileRead(_ file: PictureFile, _ result: Result<[UInt8], PictureFileError>, now: Int64) {
        switch result {
        case .failure(let error):
            failedCommands += 1
            emit(.error, "error: cannot upload \(file.path): \(error.message)")
        case .success(let bytes):
            guard phase == .joined || phase == .choosingRoom else { return refuse("not connected; /create the room again once the link is back") }
            uploading = (file, bytes)
            emit(.info, "uploading \(file.path) as picture \(file.name) (\(Self.size(bytes.count)))…")
            send(.upload(name: file.name, bytes: bytes.count), fromUser: true, now: now)
        }
    }

    /// The server's go-ahead: every DATA line at once (the server reads them
    /// in order; nothing else is sent between them), awaiting one reply.
    mutating func sendUploadData(charactersPerLine: Int, now: Int64) {
        guard let job = uploading else { return }
        let perLine = max(1, charactersPerLine / 4) * 3
        pending.append(PendingRequest(request: .data([]), fromUser: true, sentAt: now))
        var start = 0
        while start < job.bytes.count {
            let end = min(job.bytes.count, start + perLine)
            outgoing.append(.data(Array(job.bytes[start..<end])))
            start = end
        }
    }

    /// Stored: the room is created from it.
    mutating func uploaded(_ name: String, width: Int, height: Int, now: Int64) {
        guard let job = uploading else { return }
        uploading = nil
        emit(.info, "uploaded picture \(name) (\(width)x\(height)); creating room \(job.file.spec.name)…")
        send(.create(job.file.spec), fromUser: true, now: now,
             successNote: "room \(job.file.spec.name) has your picture: /join \(job.file.spec.name) to play it")
    }

    /// Names tried for one file: its own, then with `-2` ... `-5`.
    static let uploadAttempts = 5

    /// After `PICTURE_EXISTS`: uploads the same bytes as the next name
    /// (`trip-2`, ...; the room will use it); false when the names are used up.
    mutating func retryUploadUnderAnotherName(now: Int64) -> Bool {
        guard var job = uploading else { return false }
        let base = job.file.baseName
        let attempt = job.file.attempt + 1
        guard attempt < Self.uploadAttempts else { return false }
        let suffix = "-\(attempt + 1)"
        job.file.name = String(base.prefix(NameRule.maxLength - suffix.count)) + suffix
        job.file.spec.picture = job.file.name
        job.file.attempt = attempt
        uploading = job
        emit(.info, "a picture named \(base)\(attempt > 1 ? "-\(attempt)" : "") exists already: uploading as \(job.file.name)…")
        send(.upload(name: job.file.name, bytes: job.bytes.count), fromUser: true, now: now)
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
