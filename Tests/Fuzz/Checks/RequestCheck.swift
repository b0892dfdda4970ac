import PuzzleProtocol

/// The server parses request bytes (`Request.parse(bytes)`, which tries the
/// byte-level hot path first); clients and docs think in text
/// (`Request.parse(String)`). For any one line both must give the same result,
/// and every request must survive being written as a line and read back.
enum RequestCheck {
    /// The codes a parse failure may carry (PROTOCOL.md, "Which error wins":
    /// the line, the verb, the arguments; CREATE's size and picture name are
    /// argument checks too).
    static let parseErrorCodes: Set<ErrorCode> = [.unknownVerb, .badArgs, .badNumber, .badName, .badSize, .badPicture,
                                                  .badUTF8, .nulByte]

    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        // The framer never hands the parser an LF: check each line of the input.
        for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            try checkLine(Array(line))
        }
    }

    static func checkLine(_ line: [UInt8]) throws(FuzzFailure) {
        let fromBytes = Request.parse(line)
        let fromText: Result<Request, ProtocolError>?
        if line.contains(0) {
            fromText = .failure(.nulByte)
        } else if let text = String(validating: line, as: UTF8.self) {
            fromText = Request.parse(text)
        } else {
            fromText = .failure(.badUTF8)
        }
        try require(fromBytes == fromText, .request, "byte parser says \(String(describing: fromBytes)), text parser says \(String(describing: fromText)) for \"\(line.escaped)\"")

        let hot = line.withUnsafeBytes { Request.parseHot($0) }
        if let hot {
            try require(fromText == .success(hot), .request, "hot path says \(hot), text parser says \(String(describing: fromText)) for \"\(line.escaped)\"")
        }
        switch fromBytes {
        case .success(let request):
            let again = Request.parse(Array(request.line.utf8))
            try require(again == .success(request), .request, "\(request) is written \"\(request.line)\", which parses as \(String(describing: again)) (from \"\(line.escaped)\")")
        case .failure(let error):
            try require(parseErrorCodes.contains(error.code), .request, "undocumented parse error \(error) for \"\(line.escaped)\"")
        case nil:
            try require(line.allSatisfy { $0 == UInt8(ascii: " ") }, .request, "no request and no error for \"\(line.escaped)\"")
        }
    }
}
