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
        .target(name: "PuzzleSystem", dependencies: ["CSystem"]),
        // One client connection (send lines, read lines, wait with deadlines) for
        // the play client, the bench and the tests.
        .target(name: "PuzzleLink", dependencies: ["PuzzleProtocol", "PuzzleSystem"]),
        .target(name: "PuzzleServer", dependencies: ["PuzzleCore", "PuzzleProtocol", "PuzzleSystem"]),
        .target(name: "PuzzleClient", dependencies: ["PuzzleCore", "PuzzleProtocol", "PuzzleSystem", "PuzzleLink"]),
        .target(name: "PuzzleBench", dependencies: ["PuzzleCore", "PuzzleProtocol", "PuzzleSystem", "PuzzleServer", "PuzzleLink", "PuzzleClient"]),
        .executableTarget(name: "puzzle", dependencies: ["PuzzleServer", "PuzzleClient", "PuzzleBench"]),
        // Shared by the test targets only: a real in-process server and a line client with deadlines.
        .target(name: "PuzzleTestSupport", dependencies: ["PuzzleServer", "PuzzleSystem", "PuzzleProtocol", "PuzzleCore"]),
        .testTarget(name: "PuzzleCoreTests", dependencies: ["PuzzleCore", "PuzzleTestSupport"]),
        .testTarget(name: "PuzzleProtocolTests", dependencies: ["PuzzleProtocol", "PuzzleCore", "PuzzleTestSupport"]),
        .testTarget(name: "PuzzleSystemTests", dependencies: ["PuzzleSystem"]),
        .testTarget(name: "PuzzleServerTests", dependencies: ["PuzzleTestSupport", "PuzzleServer", "PuzzleSystem", "PuzzleProtocol", "PuzzleCore", "PuzzleLink"]),
        .testTarget(name: "PuzzleClientTests", dependencies: ["PuzzleTestSupport", "PuzzleClient", "PuzzleServer", "PuzzleProtocol", "PuzzleSystem", "PuzzleCore", "PuzzleLink"]),
        .testTarget(name: "PuzzleBenchTests", dependencies: ["PuzzleTestSupport", "PuzzleBench", "PuzzleServer", "PuzzleProtocol", "PuzzleSystem", "PuzzleCore", "PuzzleLink"]),
    ],
    swiftLanguageModes: [.v6]
)
