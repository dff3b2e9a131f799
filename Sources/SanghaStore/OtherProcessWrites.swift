import Foundation
import GRDB
import SanghaStoreSupport
import ServiceLifecycle
import Synchronization

/// Another process's writes to `sangha.sqlite`, seen by `sangha serve` within a second: the
/// operator's `sangha people disable` or `make-admin` while the server runs. What the server keeps
/// in memory (`Memo`: sign-in sessions, profiles) is forgotten then, and its group streams check
/// their sign-ins again.
///
/// How it tells: SQLite's `PRAGMA data_version` moves, on a connection, whenever another
/// connection commits, never for its own commits. This process writes only through its pool's
/// one writer connection, so a move of the writer's `data_version` is another process's write.
/// `run()` (a service of `serve`) reads it every `interval`. A memo trusts itself only while the
/// last check is younger than `freshness` (`hearsEveryChange`): if the checks stall (a long write
/// holding the writer), pages read the file rather than serve what may be stale.
public final class OtherProcessWrites: ChangeWatch, Service {
    /// How often the writer's `data_version` is read.
    public static let interval: Duration = .milliseconds(250)
    /// How old the last check may be for what is kept to be used.
    public static let freshness: Duration = .seconds(1)

    private let pool: DatabasePool
    private let freshness: Duration
    private let state = Mutex<(version: Int?, checkedAt: ContinuousClock.Instant?)>((nil, nil))
    private let changed = Mutex<[@Sendable () -> Void]>([])

    init(pool: DatabasePool, freshness: Duration) {
        (self.pool, self.freshness) = (pool, freshness)
    }

    public var hearsEveryChange: Bool {
        guard let checkedAt = state.withLock({ $0.checkedAt }) else { return false }
        return ContinuousClock.now - checkedAt < freshness
    }

    /// Calls `action` after every write of another process that a check finds.
    func whenChanged(_ action: @escaping @Sendable () -> Void) {
        changed.withLock { $0.append(action) }
    }

    /// Reads the writer's `data_version`; when another process wrote since the last check, tells
    /// those waiting for it before this check counts (so nothing kept before it is used after).
    public func check() async throws {
        let began = ContinuousClock.now
        let version = try await pool.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        }
        let previous = state.withLock { $0.version }
        if let previous, previous != version {
            for action in changed.withLock({ $0 }) { action() }
        }
        state.withLock { $0 = (version, began) }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // A failed check leaves the last one to age: memos stop being used after `freshness`.
                try? await self.check()
                try? await Task.sleep(for: Self.interval)
            }
        }
    }
}
