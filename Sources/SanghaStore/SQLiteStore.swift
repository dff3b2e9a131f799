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
    /// person, a group's week, a practice's days back to the streak's start). GRDB takes a free
    /// reader at once (WAL readers never wait for the writer) and runs the block here, where
    /// `read` hops to the reader's queue and back: three thread switches, which cost more than
    /// such a read. The task's thread waits only when every reader is busy.
    ///
    /// Whatever grows with what is stored (an export's pages, an import's range, everyone at
    /// `/admin`, the integrity check) uses `read`, which gives the thread back while it runs.
    func readHere<Value>(_ body: (Database) throws -> Value) throws(Failure) -> Value {
        do { return try database.read(body) } catch { throw Failure.from(error) }
    }

    /// `body` in a read on a reader's queue: for reads that grow with what is stored.
    func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure) -> Value {
        do { return try await database.read(body) } catch { throw Failure.from(error) }
    }

    /// `body` in a write transaction.
    func write<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure) -> Value {
        do { return try await database.write(body) } catch { throw Failure.from(error) }
    }
}
