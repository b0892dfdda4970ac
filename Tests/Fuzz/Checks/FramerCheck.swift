import PuzzleCore
import PuzzleProtocol

/// However the stream is cut into reads, the framer must return the same lines
/// (over-long lines may be reported with a different length, since the framer
/// gives up on them as soon as it sees too much), the same as a plain reference
/// split, and never keep more than one line's worth of bytes after draining.
///
/// Input: byte 0 sets the line limit (0...63, small so over-long lines are
/// common), byte 1 seeds the read sizes, the rest is the stream.
enum FramerCheck {
    enum Frame: Equatable, CustomStringConvertible {
        case line([UInt8])
        case overlong

        var description: String {
            switch self {
            case .line(let bytes): return "line \"\(bytes.escaped)\""
            case .overlong: return "overlong"
            }
        }
    }

    static func run(_ input: [UInt8]) throws(FuzzFailure) {
        guard input.count >= 2 else { return }
        let limit = Int(input[0] % 64)
        let stream = Array(input[2...])

        let reference = referenceFrames(stream, limit: limit)
        var wholeReads: SeededGenerator? = nil
        let whole = try frames(of: stream, limit: limit, readSizes: &wholeReads)
        try require(whole.map(\.frame) == reference, .framer, "whole stream gives \(whole.map(\.frame)), reference split gives \(reference) (limit \(limit))")
        for (frame, length) in whole where frame == .overlong {
            try require(length > limit, .framer, "over-long report of \(length) bytes under the limit \(limit)")
        }

        var randomReads: SeededGenerator? = SeededGenerator(seed: UInt64(input[1]) &* 0x9E37_79B9 &+ UInt64(stream.count))
        let split = try frames(of: stream, limit: limit, readSizes: &randomReads)
        try require(split.map(\.frame) == reference, .framer, "random reads give \(split.map(\.frame)), whole stream gives \(reference) (limit \(limit))")
        for (frame, length) in split where frame == .overlong {
            try require(length > limit, .framer, "over-long report of \(length) bytes under the limit \(limit) (random reads)")
        }

        // In place (`split`, the client's and the bots' way), in the same random reads.
        var inPlaceReads: SeededGenerator? = SeededGenerator(seed: UInt64(input[1]) &* 0x9E37_79B9 &+ UInt64(stream.count))
        let inPlace = try framesInPlace(of: stream, limit: limit, readSizes: &inPlaceReads!)
        try require(inPlace.map(\.frame) == reference, .framer, "split in place gives \(inPlace.map(\.frame)), reference split gives \(reference) (limit \(limit))")
        try require(inPlace.map(\.length) == split.map(\.length), .framer, "split in place reports lengths \(inPlace.map(\.length)), next() \(split.map(\.length))")
    }

    /// Feeds the stream to `split` in reads of random sizes (0...17 bytes),
    /// each read's bytes spoilt after the call (lines are valid only during it).
    static func framesInPlace(of stream: [UInt8], limit: Int, readSizes: inout SeededGenerator) throws(FuzzFailure) -> [(frame: Frame, length: Int)] {
        var framer = LineFramer(maxLineLength: limit)
        var out: [(Frame, Int)] = []
        var offset = 0
        repeat {
            var chunk = Array(stream[offset..<min(stream.count, offset + Int(readSizes.next() % 18))])
            offset += chunk.count
            chunk.withUnsafeMutableBytes { raw in
                framer.split(UnsafeRawBufferPointer(raw)) { span in
                    switch span {
                    case .line(let bytes): out.append((.line(Array(bytes)), bytes.count))
                    case .overlong(let length): out.append((.overlong, length))
                    }
                    return true
                }
                for i in raw.indices { raw[i] = 0x0A }
            }
            try require(framer.bufferedByteCount <= limit + 1, .framer, "\(framer.bufferedByteCount) bytes held after a read split in place, limit \(limit)")
        } while offset < stream.count
        return out
    }

    /// Feeds the stream in reads of random sizes (0...17 bytes, alternating the
    /// two `append` overloads), or whole when `readSizes` is nil, draining after each.
    static func frames(of stream: [UInt8], limit: Int, readSizes: inout SeededGenerator?) throws(FuzzFailure) -> [(frame: Frame, length: Int)] {
        var framer = LineFramer(maxLineLength: limit)
        var out: [(Frame, Int)] = []
        var offset = 0
        var useRawAppend = false
        repeat {
            let size = readSizes != nil ? Int(readSizes!.next() % 18) : stream.count
            let chunk = stream[offset..<min(stream.count, offset + size)]
            offset += chunk.count
            if useRawAppend { chunk.withUnsafeBytes { framer.append($0) } } else { framer.append(chunk) }
            useRawAppend.toggle()
            while let frame = framer.next() {
                switch frame {
                case .line(let bytes):
                    try require(bytes.count <= limit && !bytes.contains(UInt8(ascii: "\n")), .framer, "line over the limit \(limit) or with an LF: \"\(bytes.escaped)\"")
                    out.append((.line(Array(bytes)), bytes.count))
                case .overlong(let length): out.append((.overlong, length))
                }
            }
            // Memory stays bounded: what is left is part of one line, within the
            // limit plus a CR that may start a CRLF.
            try require(framer.bufferedByteCount <= limit + 1, .framer, "\(framer.bufferedByteCount) bytes buffered after draining, limit \(limit)")
        } while offset < stream.count
        return out
    }

    /// The framing rules written as plainly as possible: split at LF, drop one
    /// CR before it, lines over the limit are reported; an unterminated tail
    /// counts only once it is over the limit (not counting a final CR).
    static func referenceFrames(_ stream: [UInt8], limit: Int) -> [Frame] {
        var frames: [Frame] = []
        var pieces = stream.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let tail = pieces.removeLast()
        for var line in pieces {
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            frames.append(line.count > limit ? .overlong : .line(Array(line)))
        }
        let tailLength = tail.count - (tail.last == UInt8(ascii: "\r") ? 1 : 0)
        if tailLength > limit { frames.append(.overlong) }
        return frames
    }
}
