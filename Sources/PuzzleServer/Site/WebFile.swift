import CWebPage
import PuzzleImages
import PuzzleWeb

/// One file the server sends to browsers, with what caching needs.
public struct WebFile: Sendable, Equatable {
    public let contentType: String
    public let bytes: [UInt8]
    /// A strong validator: the file's SHA-1, so it changes exactly when the bytes do.
    public let etag: String
    public let cacheControl: String
    /// The file gzipped (`Content-Encoding: gzip`, for a browser that takes
    /// it), when that is smaller: text, compressed once at start-up.
    public let gzipped: [UInt8]?
    /// The gzipped form's validator: the file's own, marked (another
    /// representation of the same file needs another strong ETag).
    public var gzipEtag: String { String(etag.dropLast()) + "-gz\"" }

    /// Browsers keep the page's files but ask again each time (`no-cache`),
    /// answered 304 while unchanged: a new server build shows at the next load.
    public init(contentType: String, bytes: [UInt8], cacheControl: String = "no-cache") {
        self.contentType = contentType
        self.bytes = bytes
        self.cacheControl = cacheControl
        etag = "\"" + SHA1.hash(bytes).prefix(12).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\""
        let compressible = contentType.hasPrefix("text/") || contentType.hasPrefix("image/svg")
        let packed = compressible ? Gzip.compress(bytes) : []
        gzipped = compressible && packed.count < bytes.count ? packed : nil
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
    /// (`If-None-Match`) is this one; gzipped when the browser takes gzip
    /// (`Accept-Encoding`) and the file has that form.
    public func response(to head: HTTPRequestHead) -> HTTPResponse {
        let packed = gzipped.flatMap { Self.acceptsGzip(head.headers) ? $0 : nil }
        let tag = packed == nil ? etag : gzipEtag
        var headers = HTTPHeaders([("ETag", tag), ("Cache-Control", cacheControl)])
        // Caches between keep the two forms apart.
        if gzipped != nil { headers.add("Vary", "Accept-Encoding") }
        if packed != nil { headers.add("Content-Encoding", "gzip") }
        let body = packed ?? bytes
        let tags = head.headers.tokens("If-None-Match")
        if tags.contains(tag) || tags.contains("*") {
            // The file goes along for its length alone (`HTTPResponse.body`).
            return HTTPResponse(status: .notModified, headers: headers, body: body)
        }
        headers.add("Content-Type", contentType)
        var response = HTTPResponse(status: .ok, headers: headers, body: body)
        response.isHead = head.method == "HEAD"
        return response
    }

    /// Whether `Accept-Encoding` lists gzip (or `*`) with a weight above 0
    /// (RFC 9110 §12.5.3): `gzip;q=0` and `*;q=0` refuse it.
    static func acceptsGzip(_ headers: HTTPHeaders) -> Bool {
        var gzip: Bool?, any: Bool?
        for token in headers.tokens("Accept-Encoding") {
            // Spaces may stand around `;` and `=`; none belongs to a name or weight.
            let parts = token.filter { $0 != " " && $0 != "\t" }.split(separator: ";").map(String.init)
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            switch parts.first {
            case "gzip", "x-gzip": gzip = weight > 0
            case "*": any = weight > 0
            default: break
            }
        }
        return gzip ?? any ?? false
    }
}
