import Foundation
import PuzzleCore
import PuzzleImages
import PuzzleSystem

/// Where uploaded pictures are kept, in the data directory:
///
/// - `<data>/pictures/<sha256>.png|jpg`: each upload's bytes, named by their
///   content (the same photo uploaded twice, under any names, is one file),
///   written to a temporary file, synced, renamed into place and the
///   directory synced, off the loop (`write`), before its name is recorded;
/// - `<data>/uploads`: which name means which file, one checksummed line a
///   name, appended and synced (unless `fsync = never`) before the upload's
///   `OK` is sent, so an acknowledged picture is there after a crash:
///
///         <name> <sha256>.<ext> <bytes> *<crc32>
///
/// - `<data>/pictures/<sha256>.512.ppm`: the picture as the server keeps it
///   (at most 512 pixels a side), so that a start loads a hundred uploads
///   in a moment instead of decoding a hundred photos; only a cache (not
///   synced; a missing or damaged one is made again from the original).
///
/// A torn last line is cut off and a damaged line skipped (that name is
/// lost, the rest load). Temporary files left by a crash are deleted at
/// start-up; a content file no line names (its record never made it, so it
/// was never acknowledged) is left: a later upload of the same bytes reuses it.
///
/// Not thread-safe, except `write`: owned by the server's event loop.
final class UploadStore {
    /// One stored upload.
    struct Entry: Equatable, Sendable {
        var sha256: String
        var fileExtension: String
        var bytes: Int
        var fileName: String { "\(sha256).\(fileExtension)" }
    }

    let directory: String
    let sync: Bool
    private let records: ChecksummedLineFile
    /// Every upload recorded, by name.
    private(set) var entries: [String: Entry] = [:]
    /// Lines skipped at load, with why (for the log).
    private(set) var problems: [String] = []

    var picturesDirectory: String { directory + "/pictures" }
    func path(of entry: Entry) -> String { picturesDirectory + "/" + entry.fileName }
    func keptPath(of entry: Entry) -> String { Self.keptPath(of: entry, in: picturesDirectory) }
    static func keptPath(of entry: Entry, in picturesDirectory: String) -> String {
        picturesDirectory + "/\(entry.sha256).\(PictureLibrary.keptSide).ppm"
    }

    init(directory: String, sync: Bool) throws(RoomStoreError) {
        self.directory = directory
        self.sync = sync
        records = ChecksummedLineFile(path: directory + "/uploads", sync: sync)
        let loaded = try records.loadRecords(file: "uploads", consequence: "that uploaded picture is lost", decode: Self.decode)
        problems += loaded.problems
        for (name, entry) in loaded.records { entries[name] = entry }
        let pictures = picturesDirectory
        _ = try onPath(pictures) { () throws(Errno) in try Directory.createAll(pictures) }
        for file in (try? Directory.entries(pictures)) ?? [] where file.hasSuffix(".tmp") {
            try? FileSystem.removeFile(pictures + "/" + file, ignoringMissing: true)
        }
    }

    /// Records `name` as meaning `entry` (its file already written and synced).
    func record(_ name: String, _ entry: Entry) throws(RoomStoreError) {
        try records.append("\(name) \(entry.fileName) \(entry.bytes)")
        entries[name] = entry
    }

    /// Writes an upload's bytes to their content's file, durably: temporary
    /// file, fsync, rename, fsync of the directory. A file already there (the
    /// same content) is kept. Safe off the loop: it touches only that file.
    static func write(_ bytes: [UInt8], as entry: Entry, in picturesDirectory: String, sync: Bool) throws(Errno) {
        let path = picturesDirectory + "/" + entry.fileName
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size == bytes.count { return }
        try FileSystem.replaceAtomically(path, with: bytes, temporaryPath: path + ".tmp", directory: picturesDirectory, sync: sync)
    }

    /// Writes the kept copy of an upload (a cache: renamed into place, not
    /// synced). A failure only costs a decode of the original at the next start.
    static func writeKept(_ image: RGBImage, of entry: Entry, in picturesDirectory: String) {
        var bytes = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
        bytes += image.rgb
        let path = keptPath(of: entry, in: picturesDirectory)
        try? FileSystem.replaceAtomically(path, with: bytes, temporaryPath: path + ".tmp", directory: picturesDirectory, sync: false)
    }

    private static func decode(_ line: ArraySlice<UInt8>) -> (String, Entry)? {
        let words = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard words.count == 3, NameRule.isValid(words[0]), let bytes = Int(words[2]), bytes > 0 else { return nil }
        let file = words[1].split(separator: ".")
        guard file.count == 2, file[0].utf8.count == 64,
              file[0].utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
              file[1] == "png" || file[1] == "jpg" else { return nil }
        return (String(words[0]), Entry(sha256: String(file[0]), fileExtension: String(file[1]), bytes: bytes))
    }
}
