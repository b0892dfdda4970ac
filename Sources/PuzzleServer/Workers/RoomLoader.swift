import Foundation
import PuzzleSystem

/// Loads the rooms found on disk at start-up on a thread of its own, one at
/// a time, while the loop already answers: a server with a thousand big
/// rooms answers its first PING at once instead of after every room is read
/// (issue 31), and a room someone asks for (`hurry`) is loaded next.
///
/// The thread reads through a `RoomStore` of its own (`RoomStore.load`),
/// which touches only the files of the room it loads; the loop hosts no
/// room of those names meanwhile (`RoomDirectory.loading`), so no file is
/// used by both. Each loaded room is handed over whole (`collect`), with its
/// open journal: the loop never sees a half-loaded room.
///
/// `hurry`, `collect` and `stop` belong to the loop's thread.
final class RoomLoader: @unchecked Sendable {
    private let store: RoomStore
    private let waker: Waker
    /// Guards everything below it.
    private let condition = NSCondition()
    /// Names still to load, in order; `urgent` ones go first.
    private var queue: [String]
    private var urgent: [String] = []
    private var finished: [LoadedRoom] = []
    private var stopping = false
    private var running = false

    /// Readable while a loaded room waits to be collected.
    var descriptor: FileDescriptor { waker.descriptor }

    /// Starts loading `names` (in this order) through `store`. `now` gives the
    /// server's monotonic time as each room starts loading (the moment its
    /// stored clock is mapped to).
    init(names: [String], store: RoomStore, now: @escaping @Sendable () -> Int64) throws(Errno) {
        self.store = store
        queue = names
        waker = try Waker()
        guard !names.isEmpty else { return }
        running = true
        let thread = Thread { [self] in
            // Players already in yield nothing to rooms still loading.
            try? ThreadPriority.lowerCurrentThread(nice: backgroundNice)
            while let name = next() {
                let loaded = self.store.load(name, now: now())
                condition.lock()
                finished.append(loaded)
                condition.unlock()
                waker.wake()
            }
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "room-loader"
        thread.start()
    }

    deinit {
        stop()
        try? waker.close()
    }

    /// The next name to load, or nil once all are (or the loader stops).
    private func next() -> String? {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return nil }
        if !urgent.isEmpty { return urgent.removeFirst() }
        return queue.isEmpty ? nil : queue.removeFirst()
    }

    /// Loads `name` before the others still waiting (someone wants in);
    /// nothing when it is loading or loaded already.
    func hurry(_ name: String) {
        condition.lock()
        defer { condition.unlock() }
        guard let i = queue.firstIndex(of: name) else { return }
        queue.remove(at: i)
        urgent.append(name)
    }

    /// The rooms loaded since the last call, in the order they were; leaves
    /// `descriptor` unreadable until another is.
    func collect() -> [LoadedRoom] {
        _ = try? waker.drain()
        condition.lock()
        defer { condition.unlock() }
        let done = finished
        finished.removeAll()
        return done
    }

    /// Loads no more rooms and returns once the one loading (if any) is done:
    /// after this, the loader touches no file. Rooms loaded and not collected
    /// have their journals closed; the rest stay on disk as they were.
    func stop() {
        condition.lock()
        stopping = true
        while running { condition.wait() }
        let abandoned = finished
        finished.removeAll()
        condition.unlock()
        for loaded in abandoned { loaded.closeJournal() }
    }
}
