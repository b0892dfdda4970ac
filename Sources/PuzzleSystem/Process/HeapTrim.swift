#if canImport(Glibc)
import Glibc
#endif

/// Hands memory the allocator holds free back to the system.
public enum HeapTrim {
    /// `malloc_trim(0)`: after a burst of short-lived allocations (reading
    /// and parsing every room's files at start-up) glibc keeps the freed
    /// pages in its heaps, scattered between the long-lived objects, so the
    /// process stays as large as its peak. Trimming releases every free
    /// page. Costs a walk of the heap: call it after such a burst, not in a
    /// hot path. Returns whether any memory was released.
    @discardableResult
    public static func releaseFreeMemory() -> Bool {
        guard let trim = mallocTrim else { return false }
        return trim(0) != 0
    }

    /// glibc's `malloc_trim`, looked up once: `<malloc.h>` is not part of
    /// the Glibc module, so it is found by name (nil on another C library).
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()
}
