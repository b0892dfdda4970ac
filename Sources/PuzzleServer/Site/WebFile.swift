import CWebPage
import PuzzleWeb

/// One file the server sends to browsers, with what caching needs.
public struct WebFile: Sendable, Equatable {
    public let contentType: String
    public let bytes: [UInt8]
    /// A strong validator: the file's SHA-1, so it changes exactly when the bytes do.
    public let etag: String
    public let cacheControl: String

    /// Browsers keep the page's files but ask again each time (`no-cache`),
    /// answered 304 while unchanged: a new server build shows at the next load.
    public init(contentType: String, bytes: [UInt8], cacheControl: String = "no-cache") {
        self.contentType = contentType
        self.bytes = bytes
        self.cacheControl = cacheControl
        etag = "\"" + SHA1.hash(bytes).prefix(12).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\""
    }

    /// The page's files built into the binary (`Sources/CWebPage/Page`), and
    /// its error texts (`PageErrorTexts`), by URL path.
    public static let page: [String: WebFile] = {
        var files: [String: WebFile] = [:]
        for i in 0..<cwebpage_count() {
            let file = cwebpage_file(i)
            let name = String(cString: file.name)
            let bytes = Array(UnsafeBufferPointer(start: file.bytes, count: file.count))
            files[name == "index.html" ? "/" : "/" + name] = WebFile(contentType: contentType(of: name), bytes: bytes)
        }
        // Written from the server's own table, not embedded: the page's error texts have one source.
        files[PageErrorTexts.path] = WebFile(contentType: contentType(of: PageErrorTexts.path), bytes: Array(PageErrorTexts.script.utf8))
        return files
    }()

    static func contentType(of name: String) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        if name.hasSuffix(".png") { return "image/png" }
        return "application/octet-stream"
    }

    /// The 200 response with this file, or 304 when the browser's copy
    /// (`If-None-Match`) is this one.
    public func response(to head: HTTPRequestHead) -> HTTPResponse {
        var headers = HTTPHeaders([("ETag", etag), ("Cache-Control", cacheControl)])
        let tags = head.headers.tokens("If-None-Match")
        if tags.contains(etag) || tags.contains("*") {
            // The file goes along for its length alone (`HTTPResponse.body`).
            return HTTPResponse(status: .notModified, headers: headers, body: bytes)
        }
        headers.add("Content-Type", contentType)
        var response = HTTPResponse(status: .ok, headers: headers, body: bytes)
        response.isHead = head.method == "HEAD"
        return response
    }
}
