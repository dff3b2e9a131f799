#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's open-files limit (`RLIMIT_NOFILE`). Every connection is an open file; the soft
/// limit that a login shell or systemd gives (often 1,024) is kept low for programs that use
/// `select()`, which cannot watch a descriptor past 1,023, and the hard limit (systemd's 524,288)
/// is what a program that needs more may raise it to. `sangha serve` waits on its sockets with
/// epoll (SwiftNIO) and poll (libcurl), never select, so it raises its soft limit to the hard one
/// at start, as Go's runtime, nginx (`worker_rlimit_nofile`) and most servers do: with a few
/// hundred files, a few hundred slow clients were enough to stop every other one.
enum OpenFilesLimit {
    /// Raises the soft limit to the hard limit; the limits before and after, or nil when it
    /// already was the hard one or could not be changed.
    static func raise() -> (from: UInt64, to: UInt64)? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        var target = limit.rlim_max
        #if canImport(Darwin)
            // macOS refuses a soft limit above OPEN_MAX, whatever the hard one says (often unlimited).
            target = min(target, rlim_t(OPEN_MAX))
        #endif
        guard limit.rlim_cur < target else { return nil }
        let from = UInt64(limit.rlim_cur)
        limit.rlim_cur = target
        guard setrlimit(resource, &limit) == 0 else { return nil }
        return (from, UInt64(target))
    }

    #if canImport(Glibc)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif
}
