import GRDB
import SanghaCore

/// A store of one repository on SQLite: its reads and writes fail as the repository's error (its
/// own errors as they are, SQLite's `.storage`), made here once for every store.
protocol SQLiteStore {
    associatedtype Failure: StorageError
    var database: any DatabaseWriter { get }
}

extension SQLiteStore {
    /// `body` in a read on the calling thread, for a read the size of a page (a page of rows, a
    /// person, a group's week, a practice's days back to the streak's start). On a WAL pool (the
    /// file every deployment uses) GRDB takes a free reader at once, since readers never wait for
    /// the writer, and runs the block here, where `read` hops to the reader's queue and back: three
    /// thread switches, which cost more than such a read. The task's thread waits only when every
    /// reader is busy. A queue (the in-memory database of tests) serves reads and writes on one
    /// connection, so a read there would wait for writes: it hops.
    ///
    /// Whatever grows with what is stored (an export's pages, an import's range, everyone at
    /// `/admin`, the integrity check) uses `read`, which gives the thread back while it runs.
    func readHere<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure)
        -> Value
    {
        do {
            if let pool = database as? DatabasePool { return try readNow(pool, body) }
            return try await database.read(body)
        } catch { throw Failure.from(error) }
    }

    /// `body` in a read on a reader's queue: for reads that grow with what is stored.
    func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure) -> Value {
        do { return try await database.read(body) } catch { throw Failure.from(error) }
    }

    /// `body` in a write transaction.
    func write<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure) -> Value {
        do { return try await database.write(body) } catch { throw Failure.from(error) }
    }

    /// GRDB's synchronous read (in an `async` function its `async` overload would be chosen).
    private func readNow<Value>(_ pool: DatabasePool, _ body: (Database) throws -> Value) throws -> Value {
        try pool.read(body)
    }
}
