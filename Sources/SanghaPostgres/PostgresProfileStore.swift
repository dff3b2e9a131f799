import Foundation
import PostgresNIO
import SanghaCore
import SanghaStoreSupport

/// One person's profiles in PostgreSQL: one row each, the segments as JSONB. Every statement
/// names the owner, so the store cannot read or change another person's rows.
///
/// A profile read by id (the editor, the busiest page) and the pages of each person's list (home,
/// /profiles, a group's page) are kept in memory while the instance listens for changes (`ProfileMemo`,
/// `PostgresChangeFeed`): a create, save or delete on any instance announces itself, and every
/// instance forgets what it kept of that profile and its owner's list. A create's notice is sent
/// by the statement that inserts (a create that committed is never reported as failed, which a
/// second Save would make into two profiles). A save checks the version in the statement that
/// writes it (`UPDATE … WHERE id = $1 AND version = $2`), whatever is kept, so of two instances
/// saving the same version, exactly one wins.
public struct PostgresProfileStore: ProfileRepository, PostgresStore {
    typealias Failure = ProfileRepositoryError
    let database: PostgresDatabase
    private let owner: Int
    private let memo: ProfileMemo?
    /// The owner's practice kept in memory: deleting a profile clears it from their sessions.
    private let practice: PracticeMemo?

    public init(database: PostgresDatabase, owner: Int) {
        self.init(database: database, owner: owner, memo: nil, practice: nil)
    }

    init(database: PostgresDatabase, owner: Int, memo: ProfileMemo?, practice: PracticeMemo?) {
        self.database = database
        self.owner = owner
        self.memo = memo
        self.practice = practice
    }

    public func list(limit: Int, offset: Int) async throws(ProfileRepositoryError) -> ProfileListPage {
        let key = ProfileMemo.ListKey(owner: owner, limit: limit, offset: offset)
        let (kept, read) = memo?.pages.value(key) ?? (nil, nil)
        if let kept { return kept }
        let page = try await run { [owner, database] connection in
            let rows = try await Self.all(
                ListProfiles(owner: owner, limit: limit, offset: offset), connection, database.logger)
            if let total = rows.first?.total { return ProfileListPage(profiles: rows.map(\.profile), total: total) }
            // Past the last row (or none at all): the window had nothing to count.
            let count = try await connection.query(
                "SELECT count(*) FROM profile WHERE owner_id = \(owner)", logger: database.logger)
            for try await total in count.decode(Int.self) { return ProfileListPage(profiles: [], total: total) }
            return ProfileListPage(profiles: [], total: 0)
        }
        memo?.pages.keep(page, for: key, from: read)
        return page
    }

    /// A page of the profiles by name. The count rides along on each row (a window over the
    /// whole table), so the page and the count come from one statement and agree.
    struct ListProfiles: PreparedRead {
        static let sql = """
            SELECT id, name, segments::text, version, count(*) OVER () FROM profile
            WHERE owner_id = $1
            ORDER BY lower(name), id LIMIT $2 OFFSET $3
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(owner: Int, limit: Int, offset: Int) { values = [owner, limit, offset] }
        func decodeRow(_ row: PostgresRow) throws -> (profile: Profile, total: Int) {
            let (id, name, segments, version, count) = try row.decode((Int, String, String, Int, Int).self)
            return (try PostgresProfileStore.profile((id, name, segments, version)), count)
        }
    }

    public func get(id: Int) async throws(ProfileRepositoryError) -> Profile? {
        let (kept, read) = memo?.profiles.value(id) ?? (nil, nil)
        if let kept { return kept.owner == owner ? kept.profile : nil }
        let profile = try await run { connection -> Profile? in
            for try await row in try await connection.execute(
                SelectProfile(id: id, owner: owner), logger: database.logger)
            {
                return try Self.profile(row)
            }
            return nil
        }
        if let profile {
            memo?.profiles.keep(ProfileMemo.OwnedProfile(owner: owner, profile: profile), for: id, from: read)
        }
        return profile
    }

    public func create(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        let segments = try Self.json(profile.segments)
        // Whatever the outcome: the list may have a new row even when the answer was lost.
        defer { memo?.forgetPages(of: owner) }
        let notice = PostgresChangeFeed.Change.profileList(owner: owner).payload
        return try await run { connection in
            // The notice in the statement that inserts: sent exactly when the row commits.
            let rows = try await connection.query(
                """
                WITH made AS (
                    INSERT INTO profile (name, segments, version, owner_id)
                    VALUES (\(profile.name), \(segments)::jsonb, 1, \(owner))
                    RETURNING id
                )
                SELECT id, pg_notify(\(PostgresChangeFeed.channel), \(notice))::text FROM made
                """, logger: database.logger)
            for try await (id, _) in rows.decode((Int, String).self) {
                return Profile(id: id, name: profile.name, segments: profile.segments, version: 1)
            }
            throw PostgresDatabaseError.failed("INSERT returned no id")
        }
    }

    public func update(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        // Whatever the outcome (a save that landed but could not be announced too).
        defer { memo?.forget(profile.id, owner: owner) }
        let segments = try Self.json(profile.segments)
        let outcome = try await run { connection -> UpdateOutcome in
            // Version 0 (a post that named none) overwrites whatever is stored.
            let rows = try await connection.query(
                """
                UPDATE profile SET name = \(profile.name), segments = \(segments)::jsonb, version = version + 1
                WHERE id = \(profile.id) AND owner_id = \(owner)
                AND (\(profile.version) = 0 OR version = \(profile.version))
                RETURNING version
                """, logger: database.logger)
            var saved: Int?
            for try await version in rows.decode(Int.self) { saved = version }
            if let saved {
                var updated = profile
                updated.version = saved
                try await connection.announce(
                    .profile(profile.id), .profileList(owner: owner), logger: database.logger)
                return .updated(updated)
            }
            // Nothing written: the profile is gone, or stored at another version.
            for try await row in try await connection.execute(
                SelectProfile(id: profile.id, owner: owner), logger: database.logger)
            {
                return .conflict(current: try Self.profile(row))
            }
            return .notFound
        }
        switch outcome {
        case .updated(let profile): return profile
        case .conflict(let current): throw .conflict(current: current)
        case .notFound: throw .notFound
        }
    }

    public func delete(id: Int) async throws(ProfileRepositoryError) -> Bool {
        defer {
            memo?.forget(id, owner: owner)
            // The owner's sessions with it keep its name and lose their link to it.
            practice?.forget(owner: owner)
        }
        return try await run { connection in
            let deleted = try await connection.answersRow(
                "DELETE FROM profile WHERE id = \(id) AND owner_id = \(owner) RETURNING id", logger: database.logger)
            if deleted {
                try await connection.announce(.profile(id), .profileList(owner: owner), logger: database.logger)
            }
            return deleted
        }
    }

    private enum UpdateOutcome: Sendable {
        case updated(Profile)
        case conflict(current: Profile)
        case notFound
    }

    typealias ProfileRow = (Int, String, String, Int)

    /// The editor's read, prepared once per connection.
    struct SelectProfile: PreparedRead {
        static let sql = "SELECT id, name, segments::text, version FROM profile WHERE id = $1 AND owner_id = $2"
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(id: Int, owner: Int) { values = [id, owner] }
        func decodeRow(_ row: PostgresRow) throws -> ProfileRow { try row.decode(ProfileRow.self) }
    }

    static func profile(_ row: ProfileRow) throws -> Profile {
        Profile(id: row.0, name: row.1, segments: try SegmentsJSON.decode(row.2), version: row.3)
    }

    static func json(_ segments: [Segment]) throws(ProfileRepositoryError) -> String {
        do {
            return try SegmentsJSON.encode(segments)
        } catch {
            throw .storage("The segments could not be encoded: \(error)")
        }
    }
}
