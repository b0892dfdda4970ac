import PuzzleProtocol

extension RoomSpec {
    /// Parses a config file's `room =` value (or `--room`): the words of
    /// `RoomSpec.parse`, separated by spaces or tabs, with its reasons.
    /// Errors carry no line number; the config parser adds it.
    public static func parse(config text: String) throws(ConfigError) -> RoomSpec {
        let spec = text.configTrimmed()
        do {
            return try parse(spec.split(whereSeparator: { $0 == " " || $0 == "\t" }))
        } catch {
            throw ConfigError(.badRoomSpec(spec: spec, reason: error.message))
        }
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
