import Foundation
import Logging
import Metrics
import PostgresNIO
import Resilience
import SanghaCore

/// Sangha's PostgreSQL database: one `PostgresClient` (a pool of connections) shared by the
/// stores, the migrations, and a bound on every call's time.
///
/// The client is a service: `run()` it (in the application's service group) for as long as the
/// stores are used. A database that cannot be reached costs a call at most `timeout`, and after
/// three such calls in a row none at all for a while (`breaker`): requests do not pile up behind
/// it. The pool keeps trying to connect, and a `SELECT 1` now and then finds the database back,
/// so the same instance serves again by itself.
public struct PostgresDatabase: Sendable {
    public let client: PostgresClient
    /// How long one call (waiting for a connection included) may take before it fails.
    public let timeout: Duration
    let logger: Logger
    /// Its numbers: 3 unreachable calls in a row (each waited `timeout`) stop the calls for 1 s,
    /// then a `SELECT 1` in the background finds out; still down, twice as long, up to 10 s. A
    /// database is asked again sooner than the FriendService: its probe costs nothing, and every
    /// page needs it.
    let breaker: CircuitBreaker<PostgresDatabaseError>

    public init(configuration: PostgresClient.Configuration, timeout: Duration = .seconds(2), logger: Logger) {
        var configuration = configuration
        configuration.options.connectTimeout = timeout
        // A prepared statement's plan is made once per connection and kept. Left to choose,
        // PostgreSQL planned the pages' prepared statements again on every call (their plans
        // for the values given looked cheaper than one for any value), 0.2–0.8 ms each; they
        // look rows up by key, which a plan for any value does as well. The setting is the
        // session's: the other statements, planned on every call anyway, are planned for any
        // value too. It needs PostgreSQL 12 or newer, and a pooler in front that passes it on
        // (PgBouncer: `ignore_startup_parameters = plan_cache_mode`).
        configuration.options.additionalStartupParameters.append(("plan_cache_mode", "force_generic_plan"))
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.timeout = timeout
        self.logger = logger
        self.breaker = CircuitBreaker(
            name:
                "The database at \(configuration.host.map { "\($0):\(configuration.port ?? 5432)" } ?? configuration.unixSocketPath ?? "")",
            metrics: "sangha_database",
            coolOff: .seconds(1), longestCoolOff: .seconds(10), logger: logger, isUnanswered: \.isUnreachable,
            placeholder: .unreachable("not reachable"))
    }

    /// `body` with a connection from the pool, failing with `PostgresDatabaseError.unreachable`
    /// after `timeout`, or with `.failed` for an error of the database.
    func withConnection<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws(PostgresDatabaseError) -> Value {
        try await bounded(timeout) { [client] in
            let asked = ContinuousClock.now
            return try await client.withConnection { connection in
                DatabaseMetrics.connectionWait.record(duration: ContinuousClock.now - asked)
                return try await body(connection)
            }
        }
    }

    /// `body` in a transaction (committed when it returns, rolled back when it throws), bounded
    /// like `withConnection`.
    func withTransaction<Value: Sendable>(
        timeout: Duration? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async throws(PostgresDatabaseError) -> Value {
        try await bounded(timeout ?? self.timeout) { [client, logger] in
            let asked = ContinuousClock.now
            return try await client.withConnection { connection in
                DatabaseMetrics.connectionWait.record(duration: ContinuousClock.now - asked)
                return try await connection.withTransaction(logger: logger) { try await body($0) }
            }
        }
    }

    private func bounded<Value: Sendable>(
        _ timeout: Duration, _ body: @escaping @Sendable () async throws -> Value
    ) async throws(PostgresDatabaseError) -> Value {
        let start = ContinuousClock.now
        switch breaker.admit() {
        case .call: break
        case .refused(let failure):
            DatabaseMetrics.calls.unreachable.record(duration: ContinuousClock.now - start)
            throw failure
        case .probe(let failure):
            // No page waits on the database coming back: a `SELECT 1` finds out.
            Task { [client, logger, breaker] in
                try? await breaker.observed { () async throws(PostgresDatabaseError) in
                    try await Self.boundedCall(timeout) {
                        try await client.withConnection { try await $0.query("SELECT 1", logger: logger) }
                    }
                }
            }
            DatabaseMetrics.calls.unreachable.record(duration: ContinuousClock.now - start)
            throw failure
        }
        DatabaseMetrics.inFlight.increment()
        defer { DatabaseMetrics.inFlight.decrement() }
        do {
            let value = try await breaker.observed { () async throws(PostgresDatabaseError) in
                try await Self.boundedCall(timeout, body)
            }
            DatabaseMetrics.calls.ok.record(duration: ContinuousClock.now - start)
            return value
        } catch {
            (error.isUnreachable ? DatabaseMetrics.calls.unreachable : DatabaseMetrics.calls.failed)
                .record(duration: ContinuousClock.now - start)
            throw error
        }
    }

    private static func boundedCall<Value: Sendable>(
        _ timeout: Duration, _ body: @escaping @Sendable () async throws -> Value
    ) async throws(PostgresDatabaseError) -> Value {
        do {
            return try await withThrowingTaskGroup(of: Value.self) { group in
                group.addTask(operation: body)
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw PostgresDatabaseError.unreachable("no answer within \(timeout)")
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        } catch let error as PostgresDatabaseError {
            throw error
        } catch let error as PSQLError where error.serverInfo != nil {
            // The server answered, with an error of its own (a constraint, a syntax error).
            throw .failed(String(reflecting: error))
        } catch {
            throw .unreachable(String(reflecting: error))
        }
    }
}

extension PostgresConnection {
    /// Tells every instance listening (`PostgresChangeFeed`) of `changes`, in one statement,
    /// once the statement before it has committed.
    func announce(_ changes: PostgresChangeFeed.Change..., logger: Logger) async throws {
        try await announce(changes, logger: logger)
    }

    func announce(_ changes: [PostgresChangeFeed.Change], logger: Logger) async throws {
        guard !changes.isEmpty else { return }
        var bindings = PostgresBindings(capacity: changes.count + 1)
        bindings.append(PostgresChangeFeed.channel)
        for change in changes { bindings.append(change.payload) }
        let calls = changes.indices.map { "pg_notify($1, $\($0 + 2))" }.joined(separator: ", ")
        try await query(PostgresQuery(unsafeSQL: "SELECT \(calls)", binds: bindings), logger: logger)
    }

    /// Whether `statement` answers any row: a row found, or changed (`RETURNING`). Its rows are
    /// read to the end, so the connection's next statement can follow.
    func answersRow(_ statement: PostgresQuery, logger: Logger) async throws -> Bool {
        var any = false
        for try await _ in try await query(statement, logger: logger) { any = true }
        return any
    }
}

/// The database's metrics (swift-metrics; at `/metrics` in `sangha serve`): each call's time by
/// outcome, the wait for a connection from the pool, and the calls in flight.
enum DatabaseMetrics {
    struct Calls {
        let ok: Metrics.Timer
        let failed: Metrics.Timer
        let unreachable: Metrics.Timer
    }

    static let calls: Calls = {
        func timer(_ outcome: String) -> Metrics.Timer {
            Metrics.Timer(
                label: "sangha_database_call_duration_seconds", dimensions: [("outcome", outcome)],
                preferredDisplayUnit: .seconds)
        }
        return Calls(ok: timer("ok"), failed: timer("failed"), unreachable: timer("unreachable"))
    }()
    static let connectionWait = Metrics.Timer(
        label: "sangha_database_connection_wait_seconds", preferredDisplayUnit: .seconds)
    static let inFlight = Meter(label: "sangha_database_calls_in_flight")
}

public enum PostgresDatabaseError: StorageError, Sendable, Equatable {
    /// No connection, or no answer in time: the database is down or out of reach.
    case unreachable(String)
    /// The database answered with an error.
    case failed(String)

    public var isUnreachable: Bool {
        if case .unreachable = self { true } else { false }
    }

    public static func storage(_ message: String) -> PostgresDatabaseError { .failed(message) }

    /// This failure as a repository's error.
    func `as`<Failure: StorageError>(_: Failure.Type) -> Failure {
        switch self {
        case .unreachable(let why): .unreachable(why)
        case .failed(let why): .storage(why)
        }
    }
}

extension PostgresDatabase {
    /// The client's configuration from `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
    /// (`postgresql://` too); nil with why for anything else. Without `?sslmode=require` the
    /// connection is not encrypted: the database is on the same host or a private network.
    public static func configuration(url text: String) -> Result<PostgresClient.Configuration, URLError> {
        guard let url = URLComponents(string: text), let scheme = url.scheme,
            ["postgres", "postgresql"].contains(scheme)
        else {
            return .failure(URLError("it must start with postgres://"))
        }
        guard let user = url.user, !user.isEmpty else {
            return .failure(URLError("it names no user (postgres://USER@HOST:PORT/DATABASE)"))
        }
        guard let host = url.host, !host.isEmpty else { return .failure(URLError("it names no host")) }
        let database = String(url.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            return .failure(URLError("it names no database (…/DATABASE at its end)"))
        }
        if let port = url.port, !(1...65_535).contains(port) { return .failure(URLError("its port is out of range")) }
        let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let tls: PostgresClient.Configuration.TLS
        switch query["sslmode"] ?? "disable" {
        case "disable": tls = .disable
        case "require": tls = .require(.makeClientConfiguration())
        case let mode: return .failure(URLError("sslmode \(mode) is not one of disable, require"))
        }
        return .success(
            PostgresClient.Configuration(
                host: host, port: url.port ?? 5432, username: user.removingPercentEncoding ?? user,
                password: url.password.map { $0.removingPercentEncoding ?? $0 },
                database: database.removingPercentEncoding ?? database, tls: tls))
    }

    /// Why a database URL cannot be used.
    public struct URLError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
