import PuzzleLink
import PuzzleProtocol
import PuzzleSystem

/// Plain mode: command lines in, one readable line out per reply and event.
///
/// Commands run one at a time: a line is taken from the input only once the
/// reply to the previous command has arrived (and only after the room is
/// joined), so the output reads like a transcript. When the input ends, the
/// runner waits for the outstanding replies and returns.
public final class PlainRunner {
    let options: PlayOptions
    let input: FileDescriptor
    let write: (String) -> Void
    let clock: () -> Int64
    var session: ClientSession
    private var inputFramer = LineFramer(maxLineLength: 4096)
    private var inputLines: [String] = []
    private var inputEnded = false

    /// - Parameters:
    ///   - input: where command lines come from (standard input, or a pipe/socket in tests).
    ///   - write: receives each output line, without its terminator.
    public init(options: PlayOptions, input: FileDescriptor, write: @escaping (String) -> Void,
                clock: @escaping () -> Int64 = { MonotonicClock.nowMilliseconds }) {
        self.options = options
        self.input = input
        self.write = write
        self.clock = clock
        tokenFile = ResumeTokenFile.open(for: options, report: write)
        session = ClientSession(name: options.name, room: options.room, password: options.password, resumeToken: tokenFile?.token,
                                watch: options.watch, lastRoom: tokenFile?.room)
        pictureDisk = options.cacheDirectory.map(PictureDiskCache.init)
        pictureDisk?.load(into: &session.pictures)
    }

    /// The session's pictures kept between runs.
    private let pictureDisk: PictureDiskCache?

    /// Where this player's resume token is kept across runs, if it is.
    private let tokenFile: ResumeTokenFile?

    private static let socketToken: UInt64 = 1
    private static let inputToken: UInt64 = 2

    /// Connects, plays the input, and returns the exit status: 0, or 1 when the
    /// connection failed or was lost, the room refused us, or (under `--strict`)
    /// a command failed.
    public func run() -> Int32 {
        let queue: EpollQueue
        let link: ServerLink
        do {
            queue = try EpollQueue(maxEventsPerWait: 8)
        } catch {
            write("error: \(error)")
            return 1
        }
        do {
            link = try ServerLink(options: options, timeoutMillis: 5000, queue: queue, token: Self.socketToken)
        } catch {
            write("error: cannot connect to \(options.host):\(options.port): \(error)")
            return 1
        }
        defer { link.close() }
        // Regular files and /dev/null cannot be watched by epoll (EPERM): they are always readable.
        let inputAlwaysReady = (try? queue.register(input, interest: .readable, token: Self.inputToken)) == nil
        session.connected(now: clock())

        while true {
            // Take commands while nothing the player asked for is in flight.
            while session.phase == .joined || session.phase == .choosingRoom, !session.awaitingUserReply, !inputLines.isEmpty {
                session.submit(inputLines.removeFirst(), now: clock())
                for file in session.takePictureFiles() {
                    session.pictureFileRead(file, PictureFileReader.read(file.path), now: clock())
                }
            }
            do { try link.send(session.takeOutgoing()) } catch {
                session.connectionLost(ConnectionLoss.reason(error))
            }
            if let rooms = session.takeRoomChoices() { for line in rooms { write("  " + line) } }
            for line in session.takeOutput() { write(line.text) }
            tokenFile?.keep(session.resumeToken, room: session.lastRoom, report: write)
            pictureDisk?.keep(session.pictures)

            switch session.phase {
            case .finished:
                return session.fatalError == nil ? status : 1
            case .disconnected:
                return 1
            case .joined where inputEnded && inputLines.isEmpty && session.pending.isEmpty:
                return status
            default:
                break
            }

            let wantInput = !inputEnded && inputLines.isEmpty
            if wantInput && inputAlwaysReady {
                readInput()
                continue
            }
            let events: EpollQueue.Events
            do { events = try queue.wait(timeoutMillis: -1) } catch {
                write("error: \(error)")
                return 1
            }
            var readSocket = false
            var readStdin = false
            for e in events {
                if e.token == Self.socketToken, e.readable || e.hangup || e.error { readSocket = true }
                if e.token == Self.inputToken { readStdin = true }
            }
            if readStdin {
                readInput()
                if inputEnded && !inputAlwaysReady { try? queue.deregister(input) }
            }
            if readSocket {
                let result = link.read()
                let now = clock()
                for line in result.lines { session.receive(Substring(line), now: now) }
                if result.closed {
                    session.connectionLost("the server closed the connection")
                }
            }
        }
    }

    private var status: Int32 { options.strict && session.failedCommands > 0 ? 1 : 0 }

    /// One read of the input, split into lines; end of input flushes a last unterminated line.
    private func readInput() {
        var chunk: [UInt8] = []
        let result: IOResult
        do { result = try input.read(appendingTo: &chunk, maxBytes: 16 * 1024) } catch {
            inputEnded = true
            return
        }
        switch result {
        case .wouldBlock: return
        case .processed(0):
            inputEnded = true
            inputFramer.append([UInt8(ascii: "\n")])
        case .processed: inputFramer.append(chunk)
        }
        while let frame = inputFramer.next() {
            switch frame {
            case .line(let bytes): inputLines.append(String(decoding: bytes, as: UTF8.self))
            case .overlong: write("error: input line too long; ignored")
            }
        }
    }
}
