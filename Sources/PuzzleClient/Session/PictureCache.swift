import Foundation
import PuzzleCore
import PuzzleImages
import PuzzleProtocol
import PuzzleWeb

/// The pictures a client has, by content hash (`Picture.contentHashHex`), so
/// that a compact snapshot's `S picture <w> <h> <hash>` costs no pixels when
/// the client was sent that picture before: on an earlier connection (a
/// dropped link, a restart of the server), in another room, or on another
/// puzzle of the same picture. Built-in pictures need no fetch at all: the
/// client draws them with the same code as the server and keeps them when the
/// hash agrees. Holds at most `limit` pictures (least recently used go first).
public struct PictureCache: Sendable {
    public static let limit = 16
    /// Most base64 characters a `PICTURE` reply may bring (a 256×256 PNG is
    /// at most about 270 KB of it).
    static let maxBase64 = 4 << 20

    private var entries: [(hash: String, picture: Picture)] = []

    public init() {}

    public var count: Int { entries.count }

    /// The hashes kept, least recently used first.
    public var hashes: [String] { entries.map(\.hash) }

    /// The picture kept under `hash`, without counting it as used.
    public func kept(_ hash: String) -> Picture? { entries.first { $0.hash == hash }?.picture }

    /// The picture with this hash: from the cache, or a built-in `name` drawn
    /// at `width` × `height` when that is the one named; nil when it must be fetched.
    public mutating func picture(hash: String, name: String, width: Int, height: Int) -> Picture? {
        if let i = entries.firstIndex(where: { $0.hash == hash }) {
            let hit = entries.remove(at: i)
            entries.append(hit)
            return hit.picture
        }
        guard Picture.builtinNames.contains(name), let drawn = BuiltinPictures.shared.picture(name, width: width, height: height),
              drawn.contentHashHex == hash else { return nil }
        insert(drawn)
        return drawn
    }

    /// Keeps `picture` under `hash` (its own content hash when nil: a JPEG's
    /// pixels are close to the server's picture, filed under the server's hash).
    public mutating func insert(_ picture: Picture, hash: String? = nil) {
        let hash = hash ?? picture.contentHashHex
        entries.removeAll { $0.hash == hash }
        if entries.count >= Self.limit { entries.removeFirst() }
        entries.append((hash, picture))
    }

    /// The picture a `PICTURE` reply's `S png <base64>` or `S jpeg <base64>`
    /// lines carry (one format, not both), when it decodes to `width` ×
    /// `height` and, a PNG being lossless, has the hash `hash`; else nil.
    public static func decode(lines: [String], width: Int, height: Int, hash: String) -> Picture? {
        var text = ""
        var format: PictureFormat?
        for line in lines {
            guard case .file(let kind, let part)? = PictureLines.decode(line[...]) else { continue }
            guard format == nil || format == kind else { return nil }
            format = kind
            guard text.utf8.count + part.utf8.count <= maxBase64 else { return nil }
            text += part
        }
        guard (1...256).contains(width), (1...256).contains(height), let bytes = Base64.decode(text),
              let image = try? ImageDecoder.decode(bytes, limits: ImageLimits(maxPixels: 256 * 256, maxFileBytes: maxBase64)),
              image.width == width, image.height == height else { return nil }
        var pixels: [RGB] = []
        pixels.reserveCapacity(width * height)
        for i in stride(from: 0, to: image.rgb.count, by: 3) {
            pixels.append(RGB(r: image.rgb[i], g: image.rgb[i + 1], b: image.rgb[i + 2]))
        }
        guard let picture = try? Picture(width: width, height: height, pixels: pixels),
              format == .jpeg || picture.contentHashHex == hash else { return nil }
        return picture
    }
}

/// The built-in pictures drawn so far in this process, shared by every session in it: a
/// server's telnet players (a session each) draw a room's next picture once between
/// them, not once each. Pictures are values; a kept one costs its pixels once. Holds at
/// most `limit` (the oldest go first).
final class BuiltinPictures: @unchecked Sendable {
    static let shared = BuiltinPictures()
    static let limit = 16
    private let lock = NSLock()
    private var drawn: [(key: String, picture: Picture)] = []

    /// `Picture.builtin(name, width:, height:)`, drawn once.
    func picture(_ name: String, width: Int, height: Int) -> Picture? {
        let key = "\(name) \(width) \(height)"
        // Drawn under the lock: a room's next puzzle reaches every session at once, and
        // one draws it while the others wait for it rather than each drawing it too.
        lock.lock()
        defer { lock.unlock() }
        if let hit = drawn.first(where: { $0.key == key }) { return hit.picture }
        guard let picture = Picture.builtin(name, width: width, height: height) else { return nil }
        if drawn.count >= Self.limit { drawn.removeFirst() }
        drawn.append((key, picture))
        return picture
    }
}
