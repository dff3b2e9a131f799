import GRDB
import SanghaCore

/// A store of one repository on SQLite: its reads and writes fail as the repository's error (its
/// own errors as they are, SQLite's `.storage`), made here once for every store.
protocol SQLiteStore {
    associatedtype Failure: StorageError
    var database: any DatabaseWriter { get }
}

extension SQLiteStore {
    /// A page's read, on the request's own thread (`DatabaseReader.readInline`).
    func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure) -> Value {
        do { return try await database.readInline(body) } catch { throw Failure.from(error) }
    }

    /// A read as long as the person makes it (an export's page, an import's range), on a reader's
    /// queue (`DatabaseReader.readAside`).
    func readAside<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure)
        -> Value
    {
        do { return try await database.readAside(body) } catch { throw Failure.from(error) }
    }

    /// `body` in a write transaction.
    func write<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(Failure) -> Value {
        do { return try await database.write(body) } catch { throw Failure.from(error) }
    }
}

/// The two ways Sangha reads SQLite. GRDB's `async` read is neither: it hops to a reader's queue
/// and back (three thread switches a read, most of a small page's time), and it gives the reader
/// back only once the task resumes on the cooperative pool. A thread of that pool that waits for
/// a reader could then wait for itself, so nothing here reads that way.
extension DatabaseReader {
    /// A short read (a page's rows) on the calling thread: a WAL pool's synchronous `read` takes
    /// a free reader and runs `body` inline (its queue is idle, and `DispatchQueue.sync` runs on
    /// the caller). WAL readers never wait for the writer, and every reader is given back
    /// without the cooperative pool (here, or by `readAside` on its queue), so a thread waits at
    /// most for a read to end. The tests' in-memory queue shares its one connection with the
    /// writes, so it reads asynchronously.
    func readInline<Value: Sendable>(_ body: @Sendable (Database) throws -> Value) async throws -> Value {
        if let pool = self as? DatabasePool { return try readNow(pool, body) }
        return try await read(body)
    }

    /// A long read on a reader's queue, which gives the reader back there: the request's thread
    /// is free meanwhile for others' pages.
    func readAside<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            asyncRead { database in continuation.resume(with: Result { try body(database.get()) }) }
        }
    }
}

/// GRDB's synchronous read (in an `async` function Swift would choose the asynchronous one).
private func readNow<Value>(_ pool: DatabasePool, _ body: (Database) throws -> Value) throws -> Value {
    try pool.read(body)
}
