import PuzzleCore
import PuzzleSystem

/// An append-only file of text lines, each ending in ` *<crc32 as 8 lowercase
/// hex digits>`, that survives a crash mid-append: at load a torn last line is
/// cut off (so the next append is not glued to it) and a line failing its
/// checksum is reported rather than trusted. `<data>/players`,
/// `<data>/player-ids` and `<data>/player-colors` are such files.
///
/// Not thread-safe: owned by the server's event loop.
struct ChecksummedLineFile {
    let path: String
    /// Whether appends (and the cut of a torn line) are synced to disk.
    let sync: Bool

    /// What `load` found: each line's body (checksum verified, without the
    /// ` *crc`) or nil for a damaged line, in order, and the size of a torn
    /// tail that was cut off (0 if none).
    struct Contents {
        var lines: [ArraySlice<UInt8>?]
        var tornBytes: Int
    }

    /// The file's records as `decode` reads its lines, with what was lost
    /// said in `problems` (for the log): a torn last line, and each line that
    /// is damaged or that `decode` refuses (`file` names the file in those
    /// sentences, `consequence` says what such a line costs).
    func loadRecords<Record>(file: String, consequence: String,
                             decode: (ArraySlice<UInt8>) -> Record?) throws(RoomStoreError) -> (records: [Record], problems: [String]) {
        let contents = try load()
        var records: [Record] = [], problems: [String] = []
        if contents.tornBytes > 0 { problems.append("\(file) file ends in a torn line (\(contents.tornBytes) bytes); cut off") }
        for (i, line) in contents.lines.enumerated() {
            guard let record = line.flatMap(decode) else {
                problems.append("\(file) line \(i + 1) is damaged; \(consequence)")
                continue
            }
            records.append(record)
        }
        return (records, problems)
    }

    /// Reads the file (absent: empty), cutting off a torn last line.
    func load() throws(RoomStoreError) -> Contents {
        let path = path, sync = sync
        let bytes = try onPath(path) { () throws(Errno) in try FileSystem.readFileIfPresent(path) } ?? []
        let complete = (bytes.lastIndex(of: 10).map { $0 + 1 }) ?? 0
        if complete < bytes.count {
            try onPath(path) { () throws(Errno) in
                let fd = try FileDescriptor.open(path, FileOpenOptions(access: .writeOnly))
                defer { try? fd.close() }
                try fd.truncate(to: Int64(complete))
                if sync { try fd.sync() }
            }
        }
        let lines = bytes[..<complete].split(separator: 10, omittingEmptySubsequences: false).dropLast().map(Self.verify)
        return Contents(lines: lines, tornBytes: bytes.count - complete)
    }

    /// Appends one line (its checksum added) and syncs it unless told not to.
    func append(_ body: String) throws(RoomStoreError) {
        try append(body, syncing: sync)
    }

    /// Appends one line (its checksum added) without syncing it: the caller
    /// syncs a turn's lines at once (`syncAppended`) before anything they
    /// record is acknowledged. Written through `device` (tests count and fail it).
    func appendUnsynced(_ body: String, device: StorageDevice) throws(RoomStoreError) {
        let line = Self.line(body), path = path
        try onPath(path) { () throws(Errno) in
            let fd = try FileDescriptor.open(path, FileOpenOptions(access: .writeOnly, create: true, append: true))
            defer { try? fd.close() }
            try device.write(line, to: fd, path: path)
        }
    }

    /// Makes every line appended so far durable (nothing when the file does
    /// not sync): one `fdatasync`, whatever the number of lines.
    func syncAppended(device: StorageDevice) throws(RoomStoreError) {
        guard sync else { return }
        let path = path
        try onPath(path) { () throws(Errno) in
            let fd = try FileDescriptor.open(path, FileOpenOptions(access: .writeOnly))
            defer { try? fd.close() }
            try device.dataSync(fd, path: path)
        }
    }

    private func append(_ body: String, syncing: Bool) throws(RoomStoreError) {
        let line = Self.line(body), path = path
        try onPath(path) { () throws(Errno) in
            let fd = try FileDescriptor.open(path, FileOpenOptions(access: .writeOnly, create: true, append: true))
            defer { try? fd.close() }
            try fd.writeAll(line)
            if syncing { try fd.sync() }
        }
    }

    /// One line's bytes: the body, ` *<crc32>` and a newline.
    private static func line(_ body: String) -> [UInt8] {
        var line = Array(body.utf8)
        let crc = CRC32.checksum(line[...])
        line.append(contentsOf: Array(" *\(hex(crc))\n".utf8))
        return line
    }

    /// Replaces the whole file with these lines (their checksums added),
    /// atomically: a crash leaves the old file or the new one. For a file
    /// whose later lines supersede earlier ones, written again without them.
    func rewrite(_ bodies: [String], directory: String) throws(RoomStoreError) {
        var bytes: [UInt8] = []
        for body in bodies {
            bytes += Self.line(body)
        }
        let path = path, sync = sync
        try onPath(path) { () throws(Errno) in
            try FileSystem.replaceAtomically(path, with: bytes, temporaryPath: path + ".new", directory: directory, sync: sync)
        }
    }

    private static func hex(_ crc: UInt32) -> String {
        let digits = String(crc, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// The line's body if its checksum holds.
    private static func verify(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let star = line.lastIndex(of: UInt8(ascii: "*")), star > line.startIndex + 1,
              line[star - 1] == UInt8(ascii: " "), line.endIndex - star == 9,
              let stored = UInt32(String(decoding: line[(star + 1)...], as: UTF8.self), radix: 16),
              CRC32.checksum(line[..<(star - 1)]) == stored else { return nil }
        return line[..<(star - 1)]
    }
}
