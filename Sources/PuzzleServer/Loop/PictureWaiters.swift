import PuzzleProtocol

/// The connections whose PICTURE waits for a room's picture to be encoded
/// off the loop (`PictureEncoding`), by what is encoded: one job however
/// many ask at once (a room's players all ask for its picture as they
/// join; fifty jobs of 20 ms each would keep the last asker a second).
///
/// Not thread-safe: owned by the server's event loop.
struct PictureWaiters {
    /// What one encoding makes: a room's picture, as it is now, in one format.
    struct Key: Hashable {
        let room: String
        let format: PictureFormat
        let hash: String
    }

    private var waiting: [Key: [UInt64]] = [:]

    /// Connection `token` waits for `key`: true when no one did yet, and a
    /// job is to be started for it.
    mutating func wait(_ token: UInt64, for key: Key) -> Bool {
        if waiting[key] != nil {
            waiting[key]!.append(token)
            return false
        }
        waiting[key] = [token]
        return true
    }

    /// The job for `key` is done: the connections that waited for it, in
    /// the order they asked.
    mutating func done(_ key: Key) -> [UInt64] {
        waiting.removeValue(forKey: key) ?? []
    }
}
