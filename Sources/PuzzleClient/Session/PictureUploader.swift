import PuzzleCore
import PuzzleProtocol

/// `/create NAME KIND SIZE picture=FILE` on the client: the files named for
/// the driver to read, and the upload conversation: the file read, `UPLOAD`,
/// its bytes in DATA lines once the server says go, another name when the
/// one asked for is taken, then the room created from it; each step said to
/// the player. It owns the upload under way (the file and its bytes, under
/// the name being tried) until the server has them, and answers each step
/// with the lines and requests for the session to apply (`SessionEffects`).
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

    // MARK: The conversation

    /// The driver read `file` (or could not): its upload starts, when the
    /// session can send (`connected`: greeted, in a room or choosing one).
    mutating func fileRead(_ file: PictureFile, _ result: Result<[UInt8], PictureFileError>, connected: Bool) -> SessionEffects {
        var effects = SessionEffects()
        switch result {
        case .failure(let error):
            effects.refuse("cannot upload \(file.path): \(error.message)")
        case .success(let bytes):
            guard connected else {
                effects.refuse("not connected; /create the room again once the link is back")
                break
            }
            effects.say(.info, "uploading \(file.path) as picture \(file.name) (\(PlayerText.size(bytes.count)))…")
            effects.send(start(file, bytes: bytes), fromUser: true)
        }
        return effects
    }

    /// `OK uploaded`: the picture is stored, and the room is created from it.
    mutating func stored(_ name: String, width: Int, height: Int) -> SessionEffects {
        var effects = SessionEffects()
        guard let file = end() else { return effects }
        effects.say(.info, "uploaded picture \(name) (\(width)x\(height)); creating room \(file.spec.name)…")
        effects.send(.create(file.spec), fromUser: true,
                     successNote: "room \(file.spec.name) has your picture: /join \(file.spec.name) to play it")
        return effects
    }

    /// UPLOAD or DATA refused with `code`. A name taken by another picture:
    /// the same bytes again under the next name (`trip-2`, ...), and the
    /// effects that say and send it. Any other refusal, or the names used
    /// up, ends the upload: nil, and the session tells the refusal as any other.
    mutating func refused(_ code: ErrorCode) -> SessionEffects? {
        if code == .pictureExists, let (file, request) = retryUnderAnotherName() {
            var effects = SessionEffects()
            let tried = file.attempt > 1 ? "\(file.baseName)-\(file.attempt)" : file.baseName
            effects.say(.info, "a picture named \(tried) exists already: uploading as \(file.name)…")
            effects.send(request, fromUser: true)
            return effects
        }
        _ = end()
        return nil
    }

    /// The link went: an upload under way is cut off, and the player told.
    mutating func linkLost() -> SessionEffects {
        var effects = SessionEffects()
        if let file = end() {
            effects.say(.info, "the upload of \(file.name) was cut off with the connection: /create the room again")
        }
        return effects
    }
}
