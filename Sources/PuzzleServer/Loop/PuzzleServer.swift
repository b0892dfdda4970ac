import PuzzleCore
import PuzzleImages
import PuzzleProtocol
import PuzzleSystem
import PuzzleWeb
import PuzzleTelnet

/// The authoritative puzzle-room server: one non-blocking event loop (epoll)
/// that owns every room and connection.
///
/// All state is confined to the thread that calls `run()`; `stop()` may be
/// called from any thread (it only wakes the loop).
public final class PuzzleServer: @unchecked Sendable {
    public let config: ServerConfig
    let logger: Logger
    let queue: any ReadinessQueue
    /// The listening socket; accepting pauses after running out of descriptors.
    let listener: Listener
    /// The port the server listens on (the chosen one when the config says 0).
    public var port: Int { listener.port }
    let waker: Waker
    let signals: SignalWatcher?
    /// Open connections, with the indexes their states need.
    let connections = ConnectionTable()
    /// Every change of a connection's stage (`ConnectionState`).
    let lifecycle: ConnectionLifecycle
    /// The rooms hosted (shared with `keeper`, which opens and closes them).
    let rooms = RoomDirectory()
    /// The rooms' journals, snapshots and replays (shared with `keeper`).
    let store: RoomStore
    /// The players greeted, by token (their lines synced once a turn, in `finishTurn`).
    let players: PlayerRegistry
    /// The rooms' lives: restored, opened, kept bounded, snapshotted; the
    /// players who leave them and those away after a dropped link.
    let keeper: RoomKeeper
    /// Decides every request (the sessions' rules); the loop carries out
    /// what it decides (`carryOut`).
    let router: RequestRouter
    /// Held from start-up until shutdown: no second server on the same data.
    let dataLock: DataDirectoryLock
    let flushList = FlushList()
    /// Counters for STATS (shared with the router).
    let stats: ServerStats
    /// This loop turn's budget for rooms (which requests wait for the next
    /// turn), and the connections left over for the next turn or to close at its end.
    var thisTurn = LoopTurn()
    /// When a reader is too slow (`output_soft_limit`, `output_hard_limit`,
    /// `slow_reader_grace_ms`).
    let slowReaderRule: SlowReaderRule
    /// What browsers are served (the page, the WebSocket's origin policy).
    let site: WebSite
    /// Bounds on an HTTP request head (`http_header_timeout_ms`).
    let httpLimits: HTTPLimits
    /// Room pictures drawn for browsers: the background worker, the files lately
    /// made, who waits for each.
    let browserPictures: BrowserPictures
    /// This turn's time, when the server started, when it next sweeps.
    var clock: LoopClock
    /// Set once the loop is to end (nil while it runs): cleanly, or on
    /// storage it can no longer trust (`run()` throws the failure).
    var ending: LoopEnd?
    /// Sockets the telnet gateway hands over (one end of a socket pair per session).
    let adopted: AdoptedSockets
    /// Reads kept replays' files off the loop (`ReplayRead`).
    let replayReader: BackgroundWorker<ReplayRead, ReplayRead.Done>
    /// Lays out and writes the rooms CREATEs ask for off the loop (`RoomCreation`).
    let roomCreator: BackgroundWorker<RoomCreation, RoomCreation.Done>
    /// Encodes rooms' pictures for `PICTURE` off the loop (`PictureEncoding`).
    let pictureEncoder: BackgroundWorker<PictureEncoding, PictureEncoding.Done>
    /// Who waits for each encoding: one job per picture and format at a time.
    var pictureWaiters = PictureWaiters()
    /// Rooms still coming in from disk after a restart, and who waits for them.
    let arrivals: RoomArrivals
    /// The telnet gateway (nil: `telnet_port = off`), on threads of its own.
    private(set) var telnet: TelnetGateway?
    /// The port telnet players connect to, or nil when there is none.
    public var telnetPort: Int? { telnet?.port }
    /// Telnet sessions open now (nil: no telnet port). Safe from any thread.
    public var telnetSessionCount: Int? { telnet?.sessionCount }
    /// Reused read buffer.
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    static let listenerToken: UInt64 = 1
    static let wakerToken: UInt64 = 2
    static let signalToken: UInt64 = 3
    static let pictureToken: UInt64 = 4
    static let uploadToken: UInt64 = 5
    static let adoptToken: UInt64 = 6
    static let loaderToken: UInt64 = 7
    static let replayToken: UInt64 = 8
    static let creatorToken: UInt64 = 9
    static let encoderToken: UInt64 = 10

    /// Binds the listener, restores rooms from the data directory and opens the
    /// configured ones. `seed` fixes the random generator for new rooms (tests);
    /// nil takes the config's `seed`, and if that is nil too seeds from the
    /// system. `handleSignals` turns SIGINT/SIGTERM into a clean shutdown (call
    /// from the main thread before starting other threads). `storageDevice`
    /// performs the room store's writes and syncs, `readinessQueue` watches
    /// the descriptors (nil: a new `EpollQueue`; tests inject failures).
    public init(config: ServerConfig, logger: Logger, seed: UInt64? = nil, handleSignals: Bool = false,
                storageDevice: StorageDevice = SystemStorageDevice(), readinessQueue: (any ReadinessQueue)? = nil) throws {
        self.config = config
        self.logger = logger
        try Signals.ignoreBrokenPipe()
        slowReaderRule = SlowReaderRule(softLimit: config.outputSoftLimit, hardLimit: config.outputHardLimit,
                                        graceMillis: Int64(config.slowReaderGraceMillis))
        site = WebSite(origins: config.webOrigins)
        httpLimits = HTTPLimits(headerTimeoutMillis: Int64(config.httpHeaderTimeoutMillis))
        clock = LoopClock(startingAt: MonotonicClock.nowMilliseconds)
        let pictures = try PictureLibrary(files: config.pictures, folder: config.pictureFolder,
                                      limits: ImageLimits(maxPixels: config.pictureMaxPixels, maxFileBytes: config.pictureMaxBytes),
                                      warn: { logger.warn($0) })
        dataLock = try DataDirectoryLock(directory: config.dataDirectory)
        store = try RoomStore(directory: config.dataDirectory, fsync: config.fsync, snapshotEvery: config.snapshotEvery,
                              device: storageDevice)
        store.replaysKept = config.replaysKept
        keeper = RoomKeeper(rooms: rooms, store: store, config: config, seed: seed ?? config.seed ?? UInt64.random(in: 0...UInt64.max),
                            logger: logger)
        let registry = try PlayerRegistry(directory: config.dataDirectory, sync: config.fsync != .never, device: storageDevice)
        players = registry
        let uploadStore = try UploadStore(directory: config.dataDirectory, sync: config.fsync != .never)
        // Every connection is a descriptor; ask for enough (up to the hard limit).
        _ = try? ResourceLimits.raiseOpenFileLimit(to: UInt64(config.maxConnections) + 64)
        if let readinessQueue { queue = readinessQueue } else { queue = try EpollQueue(maxEventsPerWait: 1024) }
        waker = try Waker()
        adopted = try AdoptedSockets()
        browserPictures = try BrowserPictures()
        replayReader = try BackgroundWorker(label: "replay-reader") { $0.run() }
        roomCreator = try BackgroundWorker(label: "room-creator") { $0.run() }
        pictureEncoder = try BackgroundWorker(label: "picture-encoder") { $0.run() }
        let uploads = try PictureUploads(store: uploadStore, config: config, logger: logger)
        let stats = ServerStats()
        self.stats = stats
        lifecycle = ConnectionLifecycle(connections: connections, queue: queue, logger: logger, stats: stats)
        router = RequestRouter(config: config, rooms: rooms, keeper: keeper, store: store, registry: registry, uploads: uploads,
                               pictures: pictures, stats: stats, logger: logger)
        signals = handleSignals ? try SignalWatcher(signals: [.interrupt, .terminate]) : nil
        do {
            listener = try Listener(host: config.bind, port: config.port, queue: queue, token: Self.listenerToken,
                                    sendBuffer: config.socketSendBuffer, logger: logger)
        } catch {
            // No deinit for a server that never was: its descriptors close here.
            try? waker.close()
            try? signals?.close()
            throw error
        }
        try queue.register(waker.descriptor, interest: .readable, token: Self.wakerToken)
        try queue.register(browserPictures.descriptor, interest: .readable, token: Self.pictureToken)
        try queue.register(uploads.descriptor, interest: .readable, token: Self.uploadToken)
        try queue.register(adopted.waker.descriptor, interest: .readable, token: Self.adoptToken)
        try queue.register(replayReader.descriptor, interest: .readable, token: Self.replayToken)
        try queue.register(roomCreator.descriptor, interest: .readable, token: Self.creatorToken)
        try queue.register(pictureEncoder.descriptor, interest: .readable, token: Self.encoderToken)
        if let signals { try queue.register(signals.descriptor, interest: .readable, token: Self.signalToken) }
        // Before the rooms: a room made from an uploaded picture comes back with it.
        uploads.offerRecorded(in: &router.pictures)
        // The rooms on disk load off the loop, which answers meanwhile
        // (issue 31: a thousand big rooms kept it silent for 14 s); their
        // names are taken at once, and a JOIN of one waits for it.
        let toLoad = try keeper.restore(configured: config.rooms, pictures: &router.pictures, now: clock.now)
        let loaderStore = try RoomStore(directory: config.dataDirectory, fsync: config.fsync, snapshotEvery: config.snapshotEvery,
                                        device: storageDevice)
        loaderStore.replaysKept = config.replaysKept
        arrivals = RoomArrivals(loader: try RoomLoader(names: toLoad, store: loaderStore, now: { MonotonicClock.nowMilliseconds }),
                                total: toLoad.count, startedAt: clock.now)
        try queue.register(arrivals.loader.descriptor, interest: .readable, token: Self.loaderToken)
        if !toLoad.isEmpty { logger.info("loading \(toLoad.count) room(s) from \(config.dataDirectory) in the background") }
        for line in registry.skippedLines { logger.error(line) }
        // Ids go on from the largest any room or token remembers: a player
        // who comes back must never meet someone else under its id. (The
        // registry reserves every id durably before handing it out; rooms
        // loading later raise this again as they come in.)
        registry.continueAfter(rooms.largestPlayerID)
        router.loop = self
        lifecycle.sessionEnds = { [unowned self] conn, leaves in endSession(conn, leaves: leaves) }
        do {
            telnet = try Self.startTelnet(config: config, adopted: adopted, logger: logger)
        } catch {
            listener.close()
            // The loader touches the data no more once the lock is let go.
            arrivals.loader.stop()
            dataLock.release()
            throw error
        }
    }

    /// Asks the loop to shut down cleanly; safe from any thread, also after
    /// the loop ended (the waker lives as long as the server).
    public func stop() {
        waker.wake()
    }

    // The waker and the signal descriptor close with the server, not when the
    // loop ends: `stop()` from another thread may come after that, and a write
    // to a closed descriptor number lands in whatever was opened under it since.
    deinit {
        arrivals.loader.stop()
        telnet?.stop()
        try? waker.close()
        try? signals?.close()
    }

    /// Runs the event loop until `stop()` or a handled signal, then shuts down
    /// cleanly: stops accepting, tells clients, flushes, snapshots every room.
    /// - Throws: `ServerFailure` when the server had to stop because moves it
    ///   had applied could not be made durable: it then sends nothing more (no
    ///   reply may claim those moves were kept) and closes every connection.
    public func run() throws {
        // Rooms still loading are named too: a server whose rooms all load in
        // the background would otherwise list none.
        let loading = rooms.loading.isEmpty ? "" : " (and \(rooms.loading.count) loading)"
        logger.info("listening on \(config.bind):\(port) with \(rooms.count) room(s)\(loading): \(rooms.namesWithLoading.joined(separator: ", "))")
        do {
            while ending == nil {
                try turn()
            }
        } catch {
            // The loop itself failed (its readiness queue): nothing more is
            // served, and the data is let go once no worker writes into it.
            abortEverything()
            throw error
        }
        if let failure = ending?.failure {
            abortEverything()
            throw failure
        }
        try shutdown()
    }

    /// One loop turn: wait for readiness, handle input, expire leases, then
    /// make this turn's moves durable and only then send replies and events.
    func turn() throws {
        let timeout: Int32 = thisTurn.hasLeftovers ? 0 : nextTimeout()
        let ready = try queue.wait(timeoutMillis: timeout)
        clock.tick(at: MonotonicClock.nowMilliseconds)
        thisTurn.begin()
        // Leases run out before this turn's requests are read: a KEEP or DRAG
        // that comes after its hold's lease must not renew it (NOT_HOLDER), as
        // it would if the expiry waited for the end of the turn.
        keeper.expireLeases(now: clock.now)
        // Lines held back by the last turn's budget go first, before anything
        // newly readable: a sustained flood of new requests cannot starve them.
        for conn in thisTurn.takeBacklog() where conn.state.isOpen { handleLines(conn) }
        for event in ready {
            switch event.token {
            case Self.listenerToken: acceptConnections()
            case Self.wakerToken:
                _ = try? waker.drain()
                ending = ending ?? .shutdown
            case Self.pictureToken:
                collectPictures()
            case Self.uploadToken:
                collectUploads()
            case Self.adoptToken:
                adoptConnections()
            case Self.loaderToken:
                collectLoadedRooms()
            case Self.replayToken:
                collectReplays()
            case Self.creatorToken:
                collectCreatedRooms()
            case Self.encoderToken:
                collectEncodedPictures()
            case Self.signalToken:
                while let signal = try? signals?.next() {
                    logger.info("received \(signal), shutting down")
                    ending = ending ?? .shutdown
                }
            default:
                guard let conn = connections[event.token] else { continue }
                if event.readable || event.hangup || event.error { readInput(conn) }
                if event.writable && conn.state.isOpen { flush(conn) }
            }
        }
        listener.resumeIfDue(now: clock.now)
        resumePaused()
        keeper.settleAway(now: clock.now)
        enforceSlowReaderGrace()
        releaseDueDrags()
        lifecycle.endDraining(now: clock.now)
        if clock.takeSweep() {
            router.door.forgetRecoveredPasswords(now: clock.now)
            lifecycle.sweepIdle(now: clock.now, timeoutSeconds: config.idleTimeoutSeconds)
            sweepWeb()
            expireUploads()
            keeper.keepBounded(now: clock.now)
            keeper.capRejoinMemory(maxBytes: config.rejoinMemoryBytes)
        }
        finishTurn()
    }

    /// Connections whose wait is over: the deferred request first (which
    /// may pause again), then the lines read meanwhile.
    func resumePaused() {
        guard !connections.paused.isEmpty else { return }
        for conn in Array(connections.paused.values) {
            guard case .paused(let until, _) = conn.state, clock.now >= until else { continue }
            resumeDeferred(conn)
        }
    }

    /// paused → active: the deferred request first (which may pause again),
    /// then the lines read meanwhile.
    func resumeDeferred(_ conn: Connection) {
        guard case .paused(_, let request) = conn.state else { return }
        lifecycle.resume(conn)
        guard conn.state.isActive else { return }
        if let request { handle(request, from: conn) }
        handleLines(conn)
    }

    /// Rooms the loader finished: hosted (or found damaged), and whoever
    /// waited for one answered now. Once the last is in, the heap's freed
    /// pages go back (reading every room's files left it as large as their
    /// sum: issue 31, twice the memory after a restart).
    func collectLoadedRooms() {
        for loaded in arrivals.loader.collect() {
            if let room = keeper.adopt(loaded, pictures: &router.pictures) { players.continueAfter(room.largestPlayerID) }
            for conn in arrivals.arrived(loaded.name) where conn.state.isOpen { resumeDeferred(conn) }
        }
        if rooms.loading.isEmpty, let (millis, waiting) = arrivals.finish(now: clock.now) {
            logger.info("restored \(arrivals.total) room(s) in \(millis) ms")
            HeapTrim.releaseFreeMemory()
            for conn in waiting where conn.state.isOpen { resumeDeferred(conn) }
        }
    }

    /// Milliseconds until the next timed thing: a lease expiry, a clock mark,
    /// a slow reader's grace running out, a paced member's drags, a paused connection's turn, a
    /// lingering connection's deadline, a dropped player's stay ending, or the
    /// next idle sweep.
    func nextTimeout() -> Int32 {
        var next = clock.nextSweep
        if let until = listener.pausedUntil { next = min(next, until) }
        next = min(next, keeper.nextDue(now: clock.now))
        for conn in connections.overSoft.values {
            if let since = conn.overSoftSince { next = min(next, slowReaderRule.graceEnds(since: since)) }
        }
        for conn in connections.paused.values {
            if let until = conn.state.pausedUntil { next = min(next, until) }
        }
        for conn in connections.draining.values {
            if let until = conn.state.drainingUntil { next = min(next, until) }
        }
        for conn in connections.paced.values {
            if let due = conn.dragsDue { next = min(next, due) }
        }
        if let end = keeper.nextAwayEnd { next = min(next, end) }
        return Int32(clamping: max(0, min(1000, next - clock.now)))
    }

    /// Hands broadcasts to members, makes the turn's journal records durable
    /// (policy `batch`), and only then flushes every connection with queued bytes.
    func finishTurn() {
        for room in rooms.values { room.endTurn() }
        startPacedHolds()
        keeper.markClocks(now: clock.now)
        // New players' tokens and ids first (one sync for the turn's HELLOs),
        // then the rooms' journals: both before any reply leaves.
        do {
            try players.commit()
        } catch {
            ending = .failure(ServerFailure(message: "players file sync failed: \(error); stopping without handing out this turn's player tokens"))
            return
        }
        if let failure = keeper.commitTurn(now: clock.now) {
            ending = .failure(failure)
            return
        }
        let pending = flushList.pending
        flushList.pending.removeAll(keepingCapacity: true)
        for conn in pending {
            conn.isQueuedForFlush = false
            conn.endTurn()
            if conn.state.isOpen { flush(conn) }
        }
        for conn in thisTurn.takeClosing() { lifecycle.finishClosing(conn, now: clock.now, serverStopping: ending != nil) }
    }

    /// Closes every connection at once, sending nothing that is still queued.
    func abortEverything() {
        arrivals.loader.stop()
        stopTelnet()
        listener.close()
        for conn in Array(connections.values) { lifecycle.close(conn, reason: "server stopped", abort: true) }
        // A room or an upload being written finishes before the data is let go (unhosted, unanswered).
        roomCreator.waitUntilIdle()
        router.uploads.waitUntilIdle()
        store.close()
        dataLock.release()
    }
}

/// Why a running server stopped on its own: it could no longer keep moves durable.
public struct ServerFailure: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
