import Foundation
import PuzzleCore
import PuzzleSystem

/// `puzzle play`: joins a room and plays, full screen on a terminal, or line by
/// line (plain mode) for scripts and pipes.
public enum PlayCommand {
    /// The `--help` text; it documents the plain-mode output, which scripts rely on.
    public static let help = """
    usage: puzzle play [HOST[:PORT]] [--name NAME] [--room ROOM] [--password P] [--strict] [--plain]
                       [--new-player] [--watch]

    Joins ROOM on the server at HOST:PORT (default 127.0.0.1:7171) as NAME
    (default $USER, or "player"). Without --room: the server's only room, or
    (several rooms) the list to pick from with /join.

    The server's resume token for NAME is kept in
    $XDG_STATE_HOME/puzzle-room/tokens (default ~/.local/state/puzzle-room),
    mode 0600: run again with the same NAME, the client comes back as the
    same player (its id, colour, moves, and what it held, for a while).

      --name NAME      player name: \(NameRule.summary)
      --room ROOM      the room to join
      --password P     the room's password, if it has one
      --plain          plain mode even on a terminal
      --strict         plain mode: exit 1 if any command failed
      --new-player     join as a new player, not as the one this name last was
      --watch          watch the room live without playing (chat still works;
                       /join the room to play)
      -h, --help       this text

    Commands (one per line in plain mode; at the full-screen prompt with a
    leading /, where text without / is chat):
    \(ClientCommand.helpLines.map { "  " + $0 }.joined(separator: "\n"))

    Full screen (standard input and output are a terminal, no --plain):
      the board, the loose pieces on the table, the players and what they hold,
      everyone's drags and drop targets in their colour.
      Mouse: press on a piece to take it where you touched it, drag, release to
      drop; right click turns a piece (taking it if you hold none); the wheel
      zooms the table (over it) or scrolls the messages (over them); dragging
      the empty table pans. /mouse click
      switches to click to pick up, click to put down, for terminals where
      holding is awkward.
      Typing: a letter, digit or sign always goes to the command line, piece
      in hand or not. Keys, with a piece held and the command line empty:
      arrows move it a quarter cell (Shift+arrows a whole cell), Enter drops,
      Esc gives it back; Ctrl-R rotates. Holding nothing, Shift+arrows pan the
      table a quarter view. Tab grabs the next free piece. Ctrl-Up/Ctrl-Down
      zoom (or /zoom in|out|fit). Ctrl-N shows or hides piece numbers, Ctrl-T
      shows only chat, Ctrl-P opens or closes the box lid (rooms with lid=on).
      PgUp/PgDn scroll the messages, Home follows the held piece again.
      /help, /who, /rooms and /board open a window over the table; Esc closes
      it. Ctrl-C or /quit leaves.
      A hold is kept while you are there (the mouse button down on the piece,
      or a line being typed with it in hand); left alone it goes back when its
      lease ends.
      Piece N belongs in cell (N div cols, N mod cols), rows and columns from 0.
      A lost connection shows "reconnecting, attempt N" and comes back by itself.
      NO_COLOR or TERM=dumb: no colours.

    Plain mode (input or output not a terminal, or --plain):
      Reads one command a line; each runs after the previous one's reply. When
      the input ends it waits for the outstanding replies, then exits 0 (1 if the
      connection failed or was lost, or the room refused the join; with --strict
      also 1 if any command failed). One line per reply and event on stdout:
        joined ROOM as NAME (#ID): puzzle I KIND RxC, C/T placed, N players
        ok: REPLY                        e.g. ok: grabbed 3 / ok: dropped 3 cell 1 1
        error CODE: MESSAGE              e.g. error HELD: piece 3 is held by alice (#1)
        error: MESSAGE                   a command the client did not understand
          WHO/ROOMS line                 listing lines before ok: who N / ok: rooms N
        NAME (#ID) joined | NAME (#ID) left
        NAME grabbed piece P
        NAME dragged piece P to X,Y → cell R,C   (or → no target)
        NAME rotated piece P to D° → cell R,C    (D: 0, 90, 180, 270; or → no target)
        NAME placed piece P in cell R,C
        NAME put piece P on the table at X,Y
        NAME swapped piece P into cell R,C (piece Q to cell R2,C2)
        NAME released piece P | NAME's hold on piece P expired
        your piece P went back: held S.s s without a move   (your own hold expired)
        piece P is over cell R,C: drop puts it in            (after place)
        piece P went back (NAME left) | piece P went back (no target)
        *** puzzle I solved in S.s s ***
        next puzzle I: KIND RxC, rotation on|off, picture NAME
        NAME is looking at the hint for S.s s
        <NAME> TEXT                      chat
        resynced at seq N                after a missed event
        connection lost: WHY | server closed the connection: CODE TEXT
        while you were away: your piece P went back; A/T -> B/T placed; NAME joined
                                         (after a rejoin: what changed meanwhile)
      `board` prints:  board: puzzle I KIND RxC, C/T placed
                       row R: P P . P    (piece in each cell, . for empty)
                       table: P@X,Y ...  (loose pieces)
                       held: P by NAME at X,Y → cell R,C
    """

    /// Runs the command; returns the exit status.
    public static func run(_ args: [String]) -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let options: PlayOptions
        do {
            switch try PlayOptions.parse(args, user: environment["USER"]) {
            case .help:
                print(help)
                return 0
            case .run(var o):
                o.stateDirectory = ResumeTokenFile.defaultDirectory(environment: environment)
                o.cacheDirectory = PictureDiskCache.defaultDirectory(environment: environment)
                options = o
            }
        } catch {
            FileHandle.standardError.write(Data("puzzle play: \(error.message)\n(puzzle play --help)\n".utf8))
            return 2
        }
        let interactive = !options.plain && TerminalMode.isTerminal(0) && TerminalMode.isTerminal(1)
        if interactive {
            let colorMode = ColorMode.detect(environment: environment, isTTY: true)
            return InteractiveRunner(options: options, colorMode: colorMode).run()
        }
        let stdout = TerminalWriter(fd: 1)
        let runner = PlainRunner(options: options, input: .standardInput) { line in
            try? stdout.writeAll(Array((line + "\n").utf8))
        }
        return runner.run()
    }
}
