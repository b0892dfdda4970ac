import PuzzleCore

extension Request {
    /// Parses the requests that make up nearly all traffic under load (`DRAG`,
    /// `GRAB`, `DROP`, `RELEASE`, `ROTATE` in their plain upper-case form with
    /// single spaces) straight from bytes, without building strings. Returns nil
    /// for anything else, including every malformed line: the caller then uses
    /// `parse(_:)`, which gives the same result for everything this accepts
    /// and the proper error for the rest.
    public static func parseHot(_ line: UnsafeRawBufferPointer) -> Request? {
        let n = line.count
        guard n >= 4 else { return nil }
        var i = 0
        // Numbers separated by single spaces after the verb; at most three.
        var values: (Int, Int, Int) = (0, 0, 0)
        var count = 0
        @inline(__always) func word(_ s: StaticString) -> Bool {
            s.withUTF8Buffer { p in
                guard n >= p.count else { return false }
                for k in 0..<p.count where line[k] != p[k] { return false }
                return true
            }
        }
        let verb: UInt8
        if word("DRAG") { verb = 1; i = 4 }
        else if word("GRAB") { verb = 2; i = 4 }
        else if word("DROP") { verb = 3; i = 4 }
        else if word("RELEASE") { verb = 4; i = 7 }
        else if word("ROTATE") { verb = 5; i = 6 }
        else { return nil }
        while i < n {
            guard line[i] == 0x20, count < 3 else { return nil }
            i += 1
            var negative = false
            if i < n && line[i] == UInt8(ascii: "-") { negative = true; i += 1 }
            let start = i
            var v = 0
            while i < n, line[i] >= 0x30, line[i] <= 0x39 {
                v = v * 10 + Int(line[i] - 0x30)
                i += 1
                // Long numbers go to the full parser, which reports them.
                if i - start > 6 { return nil }
            }
            guard i > start else { return nil }
            if negative { v = -v }
            switch count {
            case 0: values.0 = v
            case 1: values.1 = v
            default: values.2 = v
            }
            count += 1
        }
        switch (verb, count) {
        case (1, 3) where values.0 >= 0: return .drag(values.0, Point(x: values.1, y: values.2))
        case (1, 2): return .drag(nil, Point(x: values.0, y: values.1))
        case (2, 1) where values.0 >= 0: return .grab(values.0)
        case (3, 0): return .drop(nil)
        case (3, 1) where values.0 >= 0: return .drop(values.0)
        case (4, 0): return .release(nil)
        case (4, 1) where values.0 >= 0: return .release(values.0)
        case (5, 0): return .rotate(nil)
        case (5, 1) where values.0 >= 0: return .rotate(values.0)
        default: return nil
        }
    }
}
