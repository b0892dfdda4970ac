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
        .target(name: "PuzzleServer", dependencies: ["PuzzleCore", "PuzzleProtocol", "PuzzleSystem"]),
        .target(name: "PuzzleClient", dependencies: ["PuzzleCore", "PuzzleProtocol", "PuzzleSystem"]),
        .target(name: "PuzzleBench", dependencies: ["PuzzleCore", "PuzzleProtocol", "PuzzleSystem", "PuzzleServer"]),
        .executableTarget(name: "puzzle", dependencies: ["PuzzleServer", "PuzzleClient", "PuzzleBench"]),
        .testTarget(name: "PuzzleCoreTests", dependencies: ["PuzzleCore"]),
        .testTarget(name: "PuzzleProtocolTests", dependencies: ["PuzzleProtocol", "PuzzleCore"]),
        .testTarget(name: "PuzzleSystemTests", dependencies: ["PuzzleSystem"]),
        .testTarget(name: "PuzzleServerTests", dependencies: ["PuzzleServer", "PuzzleSystem", "PuzzleProtocol", "PuzzleCore"]),
        .testTarget(name: "PuzzleClientTests", dependencies: ["PuzzleClient", "PuzzleServer", "PuzzleProtocol", "PuzzleSystem", "PuzzleCore"]),
        .testTarget(name: "PuzzleBenchTests", dependencies: ["PuzzleBench", "PuzzleServer", "PuzzleProtocol", "PuzzleSystem", "PuzzleCore"]),
    ],
    swiftLanguageModes: [.v6]
)
