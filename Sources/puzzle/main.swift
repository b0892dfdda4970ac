import Foundation
import PuzzleBench
import PuzzleClient
import PuzzleServer

let usage = """
usage: puzzle <command> [options]

commands:
  serve   host puzzle rooms (puzzle serve --help)
  play    join a room and play in the terminal (puzzle play --help)
  bench   load-test a server with bots (puzzle bench --help)

  puzzle --version    print the version
"""

let args = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch args.first {
case "serve": status = ServeCommand.run(Array(args.dropFirst()))
case "play": status = PlayCommand.run(Array(args.dropFirst()))
case "bench": status = BenchCommand.run(Array(args.dropFirst()))
case "--version", "-V", "version": print("puzzle-room 0.1.0 (protocol 1)"); status = 0
case "--help", "-h", "help", nil: print(usage); status = args.isEmpty ? 2 : 0
default:
    FileHandle.standardError.write(Data("puzzle: unknown command '\(args[0])'\n\n\(usage)\n".utf8))
    status = 2
}
exit(status)
