import Foundation
import PuzzleSystem
@testable import PuzzleServer

/// The real storage calls, except that whole-file writes to paths holding
/// `match` wait until the test opens the gate: a thread writing such a file
/// (the room loader repairing a room) is held there, so that a test can
/// look at the server while that room is still loading. A write is held
/// 30 s at most: a server that loaded rooms before answering would fail
/// the test rather than hang it.
final class GatedStorageDevice: StorageDevice, @unchecked Sendable {
    private let real = SystemStorageDevice()
    private let match: String
    private let condition = NSCondition()
    private var isOpen = false
    private var held = 0

    init(holding match: String) {
        self.match = match
    }

    /// Lets every held write (and every later one) through.
    func open() {
        condition.withLock {
            isOpen = true
            condition.broadcast()
        }
    }

    /// Waits (up to `timeout` seconds) until a write is held at the gate.
    func waitUntilHolding(timeout: Double = 20) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while held == 0 {
            guard condition.wait(until: deadline) else { return held > 0 }
        }
        return true
    }

    func write(_ bytes: [UInt8], to descriptor: FileDescriptor, path: String) throws(Errno) {
        try real.write(bytes, to: descriptor, path: path)
    }

    func dataSync(_ descriptor: FileDescriptor, path: String) throws(Errno) {
        try real.dataSync(descriptor, path: path)
    }

    func syncFileSystem(_ descriptor: FileDescriptor, path: String) throws(Errno) {
        try real.syncFileSystem(descriptor, path: path)
    }

    func writeFile(_ path: String, _ bytes: [UInt8], sync: Bool) throws(Errno) {
        if path.contains(match) {
            condition.lock()
            held += 1
            condition.broadcast()
            let deadline = Date(timeIntervalSinceNow: 30)
            while !isOpen, condition.wait(until: deadline) {}
            held -= 1
            condition.unlock()
        }
        try real.writeFile(path, bytes, sync: sync)
    }
}
