import PuzzleSystem

/// `--websocket` bots: the same connections, loop and sinks as TCP bots, with
/// the bytes framed as a browser's (`WebSocketBotLink`) instead of split at LFs.
extension BotConnections {
    /// Makes `bot` a WebSocket bot: queues its upgrade request, sent before
    /// any line (lines queued meanwhile wait for the `101`).
    func upgrade(_ bot: BenchBot, host: String, port: UInt16) {
        bot.webSocket = WebSocketBotLink(host: host, port: port, seed: UInt64(bot.index) &+ 1)
        markDirty(bot)
    }

    /// Hands each text message in `bytes` (a server line) to `sink`, in place
    /// in the read buffer; carries an incomplete frame to the next read.
    func unframe<Sink: BotLineSink>(_ bot: BenchBot, _ link: WebSocketBotLink, _ bytes: UnsafeRawBufferPointer, lines sink: Sink) {
        var opened = false
        let used: Int
        do {
            used = try link.receive(bytes, opened: &opened) { line in
                sink.handle(bot, line: line)
                return bot.connected
            }
        } catch {
            return disconnected(bot, why: error.description)
        }
        guard bot.connected else { return }
        if used < bytes.count { bot.carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[used...])) }
        // The lines queued while upgrading can go now; so can a pong.
        if opened || bot.hasUnsentOutput { markDirty(bot) }
    }
}
