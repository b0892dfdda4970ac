import PuzzleCore
import PuzzleImages
import PuzzleProtocol
import PuzzleSystem

/// Pictures uploaded by players (PROTOCOL.md, *Uploads*): `UPLOAD <name>
/// <bytes>` is checked and answered at once (`OK upload ... line=<n>`, the
/// go-ahead, or a refusal); the bytes then come in `DATA <base64>` lines,
/// which together are one request: their reply comes once the last byte
/// has arrived, been decoded (off the loop, `UploadWorker`), written by its
/// content's hash and its name recorded, durably, or when the upload ends
/// early. Until that reply the connection answers nothing else (replies
/// keep their order).
extension PuzzleServer {
    /// Uploads receiving bytes or being stored, server-wide.
    var openUploads: Int {
        connections.values.reduce(0) { $0 + ($1.upload.map { $0.discarding ? 0 : 1 } ?? 0) } + uploadWorker.inFlight
    }

    /// UPLOAD: every check that needs no bytes, then the go-ahead.
    func beginUpload(_ name: String, bytes: Int, conn: Connection) {
        // An upload of this connection not started yet (no DATA line) gives way: it owes no reply.
        if conn.upload?.lines == 0 { conn.upload = nil }
        guard config.uploads else { return reply(conn, error: .uploadsOff) }
        let limit = config.effectiveUploadMaxBytes
        guard bytes <= limit else { return reply(conn, error: .tooLarge(bytes, limit: limit)) }
        // The host's pictures keep their names; an upload of that name would never be shown.
        if pictures.isHostPicture(name) { return reply(conn, error: .pictureExists(name, "one of the server's own pictures")) }
        if uploadStore.entries[name] == nil, uploadStore.entries.count + openUploads >= config.uploadMaxCount {
            return reply(conn, error: ProtocolError(.uploadsFull, "the server keeps at most \(config.uploadMaxCount) uploaded pictures and has no room for another; CREATE with one of those it has"))
        }
        guard openUploads < UploadInProgress.openAtOnce else {
            return reply(conn, error: ProtocolError(.rateLimited, "the server is taking \(UploadInProgress.openAtOnce) uploads already; try again in a few seconds"))
        }
        if let wait = uploadThrottle.take(for: conn.host, now: now) {
            return reply(conn, error: ProtocolError(.rateLimited, "uploads from \(conn.host) are paced at \(config.uploadsPerHour) an hour; try again in \((wait + 999) / 1000) s"))
        }
        var upload = UploadInProgress(name: name, expected: bytes, deadline: now + UploadInProgress.timeLimitMillis)
        // Grown as lines arrive, never past the size announced (checked above against the limit).
        upload.bytes.reserveCapacity(min(bytes, 1 << 20))
        conn.upload = upload
        logger.info("\(conn.label) uploads \(bytes) bytes as picture \(name)")
        conn.send(.uploadReady(name: name, bytes: bytes, lineCharacters: UploadChunk.charactersPerLine(maxLineLength: config.maxLineLength)))
    }

    /// A line read while `conn` has an upload open: a DATA line is taken
    /// (true); any other line ends the upload first and is then handled as
    /// usual (false).
    func takeUploadLine(_ conn: Connection, _ line: [UInt8]) -> Bool {
        guard let payload = Self.dataPayload(line) else {
            // Before its first DATA line the upload waits: a request the
            // client sent while the go-ahead was on its way (a PING, a KEEP)
            // is answered as usual, before the upload's own reply. Once its
            // bytes have started, any other line ends it.
            if let upload = conn.upload, upload.lines == 0, !upload.discarding { return false }
            endUpload(conn, why: "another request came before its last byte", discardRest: false)
            return false
        }
        guard var upload = conn.upload else { return true }
        guard !upload.discarding else {
            if upload.owesReply {
                conn.upload?.owesReply = false
                reply(conn, error: .uploadAborted(upload.name, upload.abortedBecause))
            }
            return true
        }
        // Taken out while it grows: a buffer still referenced from the
        // connection would be copied whole by every append (copy on write).
        conn.upload = nil
        let number = upload.lines + 1
        let decoded = UploadChunk.decode(payload, into: &upload.bytes)
        upload.lines = number
        conn.upload = upload
        guard decoded else {
            endUpload(conn, why: "DATA line \(number) is not whole quads of padded base64", byDataLine: true)
            return true
        }
        if upload.bytes.count > upload.expected {
            endUpload(conn, why: "more than the \(upload.expected) bytes announced arrived", byDataLine: true)
        } else if upload.bytes.count == upload.expected {
            conn.upload = nil
            // Nothing after this line is answered before the upload's reply.
            holdForUpload(conn)
            uploadWorker.start(token: conn.token, name: upload.name, bytes: upload.bytes, existing: uploadStore.entries[upload.name],
                               limits: ImageLimits(maxPixels: config.pictureMaxPixels, maxFileBytes: config.pictureMaxBytes),
                               picturesDirectory: uploadStore.picturesDirectory, sync: config.fsync != .never)
        }
        return true
    }

    /// A line longer than `max_line_length` while an upload is open: most
    /// likely a DATA line of a client that did not keep to `line=`.
    func overlongUploadLine(_ conn: Connection) -> Bool {
        guard let upload = conn.upload else { return false }
        guard !upload.discarding else {
            conn.upload = nil
            return false
        }
        endUpload(conn, why: "a line longer than \(config.maxLineLength) bytes came (DATA lines carry at most \(UploadChunk.charactersPerLine(maxLineLength: config.maxLineLength)) characters)", byDataLine: true)
        return true
    }

    /// Gives an open upload up: nothing of it is kept. Its DATA lines had a
    /// reply coming, so an upload that had any gets `UPLOAD_ABORTED`; one
    /// given up before its first DATA line needs none, unless the line that
    /// ends it is itself one of its DATA lines (`byDataLine`: a bad one, one
    /// too many). `discardRest`: its later DATA lines are read and dropped
    /// without replies until any other line comes (a client that pipelined
    /// them gets one reply, not one a line); otherwise it is gone at once (a
    /// line that is not DATA ends it).
    func endUpload(_ conn: Connection, why: String, byDataLine: Bool = false, discardRest: Bool = true) {
        guard let upload = conn.upload else { return }
        guard !upload.discarding else {
            if !discardRest { conn.upload = nil }
            return
        }
        logger.info("\(conn.label): upload of \(upload.name) aborted: \(why)")
        if upload.lines > 0 || byDataLine { reply(conn, error: .uploadAborted(upload.name, why)) }
        if discardRest {
            conn.upload?.bytes = []
            conn.upload?.discarding = true
            // Its DATA lines may yet come (a client slower than the time limit): they get their one reply then.
            conn.upload?.owesReply = upload.lines == 0 && !byDataLine
            conn.upload?.abortedBecause = why
        } else {
            conn.upload = nil
        }
    }

    /// Uploads past their time: given up (once a second, with the idle sweep).
    func expireUploads() {
        for conn in Array(connections.values) {
            guard let upload = conn.upload, !upload.discarding, now >= upload.deadline else { continue }
            endUpload(conn, why: "its bytes did not all arrive within \(UploadInProgress.timeLimitMillis / 1000) s")
        }
        uploadThrottle.forgetRecovered(now: now)
    }

    /// The uploads the worker finished: recorded (durably) and answered.
    func collectUploads() {
        for done in uploadWorker.collect() {
            let conn = connections[done.token]
            let outcome = conn == nil ? done.outcome : finishUpload(done)
            guard let conn, conn.state.isOpen else {
                if case .success = outcome { logger.info("upload of \(done.name) finished after its connection closed") }
                continue
            }
            switch outcome {
            case .success(let stored):
                conn.send(.uploaded(name: done.name, width: stored.width, height: stored.height, sha256: stored.entry.sha256))
            case .failure(let error):
                reply(conn, error: error)
            }
            resumeAfterUpload(conn)
        }
    }

    /// Records a stored upload's name (unless it is already this content's)
    /// and offers the picture: refused if the name went to other content or
    /// the host's pictures meanwhile.
    private func finishUpload(_ done: UploadWorker.Finished) -> Result<UploadWorker.Stored, ProtocolError> {
        guard case .success(let stored) = done.outcome else { return done.outcome }
        let name = done.name
        if pictures.isHostPicture(name) { return .failure(.pictureExists(name, "one of the server's own pictures")) }
        if let existing = uploadStore.entries[name] {
            // The same bytes under the same name: already there, nothing to do.
            guard existing == stored.entry else { return .failure(.pictureExists(name, "uploaded before, with other content")) }
            return .success(stored)
        }
        do {
            try uploadStore.record(name, stored.entry)
        } catch {
            logger.error("upload of \(name) not recorded: \(error)")
            return .failure(.storage("the server could not record the picture (\(Self.storageReason(error))); nothing was stored"))
        }
        pictures.addUpload(name, stored.image)
        logger.info("stored uploaded picture \(name): \(stored.width)x\(stored.height), \(stored.entry.bytes) bytes, \(stored.entry.fileName)")
        return .success(stored)
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

extension PuzzleServer {
    /// Offers every recorded upload before the rooms are restored, from its
    /// kept copy (512 pixels a side) where there is one, else decoded from
    /// its original (and the copy made), on every core. One whose file is
    /// missing or damaged, or whose name the host's pictures now have, is
    /// left out with an error in the log (a room made from it keeps its
    /// place and pieces; it just has no picture).
    func loadUploads() {
        for problem in uploadStore.problems { logger.error(problem) }
        let named = uploadStore.entries.sorted { $0.key < $1.key }
        guard !named.isEmpty else { return }
        let limits = ImageLimits(maxPixels: config.pictureMaxPixels, maxFileBytes: config.pictureMaxBytes)
        var results = PictureLibrary.decode(named.map { uploadStore.keptPath(of: $0.value) }, limits: limits)
        let missing = results.indices.filter { if case .failure = results[$0] { true } else { false } }
        let originals = PictureLibrary.decode(missing.map { uploadStore.path(of: named[$0].value) }, limits: limits)
        for (i, result) in zip(missing, originals) {
            results[i] = result
            if case .success(let image) = result {
                UploadStore.writeKept(image, of: named[i].value, in: uploadStore.picturesDirectory)
            }
        }
        for ((name, entry), result) in zip(named, results) {
            switch result {
            case .success(let image) where !pictures.isHostPicture(name):
                pictures.addUpload(name, image)
            case .success:
                logger.warn("uploaded picture \(name) is not offered: the server's own picture of that name wins")
            case .failure(let why):
                logger.error("uploaded picture \(name) (\(uploadStore.path(of: entry))) cannot be loaded: \(why)")
            }
        }
    }
}
