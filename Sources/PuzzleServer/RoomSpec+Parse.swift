extension RoomSpec {
    /// Parses `NAME KIND ROWSxCOLS [picture=NAME] [rotation=on|off] [password=SECRET]`.
    ///
    /// Fields are separated by spaces or tabs. NAME is `[A-Za-z0-9_-]{1,32}`, KIND is
    /// `jigsaw` or `swap`, ROWS and COLS are each in 2...100. Options may come in any
    /// order, each at most once. `rotation=on` is only accepted for jigsaw rooms:
    /// a swap tile is always upright. The password may hold any non-blank characters
    /// (up to 64 bytes) except control characters, and therefore cannot contain spaces.
    ///
    /// Errors carry no line number; the config parser adds it.
    public static func parse(_ text: String) throws(ConfigError) -> RoomSpec {
        let spec = text.configTrimmed()
        func fail(_ reason: String) -> ConfigError {
            ConfigError(.badRoomSpec(spec: spec, reason: reason))
        }

        let fields = spec.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 3 else {
            throw fail("expected NAME KIND ROWSxCOLS [picture=NAME] [rotation=on|off] [password=SECRET]")
        }

        let name = String(fields[0])
        guard isValidName(name) else {
            throw fail("room name \"\(name)\" must be 1 to \(maxNameLength) of A-Z a-z 0-9 _ -")
        }

        guard let kind = RoomKindSetting(rawValue: String(fields[1])) else {
            throw fail("kind \"\(fields[1])\" must be jigsaw or swap")
        }

        let (rows, cols) = try parseSize(fields[2], fail: fail)

        var room = RoomSpec(name: name, kind: kind, rows: rows, cols: cols)
        var seen: Set<Substring> = []
        for option in fields.dropFirst(3) {
            guard let equals = option.firstIndex(of: "=") else {
                throw fail("option \"\(option)\" must look like key=value")
            }
            let key = option[..<equals]
            let value = option[option.index(after: equals)...]
            guard seen.insert(key).inserted else {
                throw fail("option \"\(key)\" given twice")
            }
            switch key {
            case "picture":
                guard isValidName(value) else {
                    throw fail("picture name \"\(value)\" must be 1 to \(maxNameLength) of A-Z a-z 0-9 _ -")
                }
                room.picture = String(value)
            case "rotation":
                switch value {
                case "on": room.rotation = true
                case "off": room.rotation = false
                default: throw fail("rotation must be on or off, not \"\(value)\"")
                }
            case "password":
                guard !value.isEmpty, value.utf8.count <= maxPasswordLength else {
                    throw fail("password must be 1 to \(maxPasswordLength) bytes")
                }
                // A CR or LF could not be stored on the snapshot's password line, and a
                // trailing CR would be trimmed off when the description is read back.
                guard !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7f }) else {
                    throw fail("password must not contain control characters")
                }
                room.password = String(value)
            default:
                throw fail("unknown option \"\(key)\" (known: picture, rotation, password)")
            }
        }

        if room.rotation && room.kind == .swap {
            throw fail("rotation=on is only for jigsaw rooms")
        }
        return room
    }

    private static func parseSize(
        _ field: Substring,
        fail: (String) -> ConfigError
    ) throws(ConfigError) -> (rows: Int, cols: Int) {
        let parts = field.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
            let rows = Int(parts[0]), let cols = Int(parts[1])
        else {
            throw fail("size \"\(field)\" must be ROWSxCOLS, e.g. 4x4")
        }
        guard sizeRange.contains(rows), sizeRange.contains(cols) else {
            throw fail("size \(field) out of range: rows and cols must each be \(sizeRange.lowerBound)...\(sizeRange.upperBound)")
        }
        return (rows, cols)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and carriage returns.
    func configTrimmed() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }),
            let last = lastIndex(where: { !isBlank($0) })
        else {
            return ""
        }
        return String(self[first...last])
    }
}
