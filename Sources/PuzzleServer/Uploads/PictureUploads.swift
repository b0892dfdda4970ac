import PuzzleCore
import PuzzleImages
import PuzzleProtocol
import PuzzleSystem

/// Pictures uploaded by players (PROTOCOL.md, *Uploads*): `UPLOAD <name>
/// <bytes>` is checked and answered at once (`OK upload ... line=<n>`, the
/// go-ahead, or a refusal); the bytes then come in `DATA <base64>` lines,
/// which together are one request: their reply comes once the last byte
/// has arrived, been decoded (off the loop, an `UploadJob` on a `BackgroundWorker`), written by its
/// content's hash and its name recorded, durably, or when the upload ends
/// early. Until that reply the connection answers nothing else (replies
/// keep their order).
///
/// Owns the uploads on disk (`UploadStore`), the worker and the pace per
/// address, and decides every step of an upload. A connection's upload in
/// progress lives on the connection (`Connection.upload`, its slot), which is
/// handed in; what to send back comes out as typed answers (a `Reply`, a
/// `LineOutcome`) for the server to carry out, so that these rules need no
/// socket.
///
/// Not thread-safe: owned by the server's event loop.
final class PictureUploads {
    /// What the server does with a line read while its connection has an upload open.
    enum LineOutcome: Equatable {
        /// The upload took the line; `reply` goes out if there is one.
        case taken(reply: Reply?)
        /// Not the upload's: `reply` (ending the upload the line ended) goes
        /// out first, then the line is handled as a request.
        case notTaken(reply: Reply?)
        /// The last byte came: the picture is being stored off the loop, and
        /// the connection answers nothing more until its job is collected.
        case storing
    }

    /// Uploaded pictures on disk (`<data>/pictures`, `<data>/uploads`).
    let store: UploadStore
    /// Decodes and stores uploads off the loop.
    private let worker: BackgroundWorker<UploadJob, UploadJob.Finished>
    /// Uploads per address (`uploads_per_hour`).
    private var throttle: UploadThrottle
    private let logger: Logger
    /// `uploads`: whether players may upload at all.
    private let enabled: Bool
    /// `upload_max_bytes` (at most `picture_max_bytes`).
    private let maxBytes: Int
    /// `upload_max_count`: pictures kept, and being received, in all.
    private let maxCount: Int
    private let maxLineLength: Int
    private let limits: ImageLimits
    /// Whether the content files are synced (not with `fsync = never`).
    private let sync: Bool

    /// Waits until the worker has stored the uploads it took (a server
    /// stopping lets no job write into its data directory once it let go).
    func waitUntilIdle() {
        worker.waitUntilIdle()
    }

    /// Readable when the worker finished a job (`collect`).
    var descriptor: FileDescriptor { worker.descriptor }

    /// `store`: the uploads recorded in the data directory (opened first,
    /// with the other stores, before the server makes any descriptor).
    init(store: UploadStore, config: ServerConfig, logger: Logger) throws(Errno) {
        self.store = store
        self.logger = logger
        enabled = config.uploads
        maxBytes = config.effectiveUploadMaxBytes
        maxCount = config.uploadMaxCount
        maxLineLength = config.maxLineLength
        limits = ImageLimits(maxPixels: config.pictureMaxPixels, maxFileBytes: config.pictureMaxBytes)
        sync = config.fsync != .never
        throttle = UploadThrottle(perHour: config.uploadsPerHour)
        worker = try BackgroundWorker(label: "puzzle.uploads") { $0.run() }
    }

    /// Characters of base64 a DATA line carries (the go-ahead's `line=`).
    private var lineCharacters: Int { UploadChunk.charactersPerLine(maxLineLength: maxLineLength) }

    /// UPLOAD: every check that needs no bytes, then the go-ahead, with the
    /// new upload in `slot`; or the refusal. An upload in `slot` not started
    /// yet (no DATA line) gives way: it owes no reply. `receivingElsewhere`:
    /// uploads other connections are receiving now (not given up).
    func begin(_ name: String, bytes: Int, slot: inout UploadInProgress?, host: String, label: String, receivingElsewhere: Int,
               pictures: PictureLibrary, now: Int64) -> Reply {
        if slot?.lines == 0 { slot = nil }
        guard enabled else { return .error(.uploadsOff) }
        guard bytes <= maxBytes else { return .error(.tooLarge(bytes, limit: maxBytes)) }
        // The host's pictures keep their names; an upload of that name would never be shown.
        if pictures.isHostPicture(name) { return .error(.pictureExists(name, "one of the server's own pictures")) }
        let open = receivingElsewhere + worker.inFlight
        if store.entries[name] == nil, store.entries.count + open >= maxCount {
            return .error(ProtocolError(.uploadsFull, "the server keeps at most \(maxCount) uploaded pictures and has no room for another; CREATE with one of those it has"))
        }
        guard open < UploadInProgress.openAtOnce else {
            return .error(ProtocolError(.rateLimited, "the server is taking \(UploadInProgress.openAtOnce) uploads already; try again in a few seconds"))
        }
        if let wait = throttle.take(for: host, now: now) {
            return .error(ProtocolError(.rateLimited, "uploads from \(host) are paced at \(throttle.perHour) an hour; try again in \((wait + 999) / 1000) s"))
        }
        var upload = UploadInProgress(name: name, expected: bytes, deadline: now + UploadInProgress.timeLimitMillis)
        // Grown as lines arrive, never past the size announced (checked above against the limit).
        upload.bytes.reserveCapacity(min(bytes, 1 << 20))
        slot = upload
        logger.info("\(label) uploads \(bytes) bytes as picture \(name)")
        return .uploadReady(name: name, bytes: bytes, lineCharacters: lineCharacters)
    }

    /// A line read while `slot` holds an upload: a DATA line is taken; any
    /// other line ends the upload first and is then handled as usual. The
    /// last byte starts the worker on the picture for connection `token`.
    func take(_ line: [UInt8], slot: inout UploadInProgress?, token: UInt64, label: @autoclosure () -> String) -> LineOutcome {
        guard let payload = Self.dataPayload(line) else {
            // Before its first DATA line the upload waits: a request the
            // client sent while the go-ahead was on its way (a PING, a KEEP)
            // is answered as usual, before the upload's own reply. Once its
            // bytes have started, any other line ends it.
            if let upload = slot, upload.lines == 0, !upload.discarding { return .notTaken(reply: nil) }
            return .notTaken(reply: end(&slot, why: "another request came before its last byte", label: label, discardRest: false))
        }
        guard var upload = slot else { return .taken(reply: nil) }
        guard !upload.discarding else {
            guard upload.owesReply else { return .taken(reply: nil) }
            slot?.owesReply = false
            return .taken(reply: .error(.uploadAborted(upload.name, upload.abortedBecause)))
        }
        // Taken out while it grows: a buffer still referenced from the slot
        // would be copied whole by every append (copy on write).
        slot = nil
        let number = upload.lines + 1
        let decoded = UploadChunk.decode(payload, into: &upload.bytes)
        upload.lines = number
        slot = upload
        guard decoded else {
            return .taken(reply: end(&slot, why: "DATA line \(number) is not whole quads of padded base64", label: label, byDataLine: true))
        }
        if upload.bytes.count > upload.expected {
            return .taken(reply: end(&slot, why: "more than the \(upload.expected) bytes announced arrived", label: label, byDataLine: true))
        }
        guard upload.bytes.count == upload.expected else { return .taken(reply: nil) }
        slot = nil
        worker.start(UploadJob(token: token, name: upload.name, bytes: upload.bytes, existing: store.entries[upload.name], limits: limits,
                               picturesDirectory: store.picturesDirectory, sync: sync))
        return .storing
    }

    /// A line longer than `max_line_length` while `slot` holds an upload:
    /// most likely a DATA line of a client that did not keep to `line=`.
    /// Not taken (refused as too long, as usual) when no upload is receiving.
    func takeOverlong(slot: inout UploadInProgress?, label: @autoclosure () -> String) -> LineOutcome {
        guard let upload = slot else { return .notTaken(reply: nil) }
        guard !upload.discarding else {
            slot = nil
            return .notTaken(reply: nil)
        }
        let why = "a line longer than \(maxLineLength) bytes came (DATA lines carry at most \(lineCharacters) characters)"
        return .taken(reply: end(&slot, why: why, label: label, byDataLine: true))
    }

    /// Gives the upload in `slot` up: nothing of it is kept. Its DATA lines
    /// had a reply coming, so an upload that had any gets `UPLOAD_ABORTED`
    /// (returned); one given up before its first DATA line needs none,
    /// unless the line that ends it is itself one of its DATA lines
    /// (`byDataLine`: a bad one, one too many). `discardRest`: its later DATA
    /// lines are read and dropped without replies until any other line comes
    /// (a client that pipelined them gets one reply, not one a line);
    /// otherwise it is gone at once (a line that is not DATA ends it).
    private func end(_ slot: inout UploadInProgress?, why: String, label: () -> String, byDataLine: Bool = false,
                     discardRest: Bool = true) -> Reply? {
        guard let upload = slot else { return nil }
        guard !upload.discarding else {
            if !discardRest { slot = nil }
            return nil
        }
        logger.info("\(label()): upload of \(upload.name) aborted: \(why)")
        guard discardRest else {
            slot = nil
            return upload.lines > 0 || byDataLine ? .error(.uploadAborted(upload.name, why)) : nil
        }
        slot?.bytes = []
        slot?.discarding = true
        // Its DATA lines may yet come (a client slower than the time limit): they get their one reply then.
        slot?.owesReply = upload.lines == 0 && !byDataLine
        slot?.abortedBecause = why
        return upload.lines > 0 || byDataLine ? .error(.uploadAborted(upload.name, why)) : nil
    }

    /// Gives the upload in `slot` up if it is past its time at `now` (the
    /// server asks once a second, with the idle sweep); the reply it is owed, if any.
    func expire(_ slot: inout UploadInProgress?, label: @autoclosure () -> String, now: Int64) -> Reply? {
        guard let upload = slot, !upload.discarding, now >= upload.deadline else { return nil }
        return end(&slot, why: "its bytes did not all arrive within \(UploadInProgress.timeLimitMillis / 1000) s", label: label)
    }

    /// Forgets the addresses whose upload allowance is whole again (with the idle sweep).
    func forgetRecovered(now: Int64) {
        throttle.forgetRecovered(now: now)
    }

    /// The jobs the worker finished since the last call; each is then
    /// `finish`ed (or not, when its connection is gone).
    func collect() -> [UploadJob.Finished] {
        worker.collect()
    }

    /// The reply to a finished job. `record`: its connection is still there,
    /// so the picture is recorded (durably) under its name and offered in
    /// `pictures`, unless the name went to other content or to the host's
    /// pictures meanwhile; otherwise nothing is recorded (a content file no
    /// name points to is only reused by a later upload of the same bytes).
    func finish(_ done: UploadJob.Finished, record: Bool, pictures: inout PictureLibrary) -> Reply {
        let outcome = record ? recorded(done, pictures: &pictures) : done.outcome
        switch outcome {
        case .success(let stored):
            return .uploaded(name: done.name, width: stored.width, height: stored.height, sha256: stored.entry.sha256)
        case .failure(let error):
            return .error(error)
        }
    }

    /// Records a stored upload's name (unless it is already this content's)
    /// and offers the picture.
    private func recorded(_ done: UploadJob.Finished, pictures: inout PictureLibrary) -> Result<UploadJob.Stored, ProtocolError> {
        guard case .success(let stored) = done.outcome else { return done.outcome }
        let name = done.name
        if pictures.isHostPicture(name) { return .failure(.pictureExists(name, "one of the server's own pictures")) }
        if let existing = store.entries[name] {
            // The same bytes under the same name: already there, nothing to do.
            guard existing == stored.entry else { return .failure(.pictureExists(name, "uploaded before, with other content")) }
            return .success(stored)
        }
        do {
            try store.record(name, stored.entry)
        } catch {
            logger.error("upload of \(name) not recorded: \(error)")
            return .failure(.storage("the server could not record the picture (\(RoomStoreError.reason(error))); nothing was stored"))
        }
        pictures.addUpload(name, stored.image)
        logger.info("stored uploaded picture \(name): \(stored.width)x\(stored.height), \(stored.entry.bytes) bytes, \(stored.entry.fileName)")
        return .success(stored)
    }

    /// Offers every recorded upload in `pictures` (before the rooms are
    /// restored), from its kept copy (512 pixels a side) where there is one,
    /// else decoded from its original (and the copy made), on every core. One
    /// whose file is missing or damaged, or whose name the host's pictures
    /// now have, is left out with an error in the log (a room made from it
    /// keeps its place and pieces; it just has no picture).
    func offerRecorded(in pictures: inout PictureLibrary) {
        for problem in store.problems { logger.error(problem) }
        let named = store.entries.sorted { $0.key < $1.key }
        guard !named.isEmpty else { return }
        var results = PictureLibrary.decode(named.map { store.keptPath(of: $0.value) }, limits: limits)
        let missing = results.indices.filter { if case .failure = results[$0] { true } else { false } }
        let originals = PictureLibrary.decode(missing.map { store.path(of: named[$0].value) }, limits: limits)
        for (i, result) in zip(missing, originals) {
            results[i] = result
            if case .success(let image) = result {
                UploadStore.writeKept(image, of: named[i].value, in: store.picturesDirectory)
            }
        }
        for ((name, entry), result) in zip(named, results) {
            switch result {
            case .success(let image) where !pictures.isHostPicture(name):
                pictures.addUpload(name, image)
            case .success:
                logger.warn("uploaded picture \(name) is not offered: the server's own picture of that name wins")
            case .failure(let why):
                logger.error("uploaded picture \(name) (\(store.path(of: entry))) cannot be loaded: \(why)")
            }
        }
    }

    /// The base64 of a DATA line (verb in any case, then spaces), or nil when
    /// the line is not one.
    static func dataPayload(_ line: [UInt8]) -> ArraySlice<UInt8>? {
        guard line.count > 5 else { return nil }
        for (i, c) in "DATA".utf8.enumerated() where line[i] & 0xDF != c { return nil }
        guard line[4] == UInt8(ascii: " ") else { return nil }
        var payload = line[5...]
        while payload.first == UInt8(ascii: " ") { payload = payload.dropFirst() }
        while payload.last == UInt8(ascii: " ") { payload = payload.dropLast() }
        return payload
    }
}
