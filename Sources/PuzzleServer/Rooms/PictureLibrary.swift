import Foundation
import PuzzleCore

/// The pictures a server can cut puzzles from: the built-in ones and the PPM
/// files its config names, each scaled for terminals when a room asks.
struct PictureLibrary {
    /// The largest side of a picture sent to clients (PROTOCOL.md, Snapshot).
    static let maxSide = 256
    private var files: [String: Picture] = [:]
    /// The last pictures handed out, newest last: a built-in scene is drawn
    /// pixel by pixel (milliseconds at 256×256, on the event loop), and rooms
    /// ask for the same ones again (every NEXT past 32 columns, rooms alike).
    private var recent: [(key: Key, picture: Picture)] = []
    private struct Key: Equatable {
        var name: String
        var width: Int
        var height: Int
    }
    /// Rooms cycle through every picture (`pictures=cycle`), so the cache
    /// holds several sizes of each: at most 32 × 192 KiB.
    static let recentLimit = 32

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
    mutating func terminalPicture(_ name: String, rows: Int, cols: Int) -> Picture? {
        let w = max(cols, min(Self.maxSide, max(32, cols * 8)))
        let h = max(rows, min(Self.maxSide, max(32, rows * 8)))
        let key = Key(name: name, width: w, height: h)
        if let i = recent.firstIndex(where: { $0.key == key }) {
            let hit = recent.remove(at: i)
            recent.append(hit)
            return hit.picture
        }
        guard let picture = files[name].map({ $0.scaled(width: w, height: h) }) ?? Picture.builtin(name, width: w, height: h) else { return nil }
        if recent.count >= Self.recentLimit { recent.removeFirst() }
        recent.append((key, picture))
        return picture
    }

    /// What a browser picture is drawn from, to draw it off the event loop.
    func webPictureSource(_ name: String) -> WebPictureSource? {
        if let file = files[name] { return .file(file) }
        return Picture.builtinNames.contains(name) ? .builtin(name) : nil
    }
}

/// A picture that can be drawn at any size (within `Picture`'s limits), for
/// browsers: a built-in scene drawn at that size, a file scaled to it.
enum WebPictureSource: Sendable {
    case builtin(String)
    case file(Picture)

    func picture(width: Int, height: Int) -> Picture? {
        switch self {
        case .builtin(let name): Picture.builtin(name, width: width, height: height)
        case .file(let picture): (try? Picture.validate(width: width, height: height)) == nil ? nil : picture.scaled(width: width, height: height)
        }
    }
}
