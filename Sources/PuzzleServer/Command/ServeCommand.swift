import Foundation
import PuzzleSystem

/// `puzzle serve [flags]`: runs a server in the foreground until SIGINT/SIGTERM.
public enum ServeCommand {
    /// The config file read when no `--config` is given (relative to the working directory).
    public static let defaultConfigPath = "Config/puzzle.conf"

    /// Runs the command and returns the process exit status.
    public static func run(_ args: [String]) -> Int32 {
        let config: ServerConfig
        do {
            switch try ServerConfig.fromCommandLine(args, defaultConfigPath: defaultConfigPath) {
            case .help(let text):
                // The text starts with its own usage line.
                print(text, terminator: "")
                return 0
            case .run(let c):
                try c.validate()
                config = c
            }
        } catch {
            FileHandle.standardError.write(Data("puzzle serve: \(error)\n".utf8))
            return 2
        }
        let logger = Logger(level: config.logLevel)
        let server: PuzzleServer
        do {
            server = try PuzzleServer(config: config, logger: logger, handleSignals: true)
        } catch let error as ConfigError {
            // Found only while starting (a picture file, a room the pictures
            // cannot make): still the config's fault, with the config's status.
            FileHandle.standardError.write(Data("puzzle serve: \(error)\n".utf8))
            return 2
        } catch {
            logger.error("cannot serve: \(error)")
            return 1
        }
        let interfaces = (try? NetworkInterfaces.addresses()) ?? []
        let banner = ServeBanner.lines(bind: config.bind, port: server.port, rooms: server.roomNames, interfaces: interfaces,
                                       program: ServeBanner.program(argv0: CommandLine.arguments.first ?? ""), telnetPort: server.telnetPort)
            .joined(separator: "\n") + "\n"
        // Unbuffered, so a script or test reading stdout sees the port at once.
        FileHandle.standardOutput.write(Data(banner.utf8))
        do {
            try server.run()
            return 0
        } catch {
            // Any stop other than a requested shutdown is a failure the operator must see.
            logger.error("server stopped: \(error)")
            return 1
        }
    }
}

extension PuzzleServer {
    /// Names of the hosted rooms, and of those still loading (for start-up messages).
    public var roomNames: [String] { rooms.namesWithLoading }
}
