import Foundation
import GRDB
import Logging
import PostgresNIO
import SanghaCore
import SanghaPostgres
import SanghaStore
import SanghaTestSupport
import Testing

/// Where the repositories under test keep their data: an SQLite file in a temporary folder, or
/// a new database on the PostgreSQL server `SANGHA_TEST_DATABASE_URL` names (`make test`
/// starts one). Without that variable there are no PostgreSQL cases, and the suite that stands
/// for them shows as skipped; with `CI=true` they fail.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// What the contract runs on here: SQLite always, PostgreSQL where a server is named (`make
    /// test` starts one) or `CI=true` requires one. Elsewhere its cases are not made at all, so
    /// none is counted as passed, and "The repository contract on PostgreSQL" shows as skipped.
    static let available: [Backend] = TestPostgres.runs ? [.sqlite, .postgres] : [.sqlite]

    /// Runs `body` with stores on a new, empty storage, removed afterwards.
    func withStorage(_ body: (Storage) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            let directory = try RepositoryPaths.temporaryDirectory("conformance")
            defer { try? FileManager.default.removeItem(at: directory) }
            let services = ClientGroup()
            do {
                try await body(SQLiteStorage(directory: directory, services: services))
            } catch {
                await services.stop()
                throw error
            }
            await services.stop()
        case .postgres:
            guard let server = TestPostgres.url else {
                // Only with CI=true (elsewhere no PostgreSQL case is made: `available`).
                Issue.record("CI=true but SANGHA_TEST_DATABASE_URL is not set: the PostgreSQL run cannot happen")
                return
            }
            try await TestPostgres.withNewDatabase(server: server) { configuration in
                try await PostgresStorage.with(configuration: configuration) { try await body($0) }
            }
        }
    }
}

/// What stands for the PostgreSQL cases of the contract: skipped where there are none (no
/// server named), so a run without PostgreSQL says so rather than passing them.
@Suite("The repository contract on PostgreSQL", .enabled(if: TestPostgres.runs))
struct PostgresContractTests {
    @Test("The server named by SANGHA_TEST_DATABASE_URL answers, and a test's database of its own is empty")
    func server() async throws {
        try await Backend.postgres.withStorage { storage in
            let stores = try await storage.open()
            #expect(try await stores.profiles.list().isEmpty)
            #expect(try await stores.people.overview(at: Date()).map(\.person.username) == ["ada"])
        }
    }
}

/// One storage, and new stores on it: `open()` again is another instance on the same data.
protocol Storage: Sendable {
    func open() async throws -> Stores
    /// How many files are kept for import, anyone's, expired or not: what no store says (an
    /// expired file is never read), so the test asks the database.
    func pendingImportRows() async throws -> Int
}

/// People and their data on one storage, and the repositories of one person, `ada`, made on the
/// first open.
struct Stores: Sendable {
    var people: any PeopleRepository
    var data: any PersonalData
    var person: Person

    var profiles: any ProfileRepository { data.profiles(of: person.id) }
    var sessions: any SittingSessionRepository { data.sessions(of: person.id) }
    var friendList: any FriendListStorage { data.savedFriends(of: person.id) }

    init(people: any PeopleRepository, data: any PersonalData) async throws {
        self.people = people
        self.data = data
        if let found = try await people.credentials(username: "ada") {
            person = found.person
        } else {
            person = try await people.create(Stores.person("ada"), passwordHash: "hash-of-ada")
        }
    }

    static func person(_ username: String) -> Person {
        Person(
            username: username, name: username.capitalized, about: "", friendServiceToken: nil,
            createdAt: Date(timeIntervalSince1970: 1_790_000_000))
    }
}

struct SQLiteStorage: Storage {
    let directory: URL
    /// Each store's check for other processes' writes, run as `serve` runs it, so what the
    /// stores keep in memory is kept, and tested, as in the app.
    let services: ClientGroup

    func open() async throws -> Stores {
        let data = SQLitePersonalData(database: try SanghaDatabase.open(directory: directory))
        if let watch = data.otherProcessWrites {
            try await watch.check()
            await services.run { try? await watch.run() }
        }
        return try await Stores(people: data.people, data: data)
    }

    func pendingImportRows() async throws -> Int {
        try await SanghaDatabase.open(directory: directory).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM pendingImport") ?? 0
        }
    }
}

struct PostgresStorage: Storage {
    let configuration: PostgresClient.Configuration
    /// Every client opened, run until the test ends.
    let clients: ClientGroup

    func open() async throws -> Stores {
        let database = PostgresDatabase(
            configuration: configuration, timeout: .seconds(15), logger: TestPostgres.logger)
        await clients.run(database.client)
        try await database.migrate()
        let data = PostgresPersonalData(database: database)
        return try await Stores(people: data.people, data: data)
    }

    func pendingImportRows() async throws -> Int {
        let database = PostgresDatabase(
            configuration: configuration, timeout: .seconds(15), logger: TestPostgres.logger)
        await clients.run(database.client)
        let rows = try await database.client.query(
            "SELECT count(*)::bigint FROM pending_import", logger: TestPostgres.logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    static func with(configuration: PostgresClient.Configuration, _ body: (PostgresStorage) async throws -> Void)
        async throws
    {
        let clients = ClientGroup()
        do {
            try await body(PostgresStorage(configuration: configuration, clients: clients))
        } catch {
            await clients.stop()
            throw error
        }
        await clients.stop()
    }
}

/// Runs clients (and other services of the test's instances) in tasks of their own, and stops
/// them all.
actor ClientGroup {
    private var tasks: [Task<Void, Never>] = []

    func run(_ client: PostgresClient) {
        tasks.append(Task { await client.run() })
    }

    /// Another service of the test's instances (a change feed), stopped with the clients.
    func run(_ body: @escaping @Sendable () async -> Void) {
        tasks.append(Task { await body() })
    }

    func stop() async {
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        tasks = []
    }
}

/// The PostgreSQL server the tests use.
enum TestPostgres {
    static let url = ProcessInfo.processInfo.environment["SANGHA_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    /// With `CI=true` a PostgreSQL test that cannot run fails rather than being skipped.
    static let isRequired = ProcessInfo.processInfo.environment["CI"] == "true"
    /// Whether the suites of PostgreSQL alone run: a server is named, or it must be.
    static let runs = url != nil || isRequired
    static let logger = Logger(label: "test-postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Creates a database of its own on `server` for `body`, and drops it afterwards.
    static func withNewDatabase(
        server: String, _ body: (PostgresClient.Configuration) async throws -> Void
    ) async throws {
        let admin = try PostgresDatabase.configuration(url: server).get()
        let name = "sangha_test_\(UUID().uuidString.prefix(8).lowercased())"
        try await withClient(admin) { client in
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        var configuration = admin
        configuration.database = name
        do {
            try await body(configuration)
        } catch {
            try? await drop(name, admin: admin)
            throw error
        }
        try await drop(name, admin: admin)
    }

    private static func drop(_ name: String, admin: PostgresClient.Configuration) async throws {
        try await withClient(admin) { client in
            try await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"), logger: logger)
        }
    }

    static func withClient(
        _ configuration: PostgresClient.Configuration, _ body: @Sendable (PostgresClient) async throws -> Void
    ) async throws {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await body(client)
        }
    }
}
