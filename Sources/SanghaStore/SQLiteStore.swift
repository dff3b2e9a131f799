import GRDB
import SanghaCore

/// A store of one repository on SQLite: its reads and writes fail as the repository's error (its
/// own errors as they are, SQLite's `.storage`), made here once for every store.
protocol SQLiteStore {
    associatedtype Failure: StorageError
    var database: any DatabaseWriter { get }
}

extension SQLiteStore {
    /// `body` in a read on a reader's queue.
    func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure) -> Value {
        do { return try await database.read(body) } catch { throw Failure.from(error) }
    }

    /// `body` in a write transaction.
    func write<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure) -> Value {
        do { return try await database.write(body) } catch { throw Failure.from(error) }
    }
}
