import Dispatch
import Foundation
import PuzzleCore
import PuzzleImages

/// The pictures a server can cut puzzles from: the built-in ones, the files
/// its config names (`picture = NAME PATH`) and every image in its picture
/// folder, each cropped to a board's shape and scaled for terminals when a
/// room asks.
struct PictureLibrary {
    /// The largest side of a picture sent to clients (PROTOCOL.md, Snapshot).
    static let maxSide = 256
    /// Files are kept at most this large (shape kept): enough to crop any
    /// board's shape and still fill `maxSide`, without holding a 12 Mpx
    /// photo's 36 MB for every picture in a folder.
    static let keptSide = 2 * maxSide
    private var files: [String: RGBImage] = [:]
    /// The names in `files` that players uploaded: usable by name, never in
    /// a room's cycle (someone's photo does not turn up in everyone's rooms).
    private var uploaded: Set<String> = []
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

    /// Loads the configured files (a missing or damaged one is an error that
    /// names it) and the folder's images (a damaged one, a bad name or a
    /// name taken is skipped and reported through `warn`). Decoding happens
    /// here, before the server loop runs, spread over every core.
    init(files paths: [String: String], folder: String? = nil, limits: ImageLimits = ImageLimits(),
         warn: (String) -> Void = { _ in }) throws(ConfigError) {
        var jobs = paths.sorted(by: { $0.key < $1.key }).map { (name: $0.key, path: $0.value, fromFolder: false) }
        if let folder {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                throw ConfigError(.unreadableFile(path: folder, reason: "the picture folder cannot be read"))
            }
            for entry in entries.sorted() where !entry.hasPrefix(".") {
                let name = entry.lastIndex(of: ".").map { String(entry[..<$0]) } ?? entry
                let path = folder.hasSuffix("/") ? folder + entry : folder + "/" + entry
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                guard NameRule.isValid(name) else {
                    warn("picture folder: skipped \(entry): '\(name)' is not a picture name (\(NameRule.summary))")
                    continue
                }
                guard !Picture.builtinNames.contains(name), !jobs.contains(where: { $0.name == name }) else {
                    warn("picture folder: skipped \(entry): a picture named '\(name)' exists already")
                    continue
                }
                jobs.append((name, path, true))
            }
        }
        let results = Self.decode(jobs.map(\.path), limits: limits)
        for (job, result) in zip(jobs, results) {
            switch result {
            case .success(let image):
                files[job.name] = image
            case .failure(let reason) where job.fromFolder:
                warn("picture folder: skipped \(job.path): \(reason)")
            case .failure(let reason):
                throw ConfigError(.badValue(key: "picture", value: job.path, expected: "a readable PNG, JPEG or PPM file (\(reason))"))
            }
        }
    }

    /// Reads, decodes and shrinks each file, several at once (a folder of
    /// phone photos is seconds of work on one core).
    static func decode(_ paths: [String], limits: ImageLimits) -> [Result<RGBImage, DecodeFailure>] {
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var items: [Result<RGBImage, DecodeFailure>]
            init(count: Int) { items = Array(repeating: .failure(DecodeFailure(reason: "not decoded")), count: count) }
        }
        let results = Results(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { i in
            let result = load(paths[i], limits: limits)
            results.lock.lock()
            results.items[i] = result
            results.lock.unlock()
        }
        return results.items
    }

    struct DecodeFailure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    private static func load(_ path: String, limits: ImageLimits) -> Result<RGBImage, DecodeFailure> {
        // Size before reading: a huge file is refused without loading it.
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > limits.maxFileBytes {
            return .failure(DecodeFailure(reason: ImageError.fileTooLarge(bytes: size, limit: limits.maxFileBytes).description))
        }
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(DecodeFailure(reason: "cannot be read")) }
        do {
            let bytes = [UInt8](data)
            if ImageFormat.sniff(bytes) == .ppm { return .success(try shrunk(ImageDecoder.decode(bytes, limits: limits))) }
            // PNG and JPEG straight into the kept size, never whole.
            return .success(try ImageDecoder.decode(bytes, limits: limits, fitting: keptSide).image)
        } catch {
            return .failure(DecodeFailure(reason: "\(error)"))
        }
    }

    /// The image no larger than `keptSide` on either side, shape kept.
    static func shrunk(_ image: RGBImage) throws -> RGBImage {
        guard max(image.width, image.height) > keptSide else { return image }
        let picture = try image.picture(fitting: keptSide)
        var rgb: [UInt8] = []
        rgb.reserveCapacity(picture.pixels.count * 3)
        for p in picture.pixels { rgb += [p.r, p.g, p.b] }
        return RGBImage(width: picture.width, height: picture.height, rgb: rgb)
    }

    /// The host's pictures: what rooms cycle through (`pictures=cycle`).
    var names: [String] { (Picture.builtinNames + files.keys.filter { !uploaded.contains($0) }.sorted()) }

    /// Whether `name` is one of the host's pictures (built-in, configured, in
    /// the folder), whose names uploads may not take.
    func isHostPicture(_ name: String) -> Bool {
        Picture.builtinNames.contains(name) || (files[name] != nil && !uploaded.contains(name))
    }

    /// Offers a player's uploaded picture by name (kept at most `keptSide` a side).
    mutating func addUpload(_ name: String, _ image: RGBImage) {
        guard !isHostPicture(name) else { return }
        files[name] = image
        uploaded.insert(name)
    }

    /// How many uploaded pictures are offered.
    var uploadCount: Int { uploaded.count }

    /// A picture's shape, to cut a piece count to it: a file's size; a
    /// built-in scene is drawn to any shape, so square.
    func shape(of name: String) -> (width: Int, height: Int) {
        files[name].map { ($0.width, $0.height) } ?? (1, 1)
    }

    func contains(_ name: String) -> Bool { files[name] != nil || Picture.builtinNames.contains(name) }

    /// The picture for a puzzle, at a size a terminal can show in half-block
    /// pixels: 8×8 pixels a piece (a piece's size at the client's larger zooms),
    /// at least 32×32, at most 256×256 (so a 100x100 board's JOIN carries at most
    /// 393 KiB of pixels), never fewer pixels than pieces. A file's picture is
    /// first cropped around its centre to the board's shape (`cols:rows`,
    /// square pieces), so a photo is never squashed.
    mutating func terminalPicture(_ name: String, rows: Int, cols: Int) -> Picture? {
        let w = max(cols, min(Self.maxSide, max(32, cols * 8)))
        let h = max(rows, min(Self.maxSide, max(32, rows * 8)))
        let key = Key(name: name, width: w, height: h)
        if let i = recent.firstIndex(where: { $0.key == key }) {
            let hit = recent.remove(at: i)
            recent.append(hit)
            return hit.picture
        }
        let picture: Picture?
        if let image = files[name] {
            picture = try? image.picture(region: image.centredCrop(aspectWidth: cols, aspectHeight: rows), width: w, height: h)
        } else {
            picture = Picture.builtin(name, width: w, height: h)
        }
        guard let picture else { return nil }
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
/// browsers: a built-in scene drawn at that size, a file cropped to the
/// size's shape and scaled to it (as `terminalPicture` does).
enum WebPictureSource: Sendable {
    case builtin(String)
    case file(RGBImage)

    func picture(width: Int, height: Int) -> Picture? {
        switch self {
        case .builtin(let name): Picture.builtin(name, width: width, height: height)
        // Cropped around its centre to the shape asked for, as for terminals: never squashed.
        case .file(let image):
            try? image.picture(region: image.centredCrop(aspectWidth: width, aspectHeight: height), width: width, height: height)
        }
    }
}
