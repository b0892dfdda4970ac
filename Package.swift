// swift-tools-version:6.0
import PackageDescription

// Dependencies point one way: PuzzleCore (pure rules) <- PuzzleProtocol (wire format)
// <- PuzzleServer / PuzzleClient / PuzzleBench <- puzzle (thin executable).
// PuzzleSystem is the only module that talks to Glibc; CSystem exports the few
// headers Glibc does not (epoll, ioctl shims).
let package = Package(
    name: "puzzle-room",
    products: [
        .executable(name: "puzzle", targets: ["puzzle"]),
    ],
    targets: [
        .target(name: "CSystem"),
        .target(name: "PuzzleCore"),
        .target(name: "PuzzleProtocol", dependencies: ["PuzzleCore"]),
        // HTTP/1.1 and WebSocket (RFC 6455) as pure byte-in, byte-out code: no sockets.
        .target(name: "PuzzleWeb"),
        // The browser page's files (Page/), built into the binary with C23 #embed.
        .target(name: "CWebPage", exclude: ["Page"], cSettings: [.unsafeFlags(["-std=c23"])]),
        // PNG and JPEG decoders of our own (pure: bytes in, pixels out).
        .target(name: "PuzzleImages", dependencies: ["PuzzleCore"]),
        .target(name: "PuzzleSystem", dependencies: ["CSystem"]),
        // One client connection (send lines, read lines, wait with deadlines) for
        // the play client, the bench and the tests.
        .target(name: "PuzzleLink", dependencies: ["PuzzleProtocol", "PuzzleSystem"]),
        .target(name: "PuzzleClient", dependencies: ["PuzzleCore", "PuzzleImages", "PuzzleProtocol", "PuzzleSystem", "PuzzleLink", "PuzzleWeb"]),
        // The play app over telnet: a client of the rooms (the line protocol over a socket)
        // that the server starts on a port of its own.
        .target(name: "PuzzleTelnet", dependencies: ["PuzzleClient", "PuzzleCore", "PuzzleProtocol", "PuzzleSystem", "PuzzleLink"]),
        .target(name: "PuzzleServer", dependencies: ["PuzzleCore", "PuzzleImages", "PuzzleProtocol", "PuzzleSystem", "PuzzleWeb", "CWebPage", "PuzzleTelnet"]),
        .target(name: "PuzzleBench", dependencies: ["PuzzleCore", "PuzzleImages", "PuzzleProtocol", "PuzzleSystem", "PuzzleServer", "PuzzleLink", "PuzzleClient", "PuzzleWeb"]),
        .executableTarget(name: "puzzle", dependencies: ["PuzzleServer", "PuzzleClient", "PuzzleBench"]),
        // Shared by the test targets only: a real in-process server and a line client with deadlines.
        .target(name: "PuzzleTestSupport", dependencies: ["PuzzleServer", "PuzzleSystem", "PuzzleProtocol", "PuzzleCore", "PuzzleWeb"]),
        // What each fuzz target checks, one input at a time. An ordinary library so
        // that `swift test` replays the fuzz seeds and saved crash inputs through it.
        .target(name: "PuzzleFuzzChecks", dependencies: ["PuzzleTestSupport", "PuzzleTelnet", "PuzzleClient", "PuzzleServer", "PuzzleProtocol", "PuzzleCore", "PuzzleWeb", "PuzzleImages"],
                path: "Tests/Fuzz/Checks"),
        .testTarget(name: "PuzzleCoreTests", dependencies: ["PuzzleCore", "PuzzleTestSupport"]),
        .testTarget(name: "PuzzleImagesTests", dependencies: ["PuzzleImages", "PuzzleCore"], exclude: ["Fixtures"]),
        .testTarget(name: "PuzzleProtocolTests", dependencies: ["PuzzleProtocol", "PuzzleCore", "PuzzleTestSupport"]),
        .testTarget(name: "PuzzleWebTests", dependencies: ["PuzzleWeb"]),
        .testTarget(name: "PuzzleSystemTests", dependencies: ["PuzzleSystem"]),
        .testTarget(name: "PuzzleServerTests", dependencies: ["PuzzleTestSupport", "PuzzleFuzzChecks", "PuzzleServer", "PuzzleSystem", "PuzzleProtocol", "PuzzleCore", "PuzzleLink", "PuzzleWeb", "PuzzleImages"]),
        .testTarget(name: "PuzzleClientTests", dependencies: ["PuzzleTestSupport", "PuzzleClient", "PuzzleTelnet", "PuzzleServer", "PuzzleProtocol", "PuzzleSystem", "PuzzleCore", "PuzzleLink", "PuzzleImages", "PuzzleWeb"]),
        .testTarget(name: "PuzzleBenchTests", dependencies: ["PuzzleTestSupport", "PuzzleBench", "PuzzleServer", "PuzzleProtocol", "PuzzleSystem", "PuzzleCore", "PuzzleLink", "PuzzleWeb"]),
    ],
    swiftLanguageModes: [.v6]
)

// The fuzzer executable exists only in the fuzzer build (Tests/Fuzz/run-fuzzers.sh
// sets PUZZLE_FUZZ and builds with -sanitize=fuzzer, which links libFuzzer's driver);
// a normal build never sees it, so it needs no fuzzer runtime.
if Context.environment["PUZZLE_FUZZ"] != nil {
    package.targets += [
        .target(name: "CFuzzerDriver", path: "Tests/Fuzz/Driver"),
        // gold stops with an internal error on this link; lld (shipped with Swift) does not.
        .executableTarget(name: "puzzle-fuzz", dependencies: ["CFuzzerDriver", "PuzzleFuzzChecks"], path: "Tests/Fuzz/Entry",
                          linkerSettings: [.unsafeFlags(["-use-ld=lld"])]),
    ]
}
