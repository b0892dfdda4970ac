import Foundation
import PuzzleCore

/// The pictures a server can cut puzzles from: the built-in ones and the PPM
/// files its config names, each scaled for terminals when a room asks.
struct PictureLibrary {
    /// The largest side of a picture sent to clients (PROTOCOL.md, Snapshot).
    static let maxSide = 256
    private var files: [String: Picture] = [:]

    /// Loads every configured PPM file; a missing or malformed file is an error
    /// that names it.
    init(files paths: [String: String]) throws(ConfigError) {
        for (name, path) in paths.sorted(by: { $0.key < $1.key }) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigError(.unreadableFile(path: path, reason: "picture '\(name)' cannot be read"))
            }
            do {
                files[name] = try Picture(ppm: [UInt8](data))
            } catch {
                throw ConfigError(.badValue(key: "picture", value: path, expected: "a valid PPM file (\(error.message))"))
            }
        }
    }

    var names: [String] { (Picture.builtinNames + files.keys.sorted()) }

    func contains(_ name: String) -> Bool { files[name] != nil || Picture.builtinNames.contains(name) }

    /// The picture for a puzzle, at a size a terminal can show in half-block
    /// pixels: 8×8 pixels a piece (a piece's size at the client's larger zooms),
    /// at least 32×32, at most 256×256 (so a 100x100 board's JOIN carries at most
    /// 393 KiB of pixels), never fewer pixels than pieces.
    func terminalPicture(_ name: String, rows: Int, cols: Int) -> Picture? {
        let w = max(cols, min(Self.maxSide, max(32, cols * 8)))
        let h = max(rows, min(Self.maxSide, max(32, rows * 8)))
        if let p = files[name] { return p.scaled(width: w, height: h) }
        return Picture.builtin(name, width: w, height: h)
    }
}
