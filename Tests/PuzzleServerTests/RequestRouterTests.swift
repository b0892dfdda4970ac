import Foundation
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleServer
import PuzzleTestSupport
import Testing

/// The request router without a socket or a loop: requests in, the session
/// changed and the effects the loop is to carry out, in order. One test a rule.
@Suite struct RequestRouterTests {
    /// A router over a fresh data directory, with room `den` (2x3) and the
    /// password room `vault`; tokens come from a counter.
    final class Setting: LoopFacts {
        let router: RequestRouter
        var connectionCount = 3
        var uptimeSeconds: Int64 = 42
        var receiving = 0
        func uploadsReceiving(besides session: PlayerSession) -> Int { receiving }

        init(config: (inout ServerConfig) -> Void = { _ in }) throws {
            let directory = TestServer.temporaryDirectory()
            var c = ServerConfig(dataDirectory: directory, fsync: .never,
                                 rooms: [RoomSpec(name: "den", kind: .jigsaw, rows: 2, cols: 3),
                                         RoomSpec(name: "vault", kind: .jigsaw, rows: 2, cols: 2, password: "sesame")])
            config(&c)
            let logger = Logger(level: .error)
            let store = try RoomStore(directory: directory, fsync: .never, snapshotEvery: 1000)
            let rooms = RoomDirectory()
            let keeper = RoomKeeper(rooms: rooms, store: store, config: c, seed: 7, logger: logger)
            var pictures = try PictureLibrary(files: [:])
            try keeper.restore(configured: c.rooms, pictures: &pictures, now: 0)
            let uploads = try PictureUploads(store: try UploadStore(directory: directory, sync: false), config: c, logger: logger)
            var minted = 0
            router = RequestRouter(config: c, rooms: rooms, keeper: keeper, store: store,
                                   registry: try PlayerRegistry(directory: directory, sync: false), uploads: uploads,
                                   pictures: pictures, stats: ServerStats(), logger: logger,
                                   makeToken: { minted += 1; return String(repeating: "0", count: 31) + "\(minted)" })
            router.loop = self
        }

        func session(host: String = "10.0.0.1") -> PlayerSession {
            router.newSession(peer: "\(host):5000", host: host, now: 0)
        }

        /// A version 2 session greeted as `name`.
        func greeted(_ name: String, version: Int = 2, host: String = "10.0.0.1") -> PlayerSession {
            let s = session(host: host)
            _ = router.route(.hello(version: version, name: name), for: s, now: 0)
            return s
        }

        func route(_ request: Request, _ session: PlayerSession, at now: Int64 = 0) -> [SessionEffect] {
            router.route(request, for: session, now: now)
        }

        func room(_ name: String) -> HostedRoom { router.rooms[name]! }
    }

    /// The replies among the effects.
    static func replies(_ effects: [SessionEffect]) -> [Reply] {
        effects.compactMap { if case .reply(let r) = $0 { r } else { nil } }
    }

    static func errorCode(_ effects: [SessionEffect]) -> ErrorCode? {
        replies(effects).last.flatMap { if case .error(let e) = $0 { e.code } else { nil } }
    }

    @Test func requestsBeforeHelloAreRefusedButPingAndRoomsAreAnswered() throws {
        let t = try Setting()
        let s = t.session()
        #expect(Self.errorCode(t.route(.join(room: "den", password: nil), s)) == .noHello)
        #expect(t.route(.ping("x"), s) == [.reply(.pong(token: "x"))])
        let rooms = t.route(.rooms, s)
        #expect(rooms == [.record(.room(t.room("den").listing)), .record(.room(t.room("vault").listing)), .reply(.rooms(count: 2))])
        #expect(s.player == nil)
    }

    @Test func helloTwoMintsATokenAndChargesTheTurn() throws {
        let t = try Setting()
        let s = t.session()
        let effects = t.route(.hello(version: 2, name: "ann"), s)
        #expect(effects == [.chargeHello, .reply(.hello(version: 2, player: PlayerID(1), name: "ann", token: String(repeating: "0", count: 31) + "1"))])
        #expect(s.player == PlayerID(1) && s.name == "ann" && s.version == 2)
        #expect(Self.errorCode(t.route(.hello(version: 2, name: "ann"), s)) == .alreadyHello)
    }

    @Test func helloOneGetsNoTokenAndANewPlayerEachTime() throws {
        let t = try Setting()
        let a = t.greeted("ann", version: 1), b = t.greeted("ann", version: 1)
        #expect(a.player == PlayerID(1) && b.player == PlayerID(2))
        #expect(Self.errorCode(t.route(.hello(version: 9, name: "x"), t.session())) == .badVersion)
    }

    @Test func aKnownTokenBringsThePlayerBackAndSupersedesItsOtherConnection() throws {
        let t = try Setting()
        _ = t.greeted("ann")
        let token = String(repeating: "0", count: 31) + "1"
        let back = t.session()
        let effects = t.route(.hello(version: 2, name: "whoever", token: token), back)
        #expect(effects == [.chargeHello, .supersede(PlayerID(1)), .reply(.hello(version: 2, player: PlayerID(1), name: "ann", token: token))])
        #expect(back.player == PlayerID(1) && back.name == "ann")
        #expect(Self.errorCode(t.route(.hello(version: 2, name: "x", token: "feed"), t.session())) == .badToken)
    }

    @Test func joinEntersTheRoomBeforeItsSnapshotAndAnswersLast() throws {
        let t = try Setting()
        let s = t.greeted("ann")
        let den = t.room("den")
        let effects = t.route(.join(room: "den", password: nil), s)
        // The join's own event is in the broadcast before the member's mark: its snapshot has it.
        guard case .enter(let room, let mark) = effects.first else { Issue.record("no enter first: \(effects)"); return }
        #expect(room === den && mark == den.chunk.count && mark > 0)
        guard case .chargeRoom(let charged) = effects[1], case .lines(let snapshot) = effects[2] else { Issue.record("\(effects)"); return }
        #expect(charged == snapshot.count && String(decoding: snapshot, as: UTF8.self).hasPrefix("S room den"))
        #expect(effects.last == .reply(.joined(room: "den", player: PlayerID(1), seq: den.state.seq, run: den.recent.run)))
        #expect(s.room === den && !s.watching && den.state.players[PlayerID(1)]?.name == "ann")
        #expect(Self.errorCode(t.route(.join(room: "den", password: nil), s)) == .alreadyJoined)
        #expect(Self.errorCode(t.route(.join(room: "nope", password: nil), s)) == .unknownRoom)
    }

    @Test func aSwitchLeavesTheOldRoomOnlyOnceTheNewOneTookThePlayer() throws {
        let t = try Setting()
        let s = t.greeted("ann")
        _ = t.route(.join(room: "den", password: nil), s)
        // A refused switch changes nothing.
        #expect(Self.errorCode(t.route(.join(room: "vault", password: "wrong"), s)) == .badPassword)
        #expect(s.room === t.room("den") && t.room("den").state.players[PlayerID(1)] != nil)
        let effects = t.route(.join(room: "vault", password: "sesame"), s)
        let kinds = effects.map { e -> String in
            switch e { case .leave: "leave"; case .enter: "enter"; case .lines: "lines"; case .reply: "reply"; default: "other" }
        }
        #expect(kinds.prefix(2) == ["leave", "enter"] && kinds.last == "reply")
        #expect(t.room("den").state.players[PlayerID(1)] == nil && s.room === t.room("vault"))
    }

    @Test func aWatcherIsListedInItsOwnSnapshotAndCannotPlay() throws {
        let t = try Setting()
        let s = t.greeted("eve")
        let effects = t.route(.watch(room: "den", password: nil), s)
        let snapshot = effects.compactMap { if case .lines(let b) = $0 { String(decoding: b, as: UTF8.self) } else { nil } }.joined()
        #expect(snapshot.contains("S watcher 1 eve\n"))
        #expect(t.room("den").watchers.map(\.name) == ["eve"] && s.watching)
        #expect(Self.errorCode(t.route(.grab(0), s)) == .watching)
        let who = t.route(.who, s)
        #expect(who == [.record(.whoWatcher(id: PlayerID(1), name: "eve")), .reply(.who(count: 1))])
        _ = t.route(.leave, s)
        #expect(t.room("den").watchers.isEmpty && s.room == nil && !s.watching)
    }

    @Test func wrongPasswordsPastTheFreeOnesPauseTheRequest() throws {
        let t = try Setting { $0.passwordFreeAttempts = 1 }
        let s = t.greeted("mal")
        #expect(Self.errorCode(t.route(.join(room: "vault", password: "a"), s, at: 0)) == .badPassword)
        let again = Request.join(room: "vault", password: "b")
        let effects = t.route(again, s, at: 10)
        guard case .pause(let millis, let deferred) = effects.first else { Issue.record("\(effects)"); return }
        #expect(millis > 0 && deferred == again && effects.count == 1)
    }

    @Test func chatPastItsBurstPausesAndDragsPastTheirRateAreRefused() throws {
        let t = try Setting { $0.chatBurst = 1; $0.dragRateLimit = 1 }
        let s = t.greeted("ann")
        _ = t.route(.join(room: "den", password: nil), s)
        #expect(t.route(.say("hi"), s).last == .reply(.said))
        guard case .pause(_, .say(let text)) = t.route(.say("again"), s).first else { Issue.record("chat not paused"); return }
        #expect(text == "again")
        #expect(Self.replies(t.route(.grab(0), s)) == [.grabbed(piece: 0)])
        #expect(Self.replies(t.route(.drag(0, Point(x: 10, y: 10)), s)).first.map { if case .dragged = $0 { true } else { false } } == true)
        #expect(Self.errorCode(t.route(.drag(0, Point(x: 11, y: 10)), s)) == .rateLimited)
    }

    @Test func aMoveIsBroadcastToTheRoomAndAnsweredToTheMover() throws {
        let t = try Setting()
        let s = t.greeted("ann")
        _ = t.route(.join(room: "den", password: nil), s)
        let before = t.room("den").chunk.count
        #expect(t.route(.grab(2), s) == [.reply(.grabbed(piece: 2))])
        #expect(String(decoding: t.room("den").chunk.bytes(before, t.room("den").chunk.count), as: UTF8.self).contains("grabbed 2"))
        #expect(Self.errorCode(t.route(.drop(nil), t.greeted("bob"))) == .notJoined)
        #expect(Self.errorCode(t.route(.release(nil), s)) == nil)
        #expect(Self.errorCode(t.route(.release(nil), s)) == .badArgs, "no piece held: GRAB one first")
    }

    @Test func quitIsAGoodbyeAndStatsReadTheLoopsFacts() throws {
        let t = try Setting()
        let s = t.greeted("ann")
        #expect(t.route(.quit, s) == [.goodbye(.quit)])
        guard case .reply(.stats(let fields)) = t.route(.stats, s).first else { Issue.record("no stats"); return }
        #expect(fields.contains(ReplyField("connections", "3")) && fields.contains(ReplyField("uptime_s", "42")))
    }

    @Test func aDroppedVersionTwoPlayerStaysAwayAndAVersionOnePlayerLeaves() throws {
        let t = try Setting()
        let two = t.greeted("ann"), one = t.greeted("bob", version: 1)
        _ = t.route(.join(room: "den", password: nil), two)
        _ = t.route(.join(room: "den", password: nil), one)
        let den = t.room("den")
        #expect(t.router.end(two, leaves: false, serverStopping: false, now: 5) == [.leave(den, mark: den.chunk.count)])
        #expect(den.state.players[PlayerID(1)] != nil && t.router.keeper.awayPlayer(PlayerID(1)) != nil)
        _ = t.router.end(one, leaves: false, serverStopping: false, now: 5)
        #expect(den.state.players[PlayerID(2)] == nil && one.room == nil)
    }

    @Test func unknownPuzzlesAreRefusedByHistoryAndReplay() throws {
        let t = try Setting()
        let s = t.greeted("ann")
        _ = t.route(.join(room: "den", password: nil), s)
        #expect(t.route(.history(nil), s) == [.reply(.history(count: 0))])
        #expect(Self.errorCode(t.route(.history(3), s)) == .unknownPuzzle)
        #expect(Self.errorCode(t.route(.replay(3, from: 0), s)) == .unknownPuzzle)
    }

    @Test func layoutIsChargedToTheTurnsBudget() throws {
        let t = try Setting()
        let s = t.greeted("ann")
        _ = t.route(.join(room: "den", password: nil), s)
        let effects = t.route(.layout(nil), s)
        guard case .chargeRoom(let bytes) = effects.first, case .lines(let lines) = effects[1] else { Issue.record("\(effects)"); return }
        #expect(bytes == lines.count && effects.last == .reply(.layout(pieces: 6, puzzle: 0, seed: t.room("den").state.settings.seed)))
    }

    @Test func aPictureIsEncodedOffTheLoopOnceAndThenSentFromTheRoom() throws {
        let t = try Setting()
        let s = t.greeted("ann")
        _ = t.route(.join(room: "den", password: nil), s)
        let first = t.route(.picture(.png), s)
        guard first.count == 1, case .encodePicture(let encoding, let deferred) = first[0] else { Issue.record("\(first)"); return }
        #expect(deferred == .picture(.png) && encoding.room == "den")
        // The loop keeps what the worker made; the PICTURE asked again is answered from it.
        t.room("den").keep(encoding.run().wire, format: .png)
        let again = t.route(.picture(.png), s)
        guard case .chargeRoom(let bytes) = again.first, case .lines(let lines) = again[1],
              case .reply(.picture(_, _, let hash)) = again.last else { Issue.record("\(again)"); return }
        #expect(bytes == lines.count && hash == t.room("den").pictureHash && String(decoding: lines.prefix(6), as: UTF8.self) == "S png ")
        // The other format is its own encoding.
        guard case .encodePicture(_, .picture(.jpeg))? = t.route(.picture(.jpeg), s).first else { Issue.record("jpeg"); return }
    }

    @Test func anUploadBeginsOnlyWhereUploadsAreOn() throws {
        let t = try Setting { $0.uploads = false }
        let s = t.greeted("ann")
        #expect(Self.errorCode(t.route(.upload(name: "cat", bytes: 100), s)) == .uploadsOff)
        #expect(s.upload == nil)
        #expect(Self.errorCode(t.route(.data(Array("AAAA".utf8)), s)) == .noUpload)
    }

    @Test func aCreatedRoomIsChargedToTheTurnByItsSize() throws {
        let t = try Setting()
        let s = t.greeted("ann")
        let effects = t.route(.create(RoomSpec(name: "big", kind: .jigsaw, rows: 10, cols: 10)), s)
        guard effects.count == 2, effects[0] == .chargeCreate(pieces: 100), case .createRoom(let creation) = effects[1] else {
            Issue.record("\(effects)")
            return
        }
        // Its name is taken while it is made off the loop.
        #expect(Self.errorCode(t.route(.create(RoomSpec(name: "big", kind: .jigsaw, rows: 10, cols: 10)), s)) == .roomExists)
        #expect(Self.errorCode(t.route(.join(room: "big", password: nil), s)) == .unknownRoom)
        #expect(t.router.finishCreate(creation.run(), label: s.label, now: 0) == [.reply(.created(room: "big"))])
        #expect(t.room("big").state.pieceCount == 100)
        #expect(Self.errorCode(t.route(.create(RoomSpec(name: "big", kind: .jigsaw, rows: 10, cols: 10)), s)) == .roomExists)
    }
}
