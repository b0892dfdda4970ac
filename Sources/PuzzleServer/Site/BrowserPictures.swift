import PuzzleCore
import PuzzleImages
import PuzzleSystem
import PuzzleWeb

/// Room pictures for browsers (`/picture?room=<name>&w=<width>`): a room's
/// current picture as a PNG `width` pixels wide, its height the board's shape
/// (square pieces); both sides at most 2048 (a tall board gets a narrower
/// picture). Drawn from the scene itself, so as sharp as the size asked for,
/// off the loop (a `BackgroundWorker`: a 2048-pixel PNG takes about a
/// second), and kept for the next browser.
///
/// Owns the worker that draws, the files lately made and the connections waiting for
/// one being drawn; answers with HTTP responses (now, or once `collect`
/// finds them drawn) for the server to send.
///
/// Not thread-safe: owned by the server's event loop.
final class BrowserPictures {
    /// A response drawn for a connection that waited for it.
    struct Delivery {
        let token: UInt64
        let response: HTTPResponse
    }

    /// A connection waiting for a picture being drawn, and what it asked.
    private struct Waiter {
        let token: UInt64
        let head: HTTPRequestHead
    }

    /// One picture to draw and encode, on the worker's thread.
    struct Drawing: Sendable {
        /// The cache's key: the picture's name and size.
        let key: String
        let source: WebPictureSource
        let width: Int
        let height: Int

        /// The PNG, or nil when the source cannot be drawn at this size.
        func run() -> Drawn {
            Drawn(key: key, file: source.picture(width: width, height: height).map { WebFile(contentType: "image/png", bytes: PNGEncoder.encode($0)) })
        }
    }

    /// A drawing done: the file for `key`, or nil if there is none.
    struct Drawn: Sendable {
        let key: String
        let file: WebFile?
    }

    /// Room pictures lately encoded as PNG.
    private var cache = WebPictureCache()
    /// Draws the pictures off the loop.
    private let worker: BackgroundWorker<Drawing, Drawn>
    /// Who waits for each picture being drawn, by its key: a key is here
    /// exactly while its drawing is under way (so it is drawn once, however
    /// many browsers ask meanwhile).
    private var waiters: [String: [Waiter]] = [:]

    /// Readable when the worker finished a picture (`collect`).
    var descriptor: FileDescriptor { worker.descriptor }

    init() throws(Errno) {
        worker = try BackgroundWorker(label: "puzzle.picture-renderer") { $0.run() }
    }

    /// The picture's size for a board of `spec`'s shape asked `width` wide:
    /// the height from the shape, and both sides at most the widest a
    /// browser may ask for (a tall board gets a narrower picture).
    static func size(width: Int, for spec: PuzzleSpec) -> (width: Int, height: Int) {
        let side = WebSite.pictureWidths.upperBound
        var w = width, h = max(1, (width * spec.rows + spec.cols / 2) / spec.cols)
        if h > side {
            h = side
            w = max(1, (side * spec.cols + spec.rows / 2) / spec.rows)
        }
        return (w, h)
    }

    /// The response to a picture request from connection `token` for room
    /// `name` (whose puzzle is `spec`, nil when there is no such room, or no
    /// such puzzle kept: `missing` says which): now
    /// when cached or refused, else nil, and the connection waits for
    /// `collect` to deliver it.
    func response(room name: String, spec: PuzzleSpec?, missing: String? = nil, width: Int, head: HTTPRequestHead, token: UInt64,
                  pictures: PictureLibrary) -> HTTPResponse? {
        guard let spec else { return Self.answer(.error(HTTPError(.notFound, missing ?? "no room named '\(name)'")), to: head) }
        let (w, h) = Self.size(width: width, for: spec)
        let key = "\(spec.picture) \(w)x\(h)"
        if let file = cache.file(key) { return Self.answer(file.response(to: head), to: head) }
        guard let source = pictures.webPictureSource(spec.picture) else {
            return Self.answer(.error(HTTPError(.notFound, "room '\(name)' has no picture to show")), to: head)
        }
        let underWay = waiters[key] != nil
        waiters[key, default: []].append(Waiter(token: token, head: head))
        if !underWay { worker.start(Drawing(key: key, source: source, width: w, height: h)) }
        return nil
    }

    /// The pictures the worker finished, kept for the next browser, as
    /// responses for every connection that waited for them.
    func collect() -> [Delivery] {
        var deliveries: [Delivery] = []
        for drawn in worker.collect() {
            let key = drawn.key, file = drawn.file
            if let file { cache.keep(file, as: key) }
            for waiter in waiters.removeValue(forKey: key) ?? [] {
                let response = file?.response(to: waiter.head) ?? .error(HTTPError(.notFound, "the picture cannot be drawn at that size"))
                deliveries.append(Delivery(token: waiter.token, response: Self.answer(response, to: waiter.head)))
            }
        }
        return deliveries
    }

    /// A HEAD request gets the headers alone.
    private static func answer(_ response: HTTPResponse, to head: HTTPRequestHead) -> HTTPResponse {
        var response = response
        response.isHead = head.method == "HEAD"
        return response
    }
}
