import Foundation
import PuzzleCore
import PuzzleProtocol
@testable import PuzzleServer
import PuzzleTestSupport
import Testing

/// The rooms' lives without a server or sockets: opening and restoring
/// them, keeping them bounded, and the players away after a dropped link.
@Suite struct RoomKeeperTests {
    struct Setting {
        let directory: String
        let config: ServerConfig
        var pictures = try! PictureLibrary(files: [:])

        init(leaseMillis: Int = 30_000, forgetAbsentSeconds: Int = 0, idleRoomSeconds: Int = 0, rooms: [RoomSpec] = []) {
            directory = TestServer.temporaryDirectory()
            config = ServerConfig(forgetAbsentSeconds: forgetAbsentSeconds, idleRoomSeconds: idleRoomSeconds, leaseMillis: leaseMillis,
                                  dataDirectory: directory, fsync: .never, rooms: rooms)
        }

        /// A keeper over the setting's directory (a second one: a restart).
        func keeper() throws -> RoomKeeper {
            let store = try RoomStore(directory: directory, fsync: .never, snapshotEvery: 1000)
            return RoomKeeper(rooms: RoomDirectory(), store: store, config: config, seed: 7, logger: Logger(level: .error))
        }
    }

    static let den = RoomSpec(name: "den", kind: .jigsaw, rows: 2, cols: 3)

    /// A keeper with room `den` open and ann (player 1) in it.
    static func annInDen(_ setting: inout Setting) throws -> (RoomKeeper, HostedRoom) {
        let keeper = try setting.keeper()
        let den = try keeper.open(Self.den, pictures: &setting.pictures, now: 0).get()
        keeper.performRegardless(.join(name: "ann"), in: den, by: PlayerID(1), now: 0)
        return (keeper, den)
    }

    @Test func aRoomOpensOnceWithAGoodNameAndAPictureTheServerHas() throws {
        var setting = Setting()
        let keeper = try setting.keeper()
        #expect(throws: Never.self) { try keeper.open(Self.den, pictures: &setting.pictures, now: 0).get() }
        #expect(keeper.open(Self.den, pictures: &setting.pictures, now: 0).failure == .roomExists("den"))
        #expect(keeper.open(RoomSpec(name: "a b", kind: .jigsaw, rows: 2, cols: 2), pictures: &setting.pictures, now: 0).failure == .badName)
        let unknown = keeper.open(RoomSpec(name: "cave", kind: .jigsaw, rows: 2, cols: 2, picture: "nope"), pictures: &setting.pictures, now: 0)
        #expect(unknown.failure?.code == .badPicture)
        #expect(keeper.rooms.names == ["den"])
    }

    @Test func aRestartRestoresOpenedRoomsAndOpensConfiguredOnesMissing() throws {
        var setting = Setting(rooms: [Self.den, RoomSpec(name: "lobby", kind: .jigsaw, rows: 2, cols: 2)])
        let first = try setting.keeper()
        let den = try first.open(Self.den, pictures: &setting.pictures, now: 0).get()
        first.performRegardless(.join(name: "ann"), in: den, by: PlayerID(1), now: 0)
        first.store.close()

        let second = try setting.keeper()
        let toLoad = try second.restore(configured: setting.config.rooms, pictures: &setting.pictures, now: 0)
        // The lobby (configured, not on disk) is opened at once; den is to load, its name taken meanwhile.
        #expect(toLoad == ["den"] && second.rooms.names == ["lobby"] && second.rooms.isLoading("den"))
        #expect(second.rooms.refusal(ofNew: "den") == .roomExists("den"))
        for name in toLoad { second.adopt(second.store.load(name, now: 0), pictures: &setting.pictures) }
        #expect(second.rooms.names == ["den", "lobby"] && second.rooms.loading.isEmpty)
        // Restored with every player gone, its seq kept.
        #expect(second.rooms["den"]?.state.seq == den.state.seq && second.rooms["den"]?.state.players.isEmpty == true)
        #expect(second.rooms["den"]?.state.spec == den.state.spec)
    }

    @Test func aPlayerAwayStaysForItsLeaseThenLeaves() throws {
        var setting = Setting(leaseMillis: 5000)
        let (keeper, den) = try Self.annInDen(&setting)
        keeper.keepAway(PlayerID(1), in: den, from: "10.0.0.1", now: 1000)
        #expect(keeper.nextAwayEnd == 6000 && keeper.awayPlayer(PlayerID(1))?.host == "10.0.0.1")
        keeper.settleAway(now: 5999)
        #expect(den.state.players[PlayerID(1)] != nil)
        keeper.settleAway(now: 6000)
        #expect(den.state.players[PlayerID(1)] == nil && keeper.nextAwayEnd == nil)
    }

    @Test func aLongLeaseKeepsAPlayerAwayNoLongerThanTheLongestStay() throws {
        var setting = Setting(leaseMillis: 3_600_000)
        let (keeper, den) = try Self.annInDen(&setting)
        keeper.keepAway(PlayerID(1), in: den, from: "h", now: 0)
        #expect(keeper.nextAwayEnd == AwayPlayers.longestAway)
    }

    @Test func comingBackTakesThePlaceAgainAndGoingElsewhereLeavesIt() throws {
        var setting = Setting()
        let (keeper, den) = try Self.annInDen(&setting)
        let cave = try keeper.open(RoomSpec(name: "cave", kind: .jigsaw, rows: 2, cols: 2), pictures: &setting.pictures, now: 0).get()
        keeper.keepAway(PlayerID(1), in: den, from: "h", now: 0)
        #expect(keeper.returnFromAway(PlayerID(1), to: den, now: 10))
        #expect(den.state.players[PlayerID(1)] != nil && keeper.awayPlayer(PlayerID(1)) == nil)

        keeper.keepAway(PlayerID(1), in: den, from: "h", now: 20)
        #expect(!keeper.returnFromAway(PlayerID(1), to: cave, now: 30))
        #expect(den.state.players[PlayerID(1)] == nil)
        // Not away (any more): nothing to end.
        #expect(keeper.endStay(of: PlayerID(1), now: 40) == nil)
    }

    @Test func endingAStayOrEveryStayLeavesTheRoom() throws {
        var setting = Setting()
        let keeper = try setting.keeper()
        let den = try keeper.open(Self.den, pictures: &setting.pictures, now: 0).get()
        for id in 1...2 { keeper.performRegardless(.join(name: "p\(id)"), in: den, by: PlayerID(id), now: 0) }
        for id in 1...2 { keeper.keepAway(PlayerID(id), in: den, from: "h", now: 0) }
        #expect(keeper.endStay(of: PlayerID(1), now: 1) === den)
        #expect(Set(den.state.players.keys) == [PlayerID(2)])
        keeper.endEveryStay(now: 2)
        #expect(den.state.players.isEmpty && keeper.nextAwayEnd == nil)
    }

    @Test func aRunningClockIsVouchedForAheadAndAFailedMarkIsTriedAgainASecondLater() throws {
        var setting = Setting()
        let (keeper, den) = try Self.annInDen(&setting)
        #expect(den.state.clockIsRunning)
        keeper.markClocks(now: 100)
        #expect(den.clockMarkDue == 100 + RoomKeeper.clockMarkLead / 2)
        keeper.markClocks(now: 100 + RoomKeeper.clockMarkLead / 2 - 1)
        #expect(den.clockMarkDue == 100 + RoomKeeper.clockMarkLead / 2)
        // The store no longer takes marks: noted once, tried again a second later.
        keeper.store.close()
        keeper.markClocks(now: 5000)
        #expect(den.clockMarkFailing && den.clockMarkDue == 6000)
    }

    @Test func absentPlayersAreForgottenAndEmptyCreatedRoomsClosedInTime() throws {
        var setting = Setting(forgetAbsentSeconds: 10, idleRoomSeconds: 20, rooms: [RoomSpec(name: "lobby", kind: .jigsaw, rows: 2, cols: 2)])
        let keeper = try setting.keeper()
        try keeper.restore(configured: setting.config.rooms, pictures: &setting.pictures, now: 0)
        let den = try keeper.open(Self.den, pictures: &setting.pictures, now: 0).get()
        keeper.performRegardless(.join(name: "ann"), in: den, by: PlayerID(1), now: 0)
        keeper.performRegardless(.leave, in: den, by: PlayerID(1), now: 0)
        #expect(den.state.absent[PlayerID(1)] != nil)
        keeper.keepBounded(now: 0)
        keeper.keepBounded(now: 10_000)
        #expect(den.state.absent.isEmpty)
        #expect(FileManager.default.fileExists(atPath: setting.directory + "/rooms/den"))
        keeper.keepBounded(now: 20_000)
        // The created room is closed and its files go; the configured one stays.
        #expect(keeper.rooms.names == ["lobby"])
        #expect(!FileManager.default.fileExists(atPath: setting.directory + "/rooms/den"))
    }
}

extension Result {
    /// The error of a failure (nil for a success).
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
