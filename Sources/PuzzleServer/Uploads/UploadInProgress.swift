/// A connection's upload between its go-ahead (`OK upload`) and its last
/// DATA line: what was announced and what has arrived.
struct UploadInProgress {
    let name: String
    /// The size announced by `UPLOAD` (at most `upload_max_bytes`).
    let expected: Int
    /// After this (server clock, ms) the upload is given up.
    let deadline: Int64
    /// The bytes so far (never more than `expected`).
    var bytes: [UInt8] = []
    /// DATA lines taken so far: with none, an upload given up needs no reply.
    var lines = 0
    /// Given up (its reply sent, if it needed one): later DATA lines of it
    /// are read and dropped without replies, until any other line.
    var discarding = false
    /// Given up before its first DATA line (its time ran out): a DATA line
    /// that still comes gets the reply the upload's lines are owed, once.
    var owesReply = false
    /// Why it was given up, for that late reply.
    var abortedBecause = ""

    /// How long an upload may take from its go-ahead to its last byte.
    static let timeLimitMillis: Int64 = 120_000
    /// Uploads open at once on the whole server (receiving, or being decoded
    /// and stored): with `upload_max_bytes` they bound what uploads hold in memory.
    static let openAtOnce = 4
}
