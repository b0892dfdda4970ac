import PuzzleCore
import PuzzleProtocol

/// One thing the router decided for a session, for the loop to carry out
/// (`PuzzleServer.carryOut`). A request's effects come in the order they are
/// to happen: the loop performs them one after another, so that, say, a
/// joiner becomes a member of its room before its snapshot is queued and
/// after the events the join itself broadcast.
enum SessionEffect {
    /// A reply (`OK`, `ERR`, `PONG`) for this session.
    case reply(Reply)
    /// A state line (`S help`, `S room`, `S who`, ...) for this session.
    case record(StateRecord)
    /// Whole lines for this session only (a snapshot, a picture, a replay).
    case lines([UInt8])
    /// The connection becomes a member of the room: its broadcasts from byte
    /// `mark` of this turn's on (what was broadcast before is in what the
    /// session is sent, or was not for it).
    case enter(HostedRoom, mark: Int)
    /// The connection stops being a member of the room once it has the
    /// room's broadcast of this turn up to byte `mark` (what came after, such
    /// as its own `left`, is not for it).
    case leave(HostedRoom, mark: Int)
    /// The session's requests, starting with `deferring`, wait unread for
    /// `millis` (chat pacing, a password retry).
    case pause(millis: Int64, deferring: Request)
    /// The session's requests, starting with `deferring`, wait unread until
    /// the room `room`, still loading after a restart, is loaded (or found
    /// damaged), or with `room` nil until every room is: then `deferring` is
    /// answered as if it came then.
    case waitForRoom(String?, deferring: Request)
    /// The session's requests, starting with `deferring` (a REPLAY), wait
    /// unread while a kept replay's file is read off the loop; then
    /// `deferring` is answered again (`RequestRouter.finishReplayRead`).
    case readReplay(ReplayRead, deferring: Request)
    /// The session's requests, starting with `deferring` (a PICTURE), wait
    /// unread while the room's picture is encoded off the loop; then
    /// `deferring` is answered again (`PuzzleServer.collectEncodedPictures`).
    case encodePicture(PictureEncoding, deferring: Request)
    /// The upload's last byte came: nothing more is answered until its
    /// job is done off the loop.
    case holdForUpload
    /// A CREATE's room is to be laid out and written off the loop: nothing
    /// more is answered until it is hosted (`RequestRouter.finishCreate`).
    case createRoom(RoomCreation)
    /// The connection's drags come at most every `millis` ms from now on,
    /// the newest per piece (`PACE`; 0: each as it comes).
    case paceDrags(millis: Int)
    /// The room's events are sent to the connection from now on, or (false)
    /// only its talk: chat and watchers coming and going (`EVENTS`).
    case sendEvents(Bool)
    /// The connection says goodbye (QUIT).
    case goodbye(Goodbye)
    /// Any other connection speaking for this player is said goodbye to
    /// (`BYE RESUMED`): the person came back on this one.
    case supersede(PlayerID)
    /// Bytes of a room (a snapshot, its picture, its layout) were queued:
    /// charged to the loop turn's budget (`LoopTurn.chargeRoom`).
    case chargeRoom(Int)
    /// A HELLO was answered (`LoopTurn.chargeHello`).
    case chargeHello
    /// A room of `pieces` pieces was made (`LoopTurn.chargeCreate`).
    case chargeCreate(pieces: Int)
}

extension SessionEffect: Equatable {
    static func == (a: SessionEffect, b: SessionEffect) -> Bool {
        switch (a, b) {
        case (.reply(let x), .reply(let y)): x == y
        case (.record(let x), .record(let y)): x == y
        case (.lines(let x), .lines(let y)): x == y
        case (.enter(let x, let m), .enter(let y, let n)), (.leave(let x, let m), .leave(let y, let n)): x === y && m == n
        case (.pause(let m, let r), .pause(let n, let s)): m == n && r == s
        case (.waitForRoom(let m, let r), .waitForRoom(let n, let s)): m == n && r == s
        case (.readReplay(let m, let r), .readReplay(let n, let s)): m.path == n.path && r == s
        case (.holdForUpload, .holdForUpload), (.chargeHello, .chargeHello): true
        case (.createRoom(let x), .createRoom(let y)): x.name == y.name && x.settings == y.settings
        case (.encodePicture(let x, let r), .encodePicture(let y, let s)): x.room == y.room && x.format == y.format && x.hash == y.hash && r == s
        case (.goodbye(let x), .goodbye(let y)): x == y
        case (.paceDrags(let x), .paceDrags(let y)): x == y
        case (.sendEvents(let x), .sendEvents(let y)): x == y
        case (.supersede(let x), .supersede(let y)): x == y
        case (.chargeRoom(let x), .chargeRoom(let y)): x == y
        case (.chargeCreate(let x), .chargeCreate(let y)): x == y
        default: false
        }
    }
}
