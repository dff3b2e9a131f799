import Foundation
import GRDB
import SanghaCore
import SanghaStoreSupport
import Synchronization

/// One person's profiles in SQLite through GRDB: `directory/sangha.sqlite` (`SanghaDatabase`).
/// Every statement names the owner, so the store cannot read or change another person's rows.
///
/// Profiles read by id, and the pages of each person's list, are kept in memory (`ProfileCache`,
/// shared by the stores of one file): the editor is the busiest page, and a read through the
/// database pool (a hop to its reader and the segments' JSON) cost many times the page's
/// rendering (docs/performance.md). Every write goes to SQLite
/// first and then to the memory, so the memory never holds what the file does not. One process
/// per file: another process writing the same file would not be seen by `get` or `list`.
///
/// A profile is one row; its segments, edited as a whole with it, are a JSON column. Every
/// update checks the version the form was loaded with inside the write transaction, so two
/// saves of the same version cannot both win.
public struct ProfileStore: ProfileRepository, SQLiteStore {
    typealias Failure = ProfileRepositoryError
    let database: any DatabaseWriter
    private let owner: Int
    private let cache: ProfileCache

    /// The profiles of `owner` on an opened, migrated database (`SanghaDatabase.open`).
    public init(database: any DatabaseWriter, owner: Int, cache: ProfileCache = ProfileCache()) {
        self.database = database
        self.owner = owner
        self.cache = cache
    }

    /// The most profiles a page shows (a group's schedule form, 100): a longer list is read aside.
    static let inlineRows = 100

    private var owned: QueryInterfaceRequest<ProfileRecord> {
        ProfileRecord.filter(Column("ownerID") == owner)
    }

    public func list(limit: Int, offset: Int) async throws(ProfileRepositoryError) -> ProfileListPage {
        let key = ProfileCache.ListKey(owner: owner, limit: limit, offset: offset)
        let (kept, generation) = cache.list(key)
        if let kept { return kept }
        let read: @Sendable (Database) throws -> ProfileListPage = { [owned] db in
            // One read transaction: the page and the count agree. The order follows the
            // `profile_on_name` index.
            let profiles = try owned.order(Column("name").collating(.nocase), Column("id"))
                .limit(limit, offset: offset)
                .fetchAll(db).map { try $0.profile() }
            return ProfileListPage(profiles: profiles, total: try owned.fetchCount(db))
        }
        // A page's worth on the request's thread; more (an export's page, every profile) aside.
        let page = limit > Self.inlineRows ? try await readAside(read) : try await self.read(read)
        cache.keep(page, for: key, readAt: generation)
        return page
    }

    public func get(id: Int) async throws(ProfileRepositoryError) -> Profile? {
        let (kept, generation) = cache.profile(id, of: owner)
        if let kept { return kept }
        let profile = try await read { [owned] db in try owned.filter(key: id).fetchOne(db)?.profile() }
        if let profile { cache.keep(profile, of: owner, readAt: generation) }
        return profile
    }

    public func create(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        let created = try await write { [owner] db in
            var record = try ProfileRecord(profile, owner: owner)
            record.id = nil
            record.version = 1
            try record.insert(db)
            return Profile(id: record.id ?? 0, name: profile.name, segments: profile.segments, version: 1)
        }
        cache.wrote(created.id, of: owner, now: created)
        return created
    }

    public func update(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        do {
            let updated = try await writeUpdate(profile)
            cache.wrote(profile.id, of: owner, now: updated)
            return updated
        } catch {
            // Whatever the file holds now is read again.
            cache.wrote(profile.id, of: owner, now: nil)
            throw error
        }
    }

    private func writeUpdate(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        try await write { [owned, owner] db in
            guard let stored = try owned.filter(key: profile.id).fetchOne(db) else {
                throw ProfileRepositoryError.notFound
            }
            guard profile.version == 0 || stored.version == profile.version else {
                throw ProfileRepositoryError.conflict(current: try stored.profile())
            }
            var record = try ProfileRecord(profile, owner: owner)
            record.version = stored.version + 1
            try record.update(db)
            var updated = profile
            updated.version = record.version
            return updated
        }
    }

    public func delete(id: Int) async throws(ProfileRepositoryError) -> Bool {
        defer { cache.wrote(id, of: owner, now: nil) }
        return try await write { [owned] db in try owned.filter(key: id).deleteAll(db) > 0 }
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
    var ownerID: Int?

    init(_ profile: Profile, owner: Int) throws {
        self.id = profile.id == 0 ? nil : profile.id
        self.ownerID = owner
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

/// Profiles by id with their owners, and pages of each owner's list, as last read from or
/// written to the file.
///
/// One generation moves on at every write: a read that began before one is not kept over what
/// the write left.
public final class ProfileCache: Sendable {
    /// One page of one person's list.
    struct ListKey: Hashable {
        let owner: Int
        let limit: Int
        let offset: Int
    }

    private struct State {
        var profiles: [Int: (owner: Int, profile: Profile)] = [:]
        var pages: [ListKey: ProfileListPage] = [:]
        var generation = 0
    }

    private let state = Mutex(State())
    /// More pages than this in memory and they are all dropped (it is only a memo).
    static let listLimit = 10_000

    public init() {}

    /// The profile `id` if it is `owner`'s (another's is read, and not found, from the file), or
    /// nil and the generation to keep the one read with.
    func profile(_ id: Int, of owner: Int) -> (Profile?, generation: Int) {
        state.withLock { state in
            (state.profiles[id].flatMap { $0.owner == owner ? $0.profile : nil }, state.generation)
        }
    }

    /// The page kept for `key`, or nil and the generation to keep the one read with.
    func list(_ key: ListKey) -> (ProfileListPage?, generation: Int) {
        state.withLock { ($0.pages[key], $0.generation) }
    }

    /// A profile read from the file at `generation`, unless a write came since.
    func keep(_ profile: Profile, of owner: Int, readAt generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.profiles[profile.id] = (owner, profile)
        }
    }

    /// A page read from the file at `generation`, unless a write came since.
    func keep(_ page: ProfileListPage, for key: ListKey, readAt generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.pages.count >= Self.listLimit { state.pages.removeAll() }
            state.pages[key] = page
        }
    }

    /// After a write of `owner`'s profile `id`: `now` is what the file holds, or nil when it is
    /// gone or unknown (a save that failed). The owner's list pages go either way.
    func wrote(_ id: Int, of owner: Int, now written: Profile?) {
        state.withLock { state in
            state.profiles[id] = written.map { (owner, $0) }
            state.pages = state.pages.filter { $0.key.owner != owner }
            state.generation += 1
        }
    }

    /// After a person and their profiles were deleted.
    func forgetAll() {
        state.withLock { state in
            state.profiles.removeAll()
            state.pages.removeAll()
            state.generation += 1
        }
    }
}
