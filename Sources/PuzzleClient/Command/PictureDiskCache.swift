import Foundation
import PuzzleCore
import PuzzleImages

/// The session's pictures (`PictureCache`) kept on disk between runs, so a
/// client started again does not fetch a host's photo it was sent before:
/// one PNG per picture, named by its hash, under the XDG cache directory
/// (`$XDG_CACHE_HOME/puzzle-room/pictures/`, by default
/// `~/.cache/puzzle-room/pictures/`). A file is trusted only when it decodes
/// to a picture with the hash its name says: `<hash>.png`, or for a picture
/// sent as a JPEG (whose pixels are near the server's, not its own)
/// `<hash>-<pixels' hash>.png`, filed under the first; the directory holds at most
/// `limit` files (the oldest go). A cache that cannot be read or written
/// costs only a fetch: failures are ignored.
final class PictureDiskCache {
    static let limit = 32
    /// A file larger than this is no picture of ours (256×256 is about 200 KB at most).
    static let maxFileBytes = 1 << 20
    let directory: String
    /// Hashes already on disk (read or written by this run).
    private var stored = Set<String>()

    init(directory: String) { self.directory = directory }

    /// The directory from the environment; nil when neither `XDG_CACHE_HOME`
    /// nor `HOME` is an absolute path.
    static func defaultDirectory(environment: [String: String]) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/puzzle-room/pictures" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/puzzle-room/pictures" }
        return nil
    }

    static func isHash(_ s: Substring) -> Bool {
        s.utf8.count == 16 && s.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Puts the kept pictures, newest last, into `cache`.
    func load(into cache: inout PictureCache) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return }
        var files: [(hash: String, pixels: String, path: String, date: Date)] = []
        for name in names where name.hasSuffix(".png") {
            let parts = name.dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), parts.allSatisfy(Self.isHash) else { continue }
            let path = directory + "/" + name
            guard let a = try? fm.attributesOfItem(atPath: path), let size = a[.size] as? Int, size <= Self.maxFileBytes else { continue }
            files.append((String(parts[0]), String(parts[parts.count - 1]), path, (a[.modificationDate] as? Date) ?? .distantPast))
        }
        for f in files.sorted(by: { $0.date < $1.date }).suffix(PictureCache.limit) {
            guard let data = fm.contents(atPath: f.path),
                  let image = try? ImageDecoder.decode([UInt8](data), limits: ImageLimits(maxPixels: 256 * 256, maxFileBytes: Self.maxFileBytes))
            else { continue }
            var pixels: [RGB] = []
            pixels.reserveCapacity(image.width * image.height)
            for i in stride(from: 0, to: image.rgb.count, by: 3) { pixels.append(RGB(r: image.rgb[i], g: image.rgb[i + 1], b: image.rgb[i + 2])) }
            guard let picture = try? Picture(width: image.width, height: image.height, pixels: pixels),
                  picture.contentHashHex == f.pixels else { continue }
            cache.insert(picture, hash: f.hash)
            stored.insert(f.hash)
        }
    }

    /// Writes the pictures of `cache` not on disk yet; keeps the directory bounded.
    func keep(_ cache: PictureCache) {
        let new = cache.hashes.filter { !stored.contains($0) }
        guard !new.isEmpty else { return }
        let fm = FileManager.default
        try? fm.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for hash in new {
            stored.insert(hash)
            // Built-in pictures are drawn here in a moment: only the others are worth a file.
            guard let picture = cache.kept(hash), !Picture.builtinNames.contains(where: { Picture.builtin($0, width: picture.width, height: picture.height) == picture }) else { continue }
            let own = picture.contentHashHex
            let path = directory + "/" + hash + (own == hash ? "" : "-" + own) + ".png", temporary = path + ".part"
            guard fm.createFile(atPath: temporary, contents: Data(PNGEncoder.encode(picture))) else { continue }
            _ = try? fm.removeItem(atPath: path)
            try? fm.moveItem(atPath: temporary, toPath: path)
        }
        prune()
    }

    /// Removes the oldest files beyond `limit`.
    private func prune() {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return }
        let files = names.filter { $0.hasSuffix(".png") }.map { name -> (String, Date) in
            let path = directory + "/" + name
            return (path, ((try? fm.attributesOfItem(atPath: path))?[.modificationDate] as? Date) ?? .distantPast)
        }
        guard files.count > Self.limit else { return }
        for (path, _) in files.sorted(by: { $0.1 < $1.1 }).prefix(files.count - Self.limit) { try? fm.removeItem(atPath: path) }
    }
}
