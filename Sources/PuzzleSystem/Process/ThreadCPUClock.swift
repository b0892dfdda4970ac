#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_THREAD_CPUTIME_ID: the CPU time the calling thread has used. What a piece of
/// work cost, apart from the time other threads ran meanwhile.
public enum ThreadCPUClock {
    /// Nanoseconds of CPU this thread has used.
    public static var nowNanoseconds: UInt64 {
        var time = timespec()
        _ = Syscall.clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
