import PuzzleCore
import PuzzleSystem

/// The resume token of one player name on one server, kept on disk so that a
/// client started again (a closed terminal, a crash, a reboot) comes back as
/// the same player: same id, colour, moves and hint, and its holds within the
/// server's stay.
///
/// One file per server and name under the XDG state directory
/// (`$XDG_STATE_HOME/puzzle-room/tokens/HOST-PORT-NAME`, by default
/// `~/.local/state/puzzle-room/...`), mode 0600 in a 0700 directory: the token
/// is a secret. While a client runs it holds the file's lock, so a second
/// client started with the same name on the same server does not take the
/// first one's place (the server would close the first): it comes as a new
/// player (refused with NAME_TAKEN where the name is in play) and keeps nothing.
///
/// The file holds the token on its first line and, on its second, the room
/// the player last played in, so that the same command started again goes
/// back to that room (`ClientSession.lastRoom`) rather than the room list.
public final class ResumeTokenFile {
    /// The file's path.
    public let path: String
    private let descriptor: FileDescriptor
    /// The token the file holds now (nil: none).
    public private(set) var token: String?
    /// The room the player last played in, as the file holds it (nil: none,
    /// or no token to come back with).
    public private(set) var room: String?

    /// The directory tokens are kept in, from the environment: nil when
    /// neither `XDG_STATE_HOME` nor `HOME` is an absolute path.
    public static func defaultDirectory(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/puzzle-room" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/puzzle-room" }
        return nil
    }

    /// The file name for a server and a player name (host names and IP
    /// literals have no `/`; one is replaced all the same).
    static func fileName(host: String, port: UInt16, name: String) -> String {
        String(host.map { $0 == "/" ? "_" : $0 }) + "-\(port)-" + name
    }

    /// Opens (creating) the token file for `name` on `host`:`port` under
    /// `directory` and takes its lock.
    ///
    /// - Returns: nil when another running client holds the lock.
    /// - Throws: the error of the directory or file when it cannot be used.
    public init?(directory: String, host: String, port: UInt16, name: String) throws(Errno) {
        let tokens = directory + "/tokens"
        _ = try Directory.createAll(tokens, permissions: 0o700)
        let path = tokens + "/" + Self.fileName(host: host, port: port, name: name)
        // The descriptor is closed here on every way out before it is stored:
        // once every property is set, a failing init runs deinit, which closes
        // it too, and a second close may close a number reused meanwhile.
        let descriptor = try FileDescriptor.open(path, FileOpenOptions(access: .readWrite, create: true), permissions: 0o600)
        let text: String
        do {
            guard try descriptor.tryLockExclusive() else {
                try? descriptor.close()
                return nil
            }
            text = String(decoding: try descriptor.readToEnd().prefix(256), as: UTF8.self)
        } catch {
            try? descriptor.close()
            throw error
        }
        self.path = path
        self.descriptor = descriptor
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        token = Self.validToken(words.first)
        room = token != nil && words.count > 1 && NameRule.isValid(words[1]) ? words[1] : nil
    }

    /// The token file for a run of `puzzle play`, or nil when tokens are not
    /// kept (no state directory), the file cannot be used (told through
    /// `report`, and the run goes on without it), or another client with this
    /// name is playing on this server (told too).
    public static func open(for options: PlayOptions, report: (String) -> Void) -> ResumeTokenFile? {
        guard let directory = options.stateDirectory else { return nil }
        do {
            guard let file = try ResumeTokenFile(directory: directory, host: options.host, port: options.port, name: options.name) else {
                report("another client plays as \(options.name) on this server: this one joins as a new player")
                return nil
            }
            if options.newPlayer { try file.keep(nil) }
            return file
        } catch {
            report("cannot keep the resume token in \(directory): \(error); a restart will join as a new player")
            return nil
        }
    }

    deinit {
        try? descriptor.close()
    }

    /// A token as the server hands them out (32 lowercase hex digits), else nil:
    /// a damaged file is as good as none.
    static func validToken(_ text: String?) -> String? {
        guard let text, text.utf8.count == 32, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return text
    }

    /// Keeps `newToken` (nil: forgets the one kept, and the room) and the
    /// room the player is in (`newRoom`; nil: keeps the one kept); nothing is
    /// written when the file holds them already. A failed write is thrown
    /// once, not tried again for the same token and room.
    public func keep(_ newToken: String?, room newRoom: String? = nil) throws(Errno) {
        let keptRoom = newToken == nil ? nil : newRoom.flatMap { NameRule.isValid($0) ? $0 : nil } ?? room
        guard newToken != token || keptRoom != room else { return }
        token = newToken
        room = keptRoom
        try descriptor.truncate(to: 0)
        if let newToken {
            _ = try descriptor.seekToStart()
            try descriptor.writeAll(Array((newToken + "\n" + (keptRoom.map { $0 + "\n" } ?? "")).utf8))
        }
    }

    /// Keeps `newToken` and `newRoom`; a failure is said through `report` in a player's words.
    func keep(_ newToken: String?, room newRoom: String?, report: (String) -> Void) {
        do { try keep(newToken, room: newRoom) } catch { report("cannot keep the resume token in \(path): \(error)") }
    }
}
