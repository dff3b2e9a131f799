import Foundation
import PostgresNIO
import SanghaCore
import SanghaPostgres
import Testing

/// What only PostgreSQL has: migrations shared by instances, and a database that goes away.
@Suite("PostgreSQL migrations", .enabled(if: TestPostgres.runs))
struct PostgresMigrationTests {
    @Test("Instances starting at the same moment apply each migration once; an existing database keeps its data")
    func concurrentMigrations() async throws {
        try await Backend.postgres.withStorage { storage in
            guard let storage = storage as? PostgresStorage else { return }
            let databases = (0..<4).map { _ in
                PostgresDatabase(configuration: storage.configuration, logger: TestPostgres.logger)
            }
            for database in databases { await storage.clients.run(database.client) }
            let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
                for database in databases { group.addTask { try await database.migrate() } }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }
            #expect(applied == Array(1...20))
            #expect(try await databases[0].appliedMigrations() == Array(1...20))

            let ada = try await PostgresPeopleStore(database: databases[1]).create(
                Stores.person("ada"), passwordHash: "-")
            let profiles = PostgresProfileStore(database: databases[1], owner: ada.id)
            let created = try await profiles.create(.new(named: "Kept"))
            #expect(try await databases[2].migrate() == [])
            #expect(
                try await PostgresProfileStore(database: databases[3], owner: ada.id).get(id: created.id) == created)
        }
    }
}

@Suite("PostgreSQL database URL")
struct PostgresURLTests {
    @Test("A URL gives host, port, user, password and database; anything else says what is wrong")
    func parsing() throws {
        let configuration = try PostgresDatabase.configuration(url: "postgres://sangha:s%40cret@db.local:6543/sangha")
            .get()
        #expect(configuration.host == "db.local")
        #expect(configuration.port == 6543)
        #expect(configuration.username == "sangha")
        #expect(configuration.password == "s@cret")
        #expect(configuration.database == "sangha")
        #expect(try PostgresDatabase.configuration(url: "postgresql://me@127.0.0.1/app").get().port == 5432)
        for (url, why) in [
            ("mysql://me@host/app", "it must start with postgres://"),
            ("postgres://host:5432/app", "it names no user"),
            ("postgres://me@host:5432", "it names no database"),
            ("postgres://me@host:5432/app?sslmode=verify-full", "sslmode verify-full is not one of disable, require"),
            ("not a url", "it must start with postgres://"),
        ] {
            guard case .failure(let error) = PostgresDatabase.configuration(url: url) else {
                Issue.record("\(url) was accepted")
                continue
            }
            #expect(error.description.hasPrefix(why), "\(url)")
        }
    }
}
