import PuzzleCore
import PuzzleWeb
/// Readers for the value shapes config keys share. Strict on purpose: a typo in a
/// config file should stop the server at start-up, not run it with a surprise.
enum ConfigValue {
    /// A decimal integer: optional `-`, then digits only (no `+`, spaces or `0x`).
    static func integer(_ text: some StringProtocol) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int(String(text))
    }

    /// A byte count: a non-negative integer with an optional binary suffix
    /// `K`/`KiB` (×1024) or `M`/`MiB` (×1048576).
    static func bytes(_ text: String) -> Int? {
        let suffixes: [(String, Int)] = [("KiB", 1 << 10), ("MiB", 1 << 20), ("K", 1 << 10), ("M", 1 << 20)]
        var number = Substring(text)
        var scale = 1
        for (suffix, multiplier) in suffixes where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            scale = multiplier
            break
        }
        guard !number.hasPrefix("-"), let count = integer(number) else {
            return nil
        }
        let (product, overflow) = count.multipliedReportingOverflow(by: scale)
        return overflow ? nil : product
    }

    /// A byte count the way a person would write it: `64KiB`, `1MiB`, or plain bytes.
    static func renderBytes(_ count: Int) -> String {
        if count > 0, count % (1 << 20) == 0 {
            return "\(count >> 20)MiB"
        }
        if count > 0, count % (1 << 10) == 0 {
            return "\(count >> 10)KiB"
        }
        return String(count)
    }

    /// The value of a `picture` line: `NAME PATH`, where PATH is the rest of the
    /// line and may contain spaces.
    static func picture(_ text: String, key: String) throws(ConfigError) -> (name: String, path: String) {
        let trimmed = text.configTrimmed()
        guard let gap = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            throw ConfigError(.badValue(key: key, value: text, expected: "NAME PATH, e.g. \"harbour pictures/harbour.ppm\""))
        }
        let name = String(trimmed[..<gap])
        let path = trimmed[gap...].configTrimmed()
        guard NameRule.isValid(name) else {
            throw ConfigError(.badValue(key: key, value: text, expected: "a picture name (\(NameRule.summary)) before the path"))
        }
        return (name, path)
    }

    /// `path` as seen from the working directory when written relative to `base`.
    static func resolve(_ path: String, against base: String) -> String {
        if path.hasPrefix("/") || base.isEmpty {
            return path
        }
        return base.hasSuffix("/") ? base + path : base + "/" + path
    }

    /// Whether `text` is an IPv4 dotted quad or an IPv6 literal (RFC 4291 text
    /// forms, including `::` compression and a trailing dotted quad). Host names
    /// are refused: the server binds without a resolver.
    static func isIPLiteral(_ text: String) -> Bool {
        isIPv4(Substring(text)) || isIPv6(text)
    }

    private static func isIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let value = Int(part), value <= 255
            else {
                return false
            }
            // A leading zero reads as octal to some tools; refuse the ambiguity.
            return part.count == 1 || part.first != "0"
        }
    }

    private static func isIPv6(_ text: String) -> Bool {
        guard text.contains(":") else {
            return false
        }
        let compression = text.firstRange(of: "::")
        let halves: [Substring]
        if let compression {
            halves = [text[..<compression.lowerBound], text[compression.upperBound...]]
            guard !halves[1].contains("::") else {
                return false
            }
        } else {
            halves = [text[...]]
        }
        func groups(_ half: Substring) -> [Substring] {
            half.isEmpty ? [] : half.split(separator: ":", omittingEmptySubsequences: false)
        }
        let head = groups(halves[0])
        let tail = halves.count == 2 ? groups(halves[1]) : []
        var all = head + tail
        var width = 0
        if let last = all.last, last.contains(".") {
            guard isIPv4(last), !text.hasSuffix(":") else {
                return false
            }
            all.removeLast()
            width = 2
        }
        let hex = all.allSatisfy { group in
            (1...4).contains(group.count) && group.allSatisfy(\.isHexDigit)
        }
        width += all.count
        return hex && (halves.count == 2 ? width <= 7 : width == 8)
    }

    /// `web_origins`: `same`, `any`, or one or more origins
    /// (`http://host[:port]`, lowercase scheme http or https, no path)
    /// separated by spaces or commas.
    static func webOrigins(_ text: String) -> WebSocketOriginPolicy? {
        switch text {
        case "same": return .sameHost
        case "any": return .any
        default:
            let origins = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            guard !origins.isEmpty else { return nil }
            for origin in origins {
                let rest = origin.hasPrefix("http://") ? origin.dropFirst(7) : origin.hasPrefix("https://") ? origin.dropFirst(8) : nil
                guard let rest, !rest.isEmpty, !rest.contains("/") else { return nil }
            }
            return .list(origins)
        }
    }

    static func render(_ policy: WebSocketOriginPolicy) -> String {
        switch policy {
        case .sameHost: "same"
        case .any: "any"
        case .list(let origins): origins.joined(separator: " ")
        }
    }
}
