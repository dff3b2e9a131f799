import PostgresNIO
import SanghaCore

/// A store of one repository on PostgreSQL: its calls fail as the repository's error, made here
/// once for every store. A body does not throw the repository's own errors (`PostgresDatabase`
/// takes any error but PostgreSQL's for the server being out of reach): it returns what it
/// found, and the store throws `.notFound` or `.conflict` after the call.
protocol PostgresStore {
    associatedtype Failure: StorageError
    var database: PostgresDatabase { get }
}

extension PostgresStore {
    /// `body` on a pooled connection (`PostgresDatabase.withConnection`).
    func run<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws(Failure) -> Value {
        do { return try await database.withConnection(body) } catch { throw error.as(Failure.self) }
    }

    /// `body` in a transaction (`PostgresDatabase.withTransaction`).
    func transaction<Value: Sendable>(
        timeout: Duration? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws(Failure) -> Value {
        do { return try await database.withTransaction(timeout: timeout, body) } catch { throw error.as(Failure.self) }
    }
}
