#if canImport(Glibc)
import Glibc
#endif
import CSystem

/// Every raw C call PuzzleSystem makes, in one place.
///
/// The wrappers keep the C shapes (`-1` + `errno`) so that `retryOnInterrupt`
/// can treat them uniformly; the friendlier types (`FileDescriptor`, `Socket`,
/// `EpollQueue`, ...) are built on top and never call Glibc for I/O directly.
enum Syscall {
    // MARK: Descriptors

    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Glibc.read(fd, buffer, count)
    }

    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        Glibc.write(fd, buffer, count)
    }

    static func close(_ fd: Int32) -> Int32 {
        Glibc.close(fd)
    }

    static func open(_ path: String, _ flags: Int32) -> Int32 {
        Glibc.open(path, flags)
    }

    static func getFlags(_ fd: Int32) -> Int32 {
        Glibc.fcntl(fd, F_GETFL)
    }

    static func setFlags(_ fd: Int32, _ flags: Int32) -> Int32 {
        Glibc.fcntl(fd, F_SETFL, flags)
    }

    // MARK: Sockets

    static func socket(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
        Glibc.socket(domain, type, proto)
    }

    static func socketpair(_ domain: Int32, _ type: Int32, _ proto: Int32,
                           _ fds: UnsafeMutablePointer<Int32>) -> Int32 {
        Glibc.socketpair(domain, type, proto, fds)
    }

    static func setsockopt(_ fd: Int32, _ level: Int32, _ name: Int32,
                           _ value: UnsafeRawPointer, _ length: socklen_t) -> Int32 {
        Glibc.setsockopt(fd, level, name, value, length)
    }

    static func getsockopt(_ fd: Int32, _ level: Int32, _ name: Int32,
                           _ value: UnsafeMutableRawPointer, _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
        Glibc.getsockopt(fd, level, name, value, length)
    }

    static func bind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Glibc.bind(fd, address, length)
    }

    static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 {
        Glibc.listen(fd, backlog)
    }

    static func accept4(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>,
                        _ length: UnsafeMutablePointer<socklen_t>, _ flags: Int32) -> Int32 {
        csystem_accept4(fd, address, length, flags)
    }

    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Glibc.connect(fd, address, length)
    }

    static func getsockname(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>,
                            _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
        Glibc.getsockname(fd, address, length)
    }

    static func getpeername(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>,
                            _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
        Glibc.getpeername(fd, address, length)
    }

    static func shutdown(_ fd: Int32, _ how: Int32) -> Int32 {
        Glibc.shutdown(fd, how)
    }

    static func sendmsg(_ fd: Int32, _ message: UnsafePointer<msghdr>, _ flags: Int32) -> Int {
        Glibc.sendmsg(fd, message, flags)
    }

    static func recv(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        Glibc.recv(fd, buffer, count, flags)
    }

    static func poll(_ fds: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: Int32) -> Int32 {
        Glibc.poll(fds, count, timeout)
    }

    static func inet_pton(_ family: Int32, _ text: String, _ destination: UnsafeMutableRawPointer) -> Int32 {
        Glibc.inet_pton(family, text, destination)
    }

    static func inet_ntop(_ family: Int32, _ source: UnsafeRawPointer,
                          _ destination: UnsafeMutablePointer<CChar>, _ size: socklen_t) -> UnsafePointer<CChar>? {
        Glibc.inet_ntop(family, source, destination, size)
    }

    static func getifaddrs(_ list: UnsafeMutablePointer<UnsafeMutablePointer<ifaddrs>?>) -> Int32 {
        Glibc.getifaddrs(list)
    }

    static func freeifaddrs(_ list: UnsafeMutablePointer<ifaddrs>?) {
        Glibc.freeifaddrs(list)
    }

    // MARK: Event notification

    static func epoll_create1(_ flags: Int32) -> Int32 {
        CSystem.epoll_create1(flags)
    }

    static func epoll_ctl(_ epfd: Int32, _ op: Int32, _ fd: Int32,
                          _ event: UnsafeMutablePointer<epoll_event>?) -> Int32 {
        CSystem.epoll_ctl(epfd, op, fd, event)
    }

    static func epoll_wait(_ epfd: Int32, _ events: UnsafeMutablePointer<epoll_event>,
                           _ maxEvents: Int32, _ timeout: Int32) -> Int32 {
        CSystem.epoll_wait(epfd, events, maxEvents, timeout)
    }

    static func eventfd(_ initial: UInt32, _ flags: Int32) -> Int32 {
        CSystem.eventfd(initial, flags)
    }

    // MARK: Signals

    static func signalfd(_ fd: Int32, _ mask: UnsafePointer<sigset_t>, _ flags: Int32) -> Int32 {
        CSystem.signalfd(fd, mask, flags)
    }

    static func pthread_sigmask(_ how: Int32, _ set: UnsafePointer<sigset_t>?,
                                _ old: UnsafeMutablePointer<sigset_t>?) -> Int32 {
        Glibc.pthread_sigmask(how, set, old)
    }

    static func ignoreSignal(_ signal: Int32) -> Int32 {
        csystem_ignore_signal(signal)
    }

    static func kill(_ pid: Int32, _ signal: Int32) -> Int32 {
        Glibc.kill(pid, signal)
    }

    static func getpid() -> Int32 {
        Glibc.getpid()
    }

    static func raise(_ signal: Int32) -> Int32 {
        Glibc.raise(signal)
    }

    // MARK: Terminals
    // Also called from signal handlers: each is a plain call of an
    // async-signal-safe function, nothing allocated.

    static func isatty(_ fd: Int32) -> Int32 {
        Glibc.isatty(fd)
    }

    static func tcgetattr(_ fd: Int32, _ attributes: UnsafeMutablePointer<termios>) -> Int32 {
        Glibc.tcgetattr(fd, attributes)
    }

    static func tcsetattr(_ fd: Int32, _ when: Int32, _ attributes: UnsafePointer<termios>) -> Int32 {
        Glibc.tcsetattr(fd, when, attributes)
    }

    static func windowSize(_ fd: Int32, _ rows: UnsafeMutablePointer<UInt16>, _ cols: UnsafeMutablePointer<UInt16>) -> Int32 {
        csystem_window_size(fd, rows, cols)
    }

    static func pipe(_ fds: UnsafeMutablePointer<Int32>) -> Int32 {
        Glibc.pipe(fds)
    }

    static func setDescriptorFlags(_ fd: Int32, _ flags: Int32) -> Int32 {
        Glibc.fcntl(fd, F_SETFD, flags)
    }

    /// sigaction(2); named apart because `Glibc.sigaction` spells the struct.
    static func signalAction(_ signal: Int32, _ action: UnsafePointer<sigaction>?,
                             _ previous: UnsafeMutablePointer<sigaction>?) -> Int32 {
        sigaction(signal, action, previous)
    }

    // MARK: Clocks, limits, usage

    static func clock_gettime(_ clock: clockid_t, _ time: UnsafeMutablePointer<timespec>) -> Int32 {
        Glibc.clock_gettime(clock, time)
    }

    static func gmtime_r(_ time: UnsafePointer<time_t>, _ result: UnsafeMutablePointer<tm>) -> UnsafeMutablePointer<tm>? {
        Glibc.gmtime_r(time, result)
    }

    static func getrlimit(_ resource: Int32, _ limit: UnsafeMutablePointer<rlimit>) -> Int32 {
        Glibc.getrlimit(__rlimit_resource_t(UInt32(resource)), limit)
    }

    static func setrlimit(_ resource: Int32, _ limit: UnsafePointer<rlimit>) -> Int32 {
        Glibc.setrlimit(__rlimit_resource_t(UInt32(resource)), limit)
    }

    static func getrusage(_ who: Int32, _ usage: UnsafeMutablePointer<rusage>) -> Int32 {
        Glibc.getrusage(__rusage_who_t(who), usage)
    }

    static func pageSize() -> Int {
        Int(Glibc.sysconf(Int32(_SC_PAGESIZE)))
    }
}
