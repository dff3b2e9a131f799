import Foundation
import GRDB
import SanghaCore
import Synchronization

/// Profiles in SQLite through GRDB: `directory/sangha.sqlite` (`SanghaDatabase`).
///
/// Profiles read by id are kept in memory: the editor is the busiest page, and a read through
/// the database pool (a hop to its reader and the segments' JSON) cost about 200 µs, ten times
/// the page's rendering. Every write goes to SQLite first and then to the memory, so the memory
/// never holds what the file does not. One store per file in a process: another process
/// writing the same file would not be seen by `get`.
///
/// A profile is one row; its segments, edited as a whole with it, are a JSON column. Every
/// update checks the version the form was loaded with inside the write transaction, so two
/// saves of the same version cannot both win.
public struct ProfileStore: ProfileRepository {
    private let database: any DatabaseWriter
    private let cache = ProfileCache()

    public static let fileName = SanghaDatabase.fileName

    /// Opens (creating it when absent) the store in `directory`.
    public static func open(directory: URL) throws -> ProfileStore {
        ProfileStore(database: try SanghaDatabase.open(directory: directory))
    }

    /// A store in memory, for tests.
    public static func inMemory() throws -> ProfileStore {
        ProfileStore(database: try SanghaDatabase.inMemory())
    }

    /// A store on an opened, migrated database (`SanghaDatabase.open`).
    public init(database: any DatabaseWriter) {
        self.database = database
    }

    /// The migrations applied so far, oldest first.
    public func appliedMigrations() async throws -> [String] {
        try await SanghaDatabase.appliedMigrations(database)
    }

    /// SQLite's own check of the file: "ok" when it is sound.
    public func integrityCheck() async throws -> [String] {
        try await SanghaDatabase.integrityCheck(database)
    }

    public func list(limit: Int, offset: Int) async throws(ProfileRepositoryError) -> ProfileListPage {
        try await run { db in
            // One read transaction: the page and the count agree. The order follows the
            // `profile_on_name` index.
            let profiles = try ProfileRecord.order(Column("name").collating(.nocase), Column("id"))
                .limit(limit, offset: offset)
                .fetchAll(db).map { try $0.profile() }
            return ProfileListPage(profiles: profiles, total: try ProfileRecord.fetchCount(db))
        }
    }

    public func get(id: Int) async throws(ProfileRepositoryError) -> Profile? {
        if let profile = cache.profile(id) { return profile }
        let profile = try await run { db in try ProfileRecord.fetchOne(db, key: id)?.profile() }
        if let profile { cache.store(profile) }
        return profile
    }

    public func create(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        let created = try await write { db in
            var record = try ProfileRecord(profile)
            record.id = nil
            record.version = 1
            try record.insert(db)
            return Profile(id: record.id ?? 0, name: profile.name, segments: profile.segments, version: 1)
        }
        cache.store(created)
        return created
    }

    public func update(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        do {
            let updated = try await writeUpdate(profile)
            cache.store(updated)
            return updated
        } catch {
            // Whatever the file holds now is read again on the next get.
            cache.forget(profile.id)
            throw error
        }
    }

    private func writeUpdate(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        try await write { db in
            guard let stored = try ProfileRecord.fetchOne(db, key: profile.id) else {
                throw ProfileRepositoryError.notFound
            }
            guard profile.version == 0 || stored.version == profile.version else {
                throw ProfileRepositoryError.conflict(current: try stored.profile())
            }
            var record = try ProfileRecord(profile)
            record.version = stored.version + 1
            try record.update(db)
            var updated = profile
            updated.version = record.version
            return updated
        }
    }

    public func delete(id: Int) async throws(ProfileRepositoryError) -> Bool {
        defer { cache.forget(id) }
        return try await write { db in try ProfileRecord.deleteOne(db, key: id) }
    }

    private func run<Value: Sendable>(_ read: @escaping @Sendable (Database) throws -> Value)
        async throws(ProfileRepositoryError) -> Value
    {
        do {
            return try await database.read(read)
        } catch {
            throw Self.repositoryError(error)
        }
    }

    private func write<Value: Sendable>(_ update: @escaping @Sendable (Database) throws -> Value)
        async throws(ProfileRepositoryError) -> Value
    {
        do {
            return try await database.write(update)
        } catch {
            throw Self.repositoryError(error)
        }
    }

    private static func repositoryError(_ error: any Error) -> ProfileRepositoryError {
        (error as? ProfileRepositoryError) ?? .storage(String(describing: error))
    }
}

/// A profile as one row of the `profile` table.
struct ProfileRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "profile"

    var id: Int?
    var name: String
    /// The segments' JSON text (`SegmentsJSON`), whose decoding is remembered.
    var segments: String
    var version: Int

    init(_ profile: Profile) throws {
        self.id = profile.id == 0 ? nil : profile.id
        self.name = profile.name
        self.segments = try SegmentsJSON.encode(profile.segments)
        self.version = profile.version
    }

    func profile() throws -> Profile {
        Profile(id: id ?? 0, name: name, segments: try SegmentsJSON.decode(segments), version: version)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = Int(inserted.rowID)
    }
}

/// Profiles by id, as last read from or written to the file.
final class ProfileCache: Sendable {
    private let profiles = Mutex<[Int: Profile]>([:])

    func profile(_ id: Int) -> Profile? { profiles.withLock { $0[id] } }
    func store(_ profile: Profile) { profiles.withLock { $0[profile.id] = profile } }
    func forget(_ id: Int) { _ = profiles.withLock { $0.removeValue(forKey: id) } }
}
