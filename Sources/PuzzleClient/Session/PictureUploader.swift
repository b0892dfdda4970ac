import PuzzleCore
import PuzzleProtocol

/// `/create NAME KIND SIZE picture=FILE` on the client: the files named for
/// the driver to read, and the upload under way (the file and its bytes,
/// under the name being tried), until the server has them. It says nothing
/// and sends nothing itself: it hands the session the requests to send.
struct PictureUploader: Sendable {
    /// Files named, for the driver to read (`takeFiles`).
    private(set) var files: [PictureFile] = []
    /// The upload under way: the file and its bytes, until the server has them.
    private(set) var job: (file: PictureFile, bytes: [UInt8])?

    /// Names tried for one file: its own, then with `-2` ... `-5`.
    static let attempts = 5

    /// Whether a file is named or being uploaded (one at a time).
    var isBusy: Bool { job != nil || !files.isEmpty }

    /// A file the player named, for the driver to read.
    mutating func name(_ file: PictureFile) {
        files.append(file)
    }

    /// The files named since the last call, in order.
    mutating func takeFiles() -> [PictureFile] {
        defer { files.removeAll() }
        return files
    }

    /// The driver read `file`: its upload starts with this request.
    mutating func start(_ file: PictureFile, bytes: [UInt8]) -> Request {
        job = (file, bytes)
        return .upload(name: file.name, bytes: bytes.count)
    }

    /// The server's go-ahead: the bytes as DATA requests, `charactersPerLine`
    /// base64 characters (whole 3-byte groups) each; none when no upload is under way.
    func dataRequests(charactersPerLine: Int) -> [Request] {
        guard let job else { return [] }
        let perLine = max(1, charactersPerLine / 4) * 3
        return stride(from: 0, to: job.bytes.count, by: perLine).map { start in
            .data(Array(job.bytes[start..<min(job.bytes.count, start + perLine)]))
        }
    }

    /// The server has the picture, or refused it, or the link went: the upload
    /// ends; its file, if one was under way.
    mutating func end() -> PictureFile? {
        defer { job = nil }
        return job?.file
    }

    /// After `PICTURE_EXISTS`: the same bytes under the next name (`trip-2`,
    /// ..., the room made to use it), and the request that uploads them; nil
    /// when the names are used up (the upload is then still under way: `end` it).
    mutating func retryUnderAnotherName() -> (file: PictureFile, request: Request)? {
        guard var next = job else { return nil }
        let attempt = next.file.attempt + 1
        guard attempt < Self.attempts else { return nil }
        let suffix = "-\(attempt + 1)"
        next.file.name = String(next.file.baseName.prefix(NameRule.maxLength - suffix.count)) + suffix
        next.file.spec.picture = next.file.name
        next.file.attempt = attempt
        job = next
        return (next.file, .upload(name: next.file.name, bytes: next.bytes.count))
    }
}
