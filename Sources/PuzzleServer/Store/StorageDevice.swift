import PuzzleSystem

/// The writes and syncs the room store makes, behind one narrow seam so that
/// tests can make them fail (a full disk, an I/O error) or count them.
/// Reads, renames and directory syncs go straight to the file system.
public protocol StorageDevice: AnyObject, Sendable {
    /// Appends every byte to an open journal (a failed or short write throws).
    func write(_ bytes: [UInt8], to descriptor: FileDescriptor, path: String) throws(Errno)
    /// `fdatasync` of one journal.
    func dataSync(_ descriptor: FileDescriptor, path: String) throws(Errno)
    /// `syncfs` of the file system holding the journals.
    func syncFileSystem(_ descriptor: FileDescriptor, path: String) throws(Errno)
    /// Writes a whole new file (a snapshot, a fresh journal), synced if asked.
    func writeFile(_ path: String, _ bytes: [UInt8], sync: Bool) throws(Errno)
}

/// The real thing: each call is the system call it names.
public final class SystemStorageDevice: StorageDevice {
    public init() {}

    public func write(_ bytes: [UInt8], to descriptor: FileDescriptor, path: String) throws(Errno) {
        try descriptor.writeAll(bytes)
    }

    public func dataSync(_ descriptor: FileDescriptor, path: String) throws(Errno) {
        try descriptor.dataSync()
    }

    public func syncFileSystem(_ descriptor: FileDescriptor, path: String) throws(Errno) {
        try descriptor.syncFileSystem()
    }

    public func writeFile(_ path: String, _ bytes: [UInt8], sync: Bool) throws(Errno) {
        try FileSystem.writeFile(path, bytes, sync: sync)
    }
}
