import PuzzleWeb

/// The PNG files lately made of room pictures, newest last: drawing a scene
/// and compressing it takes a while on the event loop, and every browser in
/// a room asks for the same picture at much the same sizes.
struct WebPictureCache {
    /// At most this many files and this many bytes in all.
    static let maxFiles = 16
    static let maxBytes = 32 << 20
    private var entries: [(key: String, file: WebFile)] = []
    private var bytes = 0

    mutating func file(_ key: String) -> WebFile? {
        guard let i = entries.firstIndex(where: { $0.key == key }) else { return nil }
        let hit = entries.remove(at: i)
        entries.append(hit)
        return hit.file
    }

    mutating func keep(_ file: WebFile, as key: String) {
        entries.append((key, file))
        bytes += file.bytes.count
        while entries.count > Self.maxFiles || (bytes > Self.maxBytes && entries.count > 1) {
            bytes -= entries.removeFirst().file.bytes.count
        }
    }
}
