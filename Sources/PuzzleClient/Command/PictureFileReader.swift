import Foundation
import PuzzleSystem

/// Reads a picture file the player named (the driver's part of
/// `/create ... picture=FILE`): `~` is the home directory; a missing file,
/// a directory or one over `PictureFile.maxBytes` is a readable error,
/// never a crash, and no large file is read to find out.
enum PictureFileReader {
    static func read(_ path: String) -> Result<[UInt8], PictureFileError> {
        var full = path
        if path == "~" || path.hasPrefix("~/") {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            full = home + path.dropFirst()
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else { return .failure(PictureFileError("no such file")) }
        guard !isDirectory.boolValue else { return .failure(PictureFileError("it is a directory")) }
        if let size = (try? FileManager.default.attributesOfItem(atPath: full))?[.size] as? Int, size > PictureFile.maxBytes {
            return .failure(PictureFileError("it has \(size) bytes; a picture may have at most \(PictureFile.maxBytes)"))
        }
        do {
            let bytes = try FileSystem.readFile(full)
            guard !bytes.isEmpty else { return .failure(PictureFileError("the file is empty")) }
            guard bytes.count <= PictureFile.maxBytes else { return .failure(PictureFileError("the file is too large")) }
            return .success(bytes)
        } catch {
            return .failure(PictureFileError("\(error)"))
        }
    }
}
