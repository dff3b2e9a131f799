import CGlibcMalloc
import Foundation

/// How many heaps ("arenas") glibc's malloc may keep. A thread that finds the others' arenas busy
/// gets one of its own, up to eight a core, and each keeps what was freed in it for its own next
/// allocations. Sangha's threads (an event loop a core, Swift's cooperative pool a core, Dispatch's
/// and libcurl's) all allocate on every request, so under load `sangha serve` came to hold freed
/// memory in arena after arena. Capped at two a core, what it had allocated under load fell from
/// 40–45 to 30–33 MiB at the same CPU a request; one a core saved 3 MiB more, but `/history` then
/// cost about 5 % more CPU, its threads waiting on each other's arena. This is the
/// `MALLOC_ARENA_MAX` servers on glibc are often run with; when that variable (or glibc's tunable
/// `glibc.malloc.arena_max` in `GLIBC_TUNABLES`) is set, it wins. Every command starts so.
enum MallocArenas {
    static func limit(environment: [String: String] = ProcessInfo.processInfo.environment) {
        #if canImport(Glibc)
            guard environment["MALLOC_ARENA_MAX"] == nil,
                environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.arena_max") != true
            else { return }
            _ = mallopt(M_ARENA_MAX, Int32(2 * max(1, ProcessInfo.processInfo.activeProcessorCount)))
        #endif
    }
}
