import Foundation
import GRDB
import SanghaCore
import SanghaStoreSupport

/// One person's profiles in SQLite through GRDB: `directory/sangha.sqlite` (`SanghaDatabase`).
/// Every statement names the owner, so the store cannot read or change another person's rows.
///
/// Profiles read by id, and the pages of each person's list, are kept in memory (`ProfileMemo`,
/// shared by the stores of one file): the editor is the busiest page, and a read of the segments'
/// JSON costs more than the page's rendering (docs/performance.md). Every write goes to SQLite
/// first and then to the memory, so the memory never holds what the file does not; another
/// process writing the file makes the memory forget (`OtherProcessWrites`).
///
/// A profile is one row; its segments, edited as a whole with it, are a JSON column. Every
/// update checks the version the form was loaded with inside the write transaction, so two
/// saves of the same version cannot both win.
public struct ProfileStore: ProfileRepository, SQLiteStore {
    typealias Failure = ProfileRepositoryError
    let database: any DatabaseWriter
    private let owner: Int
    private let memo: ProfileMemo
    /// The owner's practice kept in memory: deleting a profile clears it from their sessions.
    private let practice: PracticeMemo

    /// The profiles of `owner` on an opened, migrated database (`SanghaDatabase.open`); a store
    /// made alone keeps nothing in memory (`SQLitePersonalData` hands out stores sharing one).
    public init(
        database: any DatabaseWriter, owner: Int, memo: ProfileMemo = ProfileMemo(watch: UnwatchedData()),
        practice: PracticeMemo = PracticeMemo(watch: UnwatchedData())
    ) {
        self.database = database
        self.owner = owner
        self.memo = memo
        self.practice = practice
    }

    /// The most profiles a page shows (a group's schedule form, 100): a longer list is read aside.
    static let inlineRows = 100

    private var owned: QueryInterfaceRequest<ProfileRecord> {
        ProfileRecord.filter(Column("ownerID") == owner)
    }

    public func list(limit: Int, offset: Int) async throws(ProfileRepositoryError) -> ProfileListPage {
        let key = ProfileMemo.ListKey(owner: owner, limit: limit, offset: offset)
        let (kept, read) = memo.pages.value(key)
        if let kept { return kept }
        let rows: @Sendable (Database) throws -> ProfileListPage = { [owned] db in
            // One read transaction: the page and the count agree. The order follows the
            // `profile_on_name` index.
            let profiles = try owned.order(Column("name").collating(.nocase), Column("id"))
                .limit(limit, offset: offset)
                .fetchAll(db).map { try $0.profile() }
            return ProfileListPage(profiles: profiles, total: try owned.fetchCount(db))
        }
        // A page's worth on the request's thread; more (an export's page, every profile) aside.
        let page = limit > Self.inlineRows ? try await readAside(rows) : try await self.read(rows)
        memo.pages.keep(page, for: key, from: read)
        return page
    }

    public func get(id: Int) async throws(ProfileRepositoryError) -> Profile? {
        let (kept, read) = memo.profiles.value(id)
        // Kept as another person's: not this person's (as on PostgreSQL).
        if let kept { return kept.owner == owner ? kept.profile : nil }
        // A statement prepared once per connection: the query interface's `filter(key:)` built,
        // prepared and authorized its SQL on every read, 300 k instructions of a 480 k read.
        let profile = try await self.read { [owner] db in
            try ProfileRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM profile WHERE id = ? AND ownerID = ?"), arguments: [id, owner]
            )?.profile()
        }
        if let profile {
            memo.profiles.keep(ProfileMemo.OwnedProfile(owner: owner, profile: profile), for: id, from: read)
        }
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
        wrote(created.id, now: created)
        return created
    }

    public func update(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        do {
            let updated = try await writeUpdate(profile)
            wrote(profile.id, now: updated)
            return updated
        } catch {
            // Whatever the file holds now is read again.
            wrote(profile.id, now: nil)
            throw error
        }
    }

    /// After a write of profile `id`: `profile` is what the file holds, or nil when it is gone or
    /// unknown (a save that failed). The owner's list pages go either way.
    private func wrote(_ id: Int, now profile: Profile?) {
        memo.profiles.wrote(profile.map { ProfileMemo.OwnedProfile(owner: owner, profile: $0) }, for: id)
        memo.forgetPages(of: owner)
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
        defer {
            wrote(id, now: nil)
            // The owner's sessions with it keep its name and lose their link to it.
            practice.forget(owner: owner)
        }
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
