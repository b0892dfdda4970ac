import Dispatch
import Foundation
import PuzzleCore
import PuzzleImages
import PuzzleProtocol
import PuzzleSystem

/// Checks, decodes and stores uploaded pictures on a thread of its own: a
/// 12-megapixel JPEG takes a few hundred milliseconds to decode and a 10 MiB
/// file's fsync some more, which the event loop must not spend while players
/// drag. One job at a time (a serial queue): uploads never take more than
/// one core and one decode's memory. A finished job is collected by the
/// loop, woken through `descriptor` (registered with its epoll set).
final class UploadWorker: @unchecked Sendable {
    /// What a job found: the picture stored (its record still to be written,
    /// on the loop), or why not.
    struct Finished: Sendable {
        var token: UInt64
        var name: String
        var outcome: Result<Stored, ProtocolError>
    }

    struct Stored: Sendable {
        var entry: UploadStore.Entry
        /// The picture as the library keeps it (at most `PictureLibrary.keptSide` a side).
        var image: RGBImage
        /// The decoded picture's size, upright (EXIF orientation applied).
        var width: Int
        var height: Int
    }

    private let queue = DispatchQueue(label: "puzzle.uploads", qos: .utility)
    private let waker: Waker
    private let lock = NSLock()
    /// Finished jobs not yet collected (guarded by `lock`).
    private var finished: [Finished] = []
    /// Jobs started and not yet collected (loop thread only).
    private(set) var inFlight = 0

    var descriptor: FileDescriptor { waker.descriptor }

    init() throws(Errno) {
        waker = try Waker()
    }

    // Jobs hold the worker, so the eventfd closes only after the last one has written to it.
    deinit { try? waker.close() }

    /// Starts checking and storing `bytes` as picture `name` for connection
    /// `token`. `existing`: what the name means already, if anything: other
    /// content is refused before it is written.
    func start(token: UInt64, name: String, bytes: [UInt8], existing: UploadStore.Entry?, limits: ImageLimits,
               picturesDirectory: String, sync: Bool) {
        inFlight += 1
        queue.async { [self] in
            let outcome = Self.store(bytes, name: name, existing: existing, limits: limits, picturesDirectory: picturesDirectory, sync: sync)
            lock.lock()
            finished.append(Finished(token: token, name: name, outcome: outcome))
            lock.unlock()
            waker.wake()
        }
    }

    /// The jobs finished since the last call (loop thread).
    func collect() -> [Finished] {
        _ = try? waker.drain()
        lock.lock()
        let done = finished
        finished.removeAll()
        lock.unlock()
        inFlight -= done.count
        return done
    }

    /// Decodes first (nothing undecodable is ever written), then writes the
    /// file by its content's hash, synced.
    static func store(_ bytes: [UInt8], name: String, existing: UploadStore.Entry?, limits: ImageLimits, picturesDirectory: String,
                      sync: Bool) -> Result<Stored, ProtocolError> {
        let format = ImageFormat.sniff(bytes)
        guard format == .png || format == .jpeg else {
            return .failure(.badPicture("an uploaded picture is a PNG or a JPEG file; this is \(format.map { "a \($0.rawValue) file" } ?? "neither")"))
        }
        let image: RGBImage
        let kept: RGBImage
        do {
            image = try ImageDecoder.decode(bytes, limits: limits)
            kept = try PictureLibrary.shrunk(image)
        } catch let error as ImageError {
            return .failure(.badPicture("\(error.code): \(error.message)"))
        } catch {
            return .failure(.badPicture("\(error)"))
        }
        let entry = UploadStore.Entry(sha256: SHA256.hex(bytes), fileExtension: format == .png ? "png" : "jpg", bytes: bytes.count)
        if let existing, existing != entry { return .failure(.pictureExists(name, "uploaded before, with other content")) }
        do {
            try UploadStore.write(bytes, as: entry, in: picturesDirectory, sync: sync)
        } catch {
            return .failure(.storage("the server could not store the picture (\(error)); nothing was stored"))
        }
        UploadStore.writeKept(kept, of: entry, in: picturesDirectory)
        return .success(Stored(entry: entry, image: kept, width: image.width, height: image.height))
    }
}
