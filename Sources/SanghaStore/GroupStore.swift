import Foundation
import GRDB
import SanghaCore
import SanghaStoreSupport

/// The groups as one person sees them, in the `sittingGroup`, `groupMember` and
/// `groupInvitation` tables of `SanghaDatabase`. Every read and write first reads the person's
/// own membership (or joins it in), so a group they are not in is not found, as one that does
/// not exist.
///
/// A group's page is kept in memory (`GroupPageMemo`) and served to its members until it
/// changes: each write here forgets the pages it changes, after SQLite has it.
public struct GroupStore: GroupRepository, SQLiteStore {
    typealias Failure = GroupRepositoryError
    let database: any DatabaseWriter
    private let person: Int
    private let pages: GroupPageMemo

    /// A store made alone keeps nothing in memory (`SQLitePersonalData` hands out stores sharing
    /// one memo).
    public init(database: any DatabaseWriter, person: Int, pages: GroupPageMemo = GroupPageMemo(watch: UnwatchedData()))
    {
        self.database = database
        self.person = person
        self.pages = pages
    }

    public func list() async throws(GroupRepositoryError) -> [GroupSummary] {
        try await pages.list(of: person) { () async throws(GroupRepositoryError) in try await readList() }
    }

    private func readList() async throws(GroupRepositoryError) -> [GroupSummary] {
        try await read { [person] db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT g.id, g.name, g.createdAt, me.isHost,
                            (SELECT count(*) FROM groupMember m WHERE m.groupID = g.id)
                        FROM groupMember me JOIN sittingGroup g ON g.id = me.groupID
                        WHERE me.personID = ? ORDER BY g.name COLLATE NOCASE, g.id
                        """), arguments: [person]
            ).map { row in
                GroupSummary(group: Self.group(row), members: row[4], isHost: row[3])
            }
        }
    }

    public func create(name: String, at date: Date) async throws(GroupRepositoryError) -> SittingGroup {
        defer { pages.forget(listOf: person) }
        return try await write { [person] db in
            try db.cachedStatement(sql: "INSERT INTO sittingGroup (name, createdAt) VALUES (?, ?)").execute(arguments: [
                name, date,
            ])
            let id = Int(db.lastInsertedRowID)
            try db.cachedStatement(
                sql: "INSERT INTO groupMember (groupID, personID, isHost, joinedAt) VALUES (?, ?, 1, ?)"
            ).execute(arguments: [id, person, date])
            return SittingGroup(id: id, name: name, createdAt: date)
        }
    }

    public func group(_ id: Int, at date: Date) async throws(GroupRepositoryError) -> GroupDetail? {
        try await read { [person] db in try Self.detail(person, id, at: date, db) }
    }

    public func practice(of group: Int, from start: Date, to end: Date) async throws(GroupRepositoryError)
        -> [MemberPractice]
    {
        try await read { [person] db in
            try Self.requireMember(person, of: group, db)
            return try Self.practice(of: group, from: start, to: end, db)
        }
    }

    public func addInvitation(to group: Int, key: String, at date: Date, expiresAt: Date)
        async throws(GroupRepositoryError)
    {
        defer { pages.forget(group: group) }
        try await write { [person] db in
            try Self.requireMember(person, of: group, host: true, db)
            try db.cachedStatement(
                sql: "INSERT INTO groupInvitation (groupID, key, createdAt, expiresAt) VALUES (?, ?, ?, ?)"
            ).execute(arguments: [group, key, date, expiresAt])
        }
    }

    public func revokeInvitation(_ id: Int, of group: Int) async throws(GroupRepositoryError) {
        defer { pages.forget(group: group) }
        try await write { [person] db in
            try Self.requireMember(person, of: group, host: true, db)
            try db.cachedStatement(sql: "DELETE FROM groupInvitation WHERE id = ? AND groupID = ?").execute(arguments: [
                id, group,
            ])
            if db.changesCount == 0 { throw GroupRepositoryError.notFound }
        }
    }

    public func invitation(key: String, at date: Date) async throws(GroupRepositoryError) -> GroupInvitationPreview? {
        try await read { [person] db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT g.id, g.name, g.createdAt,
                            EXISTS (SELECT 1 FROM groupMember m WHERE m.groupID = g.id AND m.personID = ?),
                            EXISTS (SELECT 1 FROM groupRemoval r WHERE r.groupID = g.id AND r.personID = ?)
                        FROM groupInvitation i JOIN sittingGroup g ON g.id = i.groupID
                        WHERE i.key = ? AND i.expiresAt > ?
                        """), arguments: [person, person, key, StoredDate(date)]
            ).map { GroupInvitationPreview(group: Self.group($0), isMember: $0[3], isRemoved: $0[4]) }
        }
    }

    public func join(key: String, at date: Date) async throws(GroupRepositoryError) -> Int {
        let joined = try await write { [person] db in
            guard
                let group = try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT groupID FROM groupInvitation WHERE key = ? AND expiresAt > ?"),
                    arguments: [key, date])
            else { throw GroupRepositoryError.notFound }
            let removed =
                try Bool.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT EXISTS (SELECT 1 FROM groupRemoval WHERE groupID = ? AND personID = ?)"),
                    arguments: [group, person]) ?? false
            if removed { throw GroupRepositoryError.removed }
            try db.cachedStatement(
                sql: """
                    INSERT INTO groupMember (groupID, personID, isHost, joinedAt) VALUES (?, ?, 0, ?)
                    ON CONFLICT DO NOTHING
                    """
            ).execute(arguments: [group, person, date])
            return group
        }
        pages.forget(group: joined)
        pages.forget(listOf: person)
        return joined
    }

    public func leave(_ group: Int) async throws(GroupRepositoryError) {
        defer { pages.forget(group: group) }
        try await write { [person] db in
            // The trigger `groupMemberGone` passes hosting on, or deletes a group left empty.
            try db.cachedStatement(sql: "DELETE FROM groupMember WHERE groupID = ? AND personID = ?").execute(
                arguments: [group, person])
            if db.changesCount == 0 { throw GroupRepositoryError.notFound }
        }
    }

    public func remove(_ member: Int, from group: Int, at date: Date) async throws(GroupRepositoryError) {
        defer { pages.forget(group: group) }
        try await write { [person] db in
            try Self.requireMember(person, of: group, host: true, db)
            try db.cachedStatement(sql: "DELETE FROM groupMember WHERE groupID = ? AND personID = ? AND NOT isHost")
                .execute(arguments: [group, member])
            if db.changesCount == 0 { throw GroupRepositoryError.notFound }
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO groupRemoval (groupID, personID, removedAt) VALUES (?, ?, ?)"
            ).execute(arguments: [group, member, date])
        }
    }

    public func readmit(_ member: Int, to group: Int) async throws(GroupRepositoryError) {
        defer { pages.forget(group: group) }
        try await write { [person] db in
            try Self.requireMember(person, of: group, host: true, db)
            try db.cachedStatement(sql: "DELETE FROM groupRemoval WHERE groupID = ? AND personID = ?").execute(
                arguments: [group, member])
            if db.changesCount == 0 { throw GroupRepositoryError.notFound }
        }
    }

    public func startSitting(profileName: String, sit: Int?, at date: Date, until: Date)
        async throws(GroupRepositoryError) -> [Int]
    {
        defer { pages.forget(member: person) }
        return try await write { [person] db in
            // The group sit only if it is one of the person's groups', not cancelled. A sit still
            // shown (not past its end and the grace), alone or in the same group sit, keeps its
            // start.
            try db.cachedStatement(
                sql: """
                    INSERT INTO sittingNow (personID, profileName, sitID, since, until) VALUES (?, ?, (
                        SELECT s.id FROM groupSit s JOIN groupMember m ON m.groupID = s.groupID AND m.personID = ?
                        WHERE s.id = ? AND s.cancelledAt IS NULL), ?, ?)
                    ON CONFLICT (personID) DO UPDATE SET
                        profileName = excluded.profileName, sitID = excluded.sitID, until = excluded.until,
                        since = CASE WHEN sittingNow.until <= ? OR sittingNow.sitID IS NOT excluded.sitID
                            THEN excluded.since ELSE sittingNow.since END
                    """
            ).execute(arguments: [
                person, profileName, person, sit, date, until, date.addingTimeInterval(-SittingNow.grace),
            ])
            return try Self.groupIDs(of: person, db)
        }
    }

    public func stopSitting() async throws(GroupRepositoryError) -> [Int] {
        defer { pages.forget(member: person) }
        return try await write { [person] db in
            try db.cachedStatement(sql: "DELETE FROM sittingNow WHERE personID = ?").execute(arguments: [person])
            return try Self.groupIDs(of: person, db)
        }
    }

    public func sittingNow(in group: Int, at date: Date) async throws(GroupRepositoryError) -> [SittingNow] {
        try await read { [person] db in
            try Self.requireMember(person, of: group, db)
            return try Self.sittingNow(in: group, at: date, db)
        }
    }

    public func scheduleSit(_ sit: GroupSit, at date: Date) async throws(GroupRepositoryError) -> GroupSit {
        let segments: String
        do {
            segments = try SegmentsJSON.encode(sit.profile.segments)
        } catch {
            throw .storage(String(describing: error))
        }
        defer { pages.forget(group: sit.group) }
        return try await write { [person] db in
            try Self.requireMember(person, of: sit.group, host: true, db)
            // The sits not over, and of them those to come (not cancelled).
            let counted = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT coalesce(sum(cancelledAt IS NULL), 0), count(*) FROM groupSit
                        WHERE groupID = ? AND \(Self.notOver)
                        """),
                arguments: [sit.group] + Self.notOverArguments(at: date))
            let (toCome, notOver): (Int, Int) = (counted?[0] ?? 0, counted?[1] ?? 0)
            if toCome >= GroupSit.limitPerGroup { throw GroupRepositoryError.tooManySits }
            if notOver >= GroupSit.limitNotOverPerGroup { throw GroupRepositoryError.tooManySitsNotOver }
            try db.cachedStatement(
                sql: """
                    INSERT INTO groupSit (groupID, profileName, segments, startsAt, endsAt, weekly, createdAt, timeZone)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                sit.group, sit.profile.name, segments, sit.startsAt, sit.firstEnd, sit.weekly, date,
                sit.timeZone.identifier,
            ])
            var stored = sit
            stored.id = Int(db.lastInsertedRowID)
            return stored
        }
    }

    public func sits(of group: Int, at date: Date) async throws(GroupRepositoryError) -> [GroupSit] {
        try await read { [person] db in
            try Self.requireMember(person, of: group, db)
            return try Self.sits(of: group, at: date, db)
        }
    }

    public func sit(_ id: Int, of group: Int) async throws(GroupRepositoryError) -> GroupSit? {
        try await read { [person] db in
            try Self.requireMember(person, of: group, db)
            return try Self.sit(id, of: group, db)
        }
    }

    /// The sit's page kept (`GroupPageMemo`), else read at once, not a question at a time; and
    /// without the names, links and removals that `group(_:at:)` reads for the group's page.
    public func sitPage(_ sit: Int, of group: Int, at date: Date) async throws(GroupRepositoryError) -> GroupSitPage? {
        try await pages.sitPage(of: person, sit, of: group, at: date) { () async throws(GroupRepositoryError) in
            try await read { [person] db in
                guard let (found, isHost) = try Self.membership(person, group, db),
                    let sit = try Self.sit(sit, of: group, db)
                else { return nil }
                let page = GroupSitPage(
                    sit: sit, group: found, isHost: isHost, sitting: try Self.sittingNow(in: group, at: date, db))
                let members = try Row.fetchAll(
                    db.cachedStatement(sql: "SELECT personID, isHost FROM groupMember WHERE groupID = ?"),
                    arguments: [group]
                ).map { (row: Row) -> (Int, Bool) in (row[0], row[1]) }
                return (
                    page, Dictionary(members, uniquingKeysWith: { first, _ in first }),
                    try Self.sittingUntil(in: group, at: date, db)
                )
            }
        }
    }

    private static func sit(_ id: Int, of group: Int, _ db: Database) throws -> GroupSit? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(Self.sitColumns) FROM groupSit WHERE id = ? AND groupID = ?"),
            arguments: [id, group]
        ).map(Self.sit)
    }

    public func calendarSits(at date: Date) async throws(GroupRepositoryError) -> [CalendarSit] {
        try await read { [person] db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(Self.sitColumns), (SELECT name FROM sittingGroup g WHERE g.id = groupSit.groupID),
                        coalesce(cancelledAt, createdAt)
                        FROM groupSit
                        WHERE groupID IN (SELECT groupID FROM groupMember WHERE personID = ?) AND \(Self.notOver)
                        ORDER BY startsAt, id
                        """), arguments: [person] + Self.notOverArguments(at: date)
            ).map { CalendarSit(sit: try Self.sit($0), groupName: $0[8], revisedAt: $0[date: 9]) }
        }
    }

    /// The sit and its group's name in one statement, the membership asked in it.
    public func calendarSit(_ id: Int, of group: Int) async throws(GroupRepositoryError) -> CalendarSit? {
        try await read { [person] db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT \(Self.sitColumns), (SELECT name FROM sittingGroup g WHERE g.id = groupSit.groupID),
                        coalesce(cancelledAt, createdAt)
                        FROM groupSit
                        WHERE id = ? AND groupID = ?
                        AND EXISTS (SELECT 1 FROM groupMember m WHERE m.groupID = groupSit.groupID AND m.personID = ?)
                        """), arguments: [id, group, person]
            ).map { CalendarSit(sit: try Self.sit($0), groupName: $0[8], revisedAt: $0[date: 9]) }
        }
    }

    public func cancelSit(_ id: Int, of group: Int, at date: Date) async throws(GroupRepositoryError) {
        defer { pages.forget(group: group) }
        try await write { [person] db in
            try Self.requireMember(person, of: group, host: true, db)
            try db.cachedStatement(
                sql: "UPDATE groupSit SET cancelledAt = ? WHERE id = ? AND groupID = ? AND cancelledAt IS NULL"
            ).execute(arguments: [date, id, group])
            if db.changesCount == 0 { throw GroupRepositoryError.notFound }
        }
    }

    /// Whether a sit is not over (`GroupSit`): it ends later, or it is weekly and not cancelled,
    /// or cancelled within `GroupSit.cancelledWeeklyListing`. Its arguments: `notOverArguments`.
    private static let notOver =
        "(endsAt > ? OR (weekly AND (cancelledAt IS NULL OR cancelledAt > ?)))"

    private static func notOverArguments(at date: Date) -> StatementArguments {
        [StoredDate(date), StoredDate(date.addingTimeInterval(-GroupSit.cancelledWeeklyListing))]
    }

    /// A sit's columns, as `sit(_:)` reads them.
    private static let sitColumns =
        "id, groupID, profileName, segments, startsAt, weekly, cancelledAt IS NOT NULL, timeZone"

    /// A sit from its row: id, group, profile name, segments, start, weekly, cancelled, zone.
    private static func sit(_ row: Row) throws -> GroupSit {
        GroupSit(
            id: row[0], group: row[1], profile: Profile(name: row[2], segments: try SegmentsJSON.decode(row[3])),
            startsAt: row[date: 4], weekly: row[5], cancelled: row[6], timeZone: TimeZone(identifier: row[7]) ?? .utc)
    }

    /// The group's page kept (`GroupPageMemo`), else read at once, not a question at a time.
    public func page(_ id: Int, week: DateInterval, at date: Date) async throws(GroupRepositoryError) -> GroupPage? {
        try await pages.page(of: person, id, week: week, at: date) { () async throws(GroupRepositoryError) in
            try await read { [person] db in
                guard let detail = try Self.detail(person, id, at: date, db) else { return nil }
                let page = GroupPage(
                    detail: detail, practice: try Self.practice(of: id, from: week.start, to: week.end, db),
                    sitting: try Self.sittingNow(in: id, at: date, db), sits: try Self.sits(of: id, at: date, db))
                return (page, try Self.sittingUntil(in: id, at: date, db))
            }
        }
    }

    /// The earliest end of those `sittingNow` shows, if anyone: when the page kept must be read again.
    private static func sittingUntil(in group: Int, at date: Date, _ db: Database) throws -> Date? {
        try Date.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT min(s.until) FROM groupMember m JOIN sittingNow s ON s.personID = m.personID
                    JOIN person p ON p.id = m.personID
                    WHERE m.groupID = ? AND s.until > ? AND p.showWhenSitting
                    """), arguments: [group, StoredDate(date.addingTimeInterval(-SittingNow.grace))])
    }

    /// The group, and whether the person hosts it, if they are a member.
    private static func membership(_ person: Int, _ id: Int, _ db: Database) throws -> (SittingGroup, isHost: Bool)? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT g.id, g.name, g.createdAt, me.isHost
                    FROM groupMember me JOIN sittingGroup g ON g.id = me.groupID
                    WHERE me.personID = ? AND g.id = ?
                    """), arguments: [person, id]
        ).map { (Self.group($0), $0[3]) }
    }

    private static func detail(_ person: Int, _ id: Int, at date: Date, _ db: Database) throws -> GroupDetail? {
        guard let (group, isHost) = try membership(person, id, db) else { return nil }
        let members = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT p.id, p.name, p.username, m.isHost, m.joinedAt
                    FROM groupMember m JOIN person p ON p.id = m.personID
                    WHERE m.groupID = ?
                    ORDER BY m.isHost DESC,
                        CASE WHEN m.isHost THEN m.joinedAt END, p.name COLLATE NOCASE, p.id
                    """), arguments: [id]
        ).map { GroupMember(person: $0[0], name: $0[1], username: $0[2], isHost: $0[3], joinedAt: $0[date: 4]) }
        let invitations =
            isHost
            ? try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id, createdAt, expiresAt FROM groupInvitation
                        WHERE groupID = ? AND expiresAt > ? ORDER BY createdAt, id
                        """), arguments: [id, StoredDate(date)]
            ).map { GroupInvitation(id: $0[0], createdAt: $0[date: 1], expiresAt: $0[date: 2]) } : []
        let removed =
            isHost
            ? try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT p.id, p.name, p.username, r.removedAt
                        FROM groupRemoval r JOIN person p ON p.id = r.personID
                        WHERE r.groupID = ? ORDER BY r.removedAt DESC, p.id
                        """), arguments: [id]
            ).map { RemovedMember(person: $0[0], name: $0[1], username: $0[2], removedAt: $0[date: 3]) } : []
        return GroupDetail(
            group: group, members: members, invitations: invitations, isHost: isHost, removed: removed)
    }

    // The questions of a page, asked once the person's membership is known.

    private static func practice(of group: Int, from start: Date, to end: Date, _ db: Database) throws
        -> [MemberPractice]
    {
        // Each member's range of the (ownerID, startedAt) index.
        return try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT m.personID, count(s.id), coalesce(sum(s.seconds), 0)
                    FROM groupMember m
                    LEFT JOIN sittingSession s ON s.ownerID = m.personID AND s.startedAt >= ? AND s.startedAt < ?
                    WHERE m.groupID = ? GROUP BY m.personID ORDER BY m.personID
                    """), arguments: [StoredDate(start), StoredDate(end), group]
        ).map { MemberPractice(person: $0[0], totals: SittingTotals(sessions: $0[1], seconds: $0[2])) }
    }

    private static func sittingNow(in group: Int, at date: Date, _ db: Database) throws -> [SittingNow] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT p.id, p.name, s.profileName, s.since, sit.id, s.sitID IS NOT NULL AND sit.id IS NULL
                    FROM groupMember m JOIN sittingNow s ON s.personID = m.personID
                    JOIN person p ON p.id = m.personID
                    LEFT JOIN groupSit sit ON sit.id = s.sitID AND sit.groupID = m.groupID
                    WHERE m.groupID = ? AND s.until > ? AND p.showWhenSitting
                    ORDER BY s.since, p.id
                    """), arguments: [group, StoredDate(date.addingTimeInterval(-SittingNow.grace))]
        ).map { row in
            // Another group's sit is named by that group only.
            let elsewhere: Bool = row[5]
            return SittingNow(
                person: row[0], name: row[1], profileName: elsewhere ? "" : row[2], since: row[date: 3], sit: row[4],
                inAnotherGroupsSit: elsewhere)
        }
    }

    private static func sits(of group: Int, at date: Date, _ db: Database) throws -> [GroupSit] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(Self.sitColumns) FROM groupSit
                    WHERE groupID = ? AND cancelledAt IS NULL AND (weekly OR endsAt > ?) ORDER BY startsAt, id
                    """), arguments: [group, StoredDate(date)]
        ).map(Self.sit)
    }

    private static func groupIDs(of person: Int, _ db: Database) throws -> [Int] {
        try Int.fetchAll(
            db.cachedStatement(sql: "SELECT groupID FROM groupMember WHERE personID = ? ORDER BY groupID"),
            arguments: [person])
    }

    /// Throws `notFound` unless `person` is a member of `group` (a host, when `host`).
    private static func requireMember(_ person: Int, of group: Int, host: Bool = false, _ db: Database) throws {
        let isHost = try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT isHost FROM groupMember WHERE groupID = ? AND personID = ?"),
            arguments: [group, person])
        guard let isHost, isHost || !host else { throw GroupRepositoryError.notFound }
    }

    private static func group(_ row: Row) -> SittingGroup {
        SittingGroup(id: row[0], name: row[1], createdAt: row[date: 2])
    }
}
