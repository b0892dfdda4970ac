import PuzzleCore
import PuzzleProtocol

/// A player's protocol session, apart from its socket: who the player is
/// (set by HELLO), the protocol version, the room it is in and whether it
/// watches or plays there, an upload under way, its pacing buckets, and a
/// request held for the next turn.
///
/// The connection owns one (`Connection.session`); the request router
/// (`RequestRouter`) reads and changes it, so every rule about a session is
/// decided, and tested, without a socket. A class, not a value: a room lists
/// its members' sessions (who watches) while the router works on one of them.
///
/// Not thread-safe: owned by the server's event loop.
final class PlayerSession {
    /// "host:port", for log lines.
    let peer: String
    /// The peer's IP address alone: what per-address limits count by.
    let host: String
    /// Set by HELLO (cleared when another connection takes the player over).
    var player: PlayerID?
    /// The protocol version HELLO chose (1 until then).
    var version = 1
    var name: String?
    /// The room this session has joined or watches, if any.
    var room: HostedRoom?
    /// In `room` as a watcher (version 2's WATCH), not as a player.
    var watching = false
    /// An upload between its go-ahead and its last byte (`UPLOAD`, `DATA`).
    var upload: UploadInProgress?
    /// A request that sends a room (JOIN, REJOIN, WATCH, SYNC, PICTURE,
    /// LAYOUT) read after the turn's budget for those was spent: handled
    /// first next turn, before the lines after it (see `LoopTurn.mustWait`).
    var heldRequest: Request?
    /// Paces drags and keeps (`drag_rate_limit`).
    var dragBucket: TokenBucket
    /// Paces chat lines (`chat_burst`, `chat_rate_limit`).
    var chatBucket: TokenBucket

    init(peer: String, host: String, dragBucket: TokenBucket, chatBucket: TokenBucket) {
        self.peer = peer
        self.host = host
        self.dragBucket = dragBucket
        self.chatBucket = chatBucket
    }

    /// "name#id@host:port" once greeted, else the peer: for log lines.
    var label: String { name.map { "\($0)#\(player?.rawValue ?? 0)@\(peer)" } ?? peer }
    /// The id and name a listing of watchers shows (0 and `-` before HELLO,
    /// which a member always said: the listing's fields are never empty).
    var listedID: PlayerID { player ?? PlayerID(0) }
    var listedName: String { name ?? "-" }
    /// Whether this session speaks version 2 (tokens, REJOIN, WATCH, compact snapshots).
    var speaksVersionTwo: Bool { version >= 2 }

    /// A room's run, for a version 2 client's JOIN and SYNC replies.
    func run(of room: HostedRoom) -> String? {
        speaksVersionTwo ? room.recent.run : nil
    }

    /// HELLO accepted: the player this session speaks for from now on.
    func greet(_ player: PlayerID, name: String, version: Int) {
        self.player = player
        self.name = name
        self.version = version
    }

    /// The session is in `room` now, playing or watching.
    func enter(_ room: HostedRoom, watching: Bool) {
        self.room = room
        self.watching = watching
    }

    /// The session is in no room now.
    func leaveRoom() {
        room = nil
        watching = false
    }
}
