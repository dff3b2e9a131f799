import GRDB
import SanghaCore

/// A store of one repository on SQLite: its reads and writes fail as the repository's error (its
/// own errors as they are, SQLite's `.storage`), made here once for every store.
protocol SQLiteStore {
    associatedtype Failure: StorageError
    var database: any DatabaseWriter { get }
}

extension SQLiteStore {
    /// `body` in a read.
    func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure) -> Value {
        do { return try await database.read(body) } catch { throw Failure.from(error) }
    }

    /// `body` in a read on GRDB's reader queue, for a read that may take long (an import's
    /// preview of a whole file): the task's thread is free meanwhile.
    func longRead<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure)
        -> Value
    {
        do { return try await database.read(body) } catch { throw Failure.from(error) }
    }

    /// `body` in a write transaction.
    func write<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure) -> Value {
        do { return try await database.write(body) } catch { throw Failure.from(error) }
    }
}
