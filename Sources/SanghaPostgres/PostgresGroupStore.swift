import Foundation
import PostgresNIO
import SanghaCore
import SanghaStoreSupport

/// One person's groups in PostgreSQL: `sitting_group`, its members (`group_member`, hosts among
/// them) and its invitation links (`group_invitation`, by the digest of their token). Every
/// statement names the person, so a group they are not in is not found, as one that does not
/// exist.
///
/// When a member goes (leaving, removed, or with their account), the trigger `group_member_left`
/// deletes a group left empty, or makes the member who joined first host of one left without a
/// host. Leaving and removing lock the group's row before the membership's (the trigger locks it
/// too), so members going from one group at once wait for each other.
///
/// "Sitting now" is `sitting_now`: the person's sit under way, one row at most, shown to the
/// members of each of their groups.
///
/// A group's page is kept in memory while the instance listens for changes (`GroupPageMemo`,
/// `PostgresChangeFeed`): every write here forgets the pages it changed on this instance at
/// once, and announces `group-page ID` so the others forget them too.
public struct PostgresGroupStore: GroupRepository, PostgresStore {
    typealias Failure = GroupRepositoryError
    let database: PostgresDatabase
    private let person: Int
    private let pages: GroupPageMemo?

    /// The groups of `person`; every statement names them.
    public init(database: PostgresDatabase, person: Int) {
        self.init(database: database, person: person, pages: nil)
    }

    init(database: PostgresDatabase, person: Int, pages: GroupPageMemo?) {
        self.database = database
        self.person = person
        self.pages = pages
    }

    /// After a write changed `groups`' pages: this instance forgets them, and every instance
    /// hears of it. A notice that cannot be sent is logged, not thrown (the write stands): the
    /// others then read the page again after `PostgresChangeFeed.maximumAge` at most.
    /// `member`: the person made or joined a group (their own list of groups changed).
    private func changed(_ groups: [Int], member: Bool = false) async {
        for group in groups { pages?.forget(group: group) }
        if member { pages?.forget(listOf: person) }
        let changes =
            groups.map { PostgresChangeFeed.Change.groupPage($0) } + (member ? [.groupsOf(person: person)] : [])
        do {
            try await database.withConnection { [database] connection in
                try await connection.announce(changes, logger: database.logger)
            }
        } catch {
            database.logger.warning("The change of a group's page was not announced: \(String(reflecting: error))")
        }
    }

    /// The list kept (`GroupPageMemo`), else read.
    public func list() async throws(GroupRepositoryError) -> [GroupSummary] {
        let read: @Sendable () async throws(GroupRepositoryError) -> [GroupSummary] = {
            [person, database] () async throws(GroupRepositoryError) in
            try await run { connection in try await Self.all(Groups(person: person), connection, database.logger) }
        }
        guard let pages else { return try await read() }
        return try await pages.list(of: person, reading: read)
    }

    /// The person's groups by name, with their numbers of members: /groups, prepared.
    struct Groups: PreparedRead {
        static let sql = """
            SELECT g.id, g.name, g.created_at, me.is_host,
                (SELECT count(*) FROM group_member m WHERE m.group_id = g.id)
            FROM group_member me JOIN sitting_group g ON g.id = me.group_id
            WHERE me.person_id = $1
            ORDER BY lower(g.name), g.id
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(person: Int) { values = [person] }
        func decodeRow(_ row: PostgresRow) throws -> GroupSummary {
            let (id, name, createdAt, isHost, members) = try row.decode((Int, String, Date, Bool, Int).self)
            return GroupSummary(
                group: SittingGroup(id: id, name: name, createdAt: createdAt), members: members, isHost: isHost)
        }
    }

    public func create(name: String, at date: Date) async throws(GroupRepositoryError) -> SittingGroup {
        let made = try await run { connection in
            // The group and its first host in one statement.
            let rows = try await connection.query(
                """
                WITH made AS (INSERT INTO sitting_group (name, created_at) VALUES (\(name), \(date)) RETURNING id)
                INSERT INTO group_member (group_id, person_id, is_host, joined_at)
                SELECT id, \(person), true, \(date) FROM made
                RETURNING group_id
                """, logger: database.logger)
            for try await id in rows.decode(Int.self) { return SittingGroup(id: id, name: name, createdAt: date) }
            throw PostgresDatabaseError.failed("INSERT returned no id")
        }
        await changed([], member: true)
        return made
    }

    public func group(_ id: Int, at date: Date) async throws(GroupRepositoryError) -> GroupDetail? {
        try await run { [person, database] connection in
            try await Self.detail(person, id, at: date, connection, database.logger)
        }
    }

    /// By person id. A group always has a member, so no row at all means the person is not one.
    public func practice(of group: Int, from start: Date, to end: Date) async throws(GroupRepositoryError)
        -> [MemberPractice]
    {
        let members = try await run { [person, database] connection in
            try await Self.all(
                WeekPractice(group: group, from: start, to: end, person: person), connection, database.logger)
        }
        if members.isEmpty { throw .notFound }
        return members
    }

    public func addInvitation(to group: Int, key: String, at date: Date, expiresAt: Date)
        async throws(GroupRepositoryError)
    {
        try await changeOne(
            group,
            """
            INSERT INTO group_invitation (group_id, key, created_at, expires_at)
            SELECT group_id, \(key), \(date), \(expiresAt) FROM group_member
            WHERE group_id = \(group) AND person_id = \(person) AND is_host
            RETURNING id
            """)
    }

    public func revokeInvitation(_ id: Int, of group: Int) async throws(GroupRepositoryError) {
        try await changeOne(
            group,
            """
            DELETE FROM group_invitation WHERE id = \(id) AND group_id = \(group)
            AND EXISTS (
                SELECT 1 FROM group_member WHERE group_id = \(group) AND person_id = \(person) AND is_host)
            RETURNING id
            """)
    }

    public func invitation(key: String, at date: Date) async throws(GroupRepositoryError) -> GroupInvitationPreview? {
        try await run { connection -> GroupInvitationPreview? in
            let rows = try await connection.query(
                """
                SELECT g.id, g.name, g.created_at,
                    EXISTS (SELECT 1 FROM group_member me WHERE me.group_id = g.id AND me.person_id = \(person)),
                    EXISTS (SELECT 1 FROM group_removal r WHERE r.group_id = g.id AND r.person_id = \(person))
                FROM group_invitation i JOIN sitting_group g ON g.id = i.group_id
                WHERE i.key = \(key) AND i.expires_at > \(date)
                """, logger: database.logger)
            var preview: GroupInvitationPreview?
            for try await (id, name, createdAt, isMember, isRemoved) in rows.decode(
                (Int, String, Date, Bool, Bool).self)
            {
                preview = GroupInvitationPreview(
                    group: SittingGroup(id: id, name: name, createdAt: createdAt), isMember: isMember,
                    isRemoved: isRemoved)
            }
            return preview
        }
    }

    public func join(key: String, at date: Date) async throws(GroupRepositoryError) -> Int {
        // The group, or 0 when a host removed the person from it; nil for no valid link.
        let joined = try await transaction { connection -> Int? in
            // The group's row is held (as the membership's key would be) until the member is in:
            // a group its last member is leaving meanwhile is either kept or not found.
            var group: Int?
            for try await id in try await connection.query(
                """
                SELECT g.id FROM group_invitation i JOIN sitting_group g ON g.id = i.group_id
                WHERE i.key = \(key) AND i.expires_at > \(date)
                FOR KEY SHARE OF g
                """, logger: database.logger
            ).decode(Int.self) {
                group = id
            }
            guard let group else { return nil }
            if try await connection.answersRow(
                "SELECT 1 FROM group_removal WHERE group_id = \(group) AND person_id = \(person)",
                logger: database.logger)
            {
                return 0
            }
            try await connection.query(
                """
                INSERT INTO group_member (group_id, person_id, is_host, joined_at)
                VALUES (\(group), \(person), false, \(date))
                ON CONFLICT DO NOTHING
                """, logger: database.logger)
            return group
        }
        guard let joined else { throw .notFound }
        guard joined != 0 else { throw .removed }
        await changed([joined], member: true)
        return joined
    }

    public func leave(_ group: Int) async throws(GroupRepositoryError) {
        // The trigger passes hosting on, or deletes the group left empty.
        let left = try await transaction { connection in
            guard try await lockGroup(group, connection) else { return false }
            return try await connection.answersRow(
                "DELETE FROM group_member WHERE group_id = \(group) AND person_id = \(person) RETURNING person_id",
                logger: database.logger)
        }
        if !left { throw .notFound }
        await changed([group])
    }

    public func remove(_ member: Int, from group: Int, at date: Date) async throws(GroupRepositoryError) {
        let removed = try await transaction { connection in
            guard try await lockGroup(group, connection) else { return false }
            // Asked again after the lock: the person may have stopped hosting meanwhile.
            guard
                try await connection.answersRow(
                    """
                    DELETE FROM group_member WHERE group_id = \(group) AND person_id = \(member) AND NOT is_host
                    AND EXISTS (
                        SELECT 1 FROM group_member WHERE group_id = \(group) AND person_id = \(person) AND is_host)
                    RETURNING person_id
                    """, logger: database.logger)
            else { return false }
            try await connection.query(
                """
                INSERT INTO group_removal (group_id, person_id, removed_at) VALUES (\(group), \(member), \(date))
                ON CONFLICT (group_id, person_id) DO UPDATE SET removed_at = excluded.removed_at
                """, logger: database.logger)
            return true
        }
        if !removed { throw .notFound }
        await changed([group])
    }

    public func readmit(_ member: Int, to group: Int) async throws(GroupRepositoryError) {
        try await changeOne(
            group,
            """
            DELETE FROM group_removal WHERE group_id = \(group) AND person_id = \(member)
            AND EXISTS (
                SELECT 1 FROM group_member WHERE group_id = \(group) AND person_id = \(person) AND is_host)
            RETURNING person_id
            """)
    }

    public func startSitting(profileName: String, sit: Int?, at date: Date, until: Date)
        async throws(GroupRepositoryError) -> [Int]
    {
        // A sit whose end passed more than the grace before this start is over: this one begins
        // now. Else it goes on, from its start, with this profile and end.
        let over = date.addingTimeInterval(-SittingNow.grace)
        let groups = try await run { connection in
            // The sit and the person's groups in one round trip: the insert runs to its end
            // whether or not its rows are read.
            try await Self.ids(
                connection.query(
                    """
                    WITH sitting AS (
                        INSERT INTO sitting_now (person_id, profile_name, sit_id, since, until)
                        VALUES (\(person), \(profileName), (
                            SELECT s.id FROM group_sit s
                            JOIN group_member m ON m.group_id = s.group_id AND m.person_id = \(person)
                            WHERE s.id = \(sit) AND s.cancelled_at IS NULL), \(date), \(until))
                        ON CONFLICT (person_id) DO UPDATE
                        SET profile_name = excluded.profile_name, sit_id = excluded.sit_id, until = excluded.until,
                            since = CASE
                                WHEN sitting_now.until <= \(over) OR sitting_now.sit_id IS DISTINCT FROM excluded.sit_id
                                THEN excluded.since ELSE sitting_now.since END
                    )
                    SELECT group_id FROM group_member WHERE person_id = \(person) ORDER BY group_id
                    """, logger: database.logger))
        }
        await changed(groups)
        return groups
    }

    public func stopSitting() async throws(GroupRepositoryError) -> [Int] {
        let groups = try await run { connection in
            try await Self.ids(
                connection.query(
                    """
                    WITH stopped AS (DELETE FROM sitting_now WHERE person_id = \(person))
                    SELECT group_id FROM group_member WHERE person_id = \(person) ORDER BY group_id
                    """, logger: database.logger))
        }
        await changed(groups)
        return groups
    }

    public func sittingNow(in group: Int, at date: Date) async throws(GroupRepositoryError) -> [SittingNow] {
        let found = try await run { [person, database] connection in
            try await Self.all(Sitting(group: group, at: date, person: person), connection, database.logger)
        }
        if found.isEmpty { throw .notFound }
        return found.compactMap { $0 }
    }

    public func scheduleSit(_ sit: GroupSit, at date: Date) async throws(GroupRepositoryError) -> GroupSit {
        let segments: String
        do {
            segments = try SegmentsJSON.encode(sit.profile.segments)
        } catch {
            throw .storage("The segments could not be encoded: \(error)")
        }
        let cancelledSince = date.addingTimeInterval(-GroupSit.cancelledWeeklyListing)
        // The id (nil when a limit was reached) and the sits to come; no row when the person
        // hosts no such group.
        let made = try await run { connection -> (id: Int?, toCome: Int)? in
            let rows = try await connection.query(
                """
                WITH host AS (
                    SELECT group_id FROM group_member WHERE group_id = \(sit.group) AND person_id = \(person) AND is_host
                ), counted AS (
                    SELECT count(*) FILTER (WHERE cancelled_at IS NULL) AS to_come, count(*) AS not_over
                    FROM group_sit
                    WHERE group_id = \(sit.group) AND (ends_at > \(date)
                        OR (weekly AND (cancelled_at IS NULL OR cancelled_at > \(cancelledSince))))
                ), made AS (
                    INSERT INTO group_sit (group_id, profile_name, segments, starts_at, ends_at, weekly, created_at, time_zone)
                    SELECT group_id, \(sit.profile.name), \(segments)::jsonb, \(sit.startsAt), \(sit.firstEnd),
                        \(sit.weekly), \(date), \(sit.timeZone.identifier)
                    FROM host, counted
                    WHERE counted.to_come < \(GroupSit.limitPerGroup)
                        AND counted.not_over < \(GroupSit.limitNotOverPerGroup)
                    RETURNING id
                )
                SELECT (SELECT id FROM made), (SELECT to_come FROM counted) FROM host
                """, logger: database.logger)
            for try await (id, toCome) in rows.decode((Int?, Int).self) { return (id, toCome) }
            return nil
        }
        guard let made else { throw .notFound }
        guard let id = made.id else {
            throw made.toCome >= GroupSit.limitPerGroup ? .tooManySits : .tooManySitsNotOver
        }
        await changed([sit.group])
        var stored = sit
        stored.id = id
        return stored
    }

    public func sits(of group: Int, at date: Date) async throws(GroupRepositoryError) -> [GroupSit] {
        let found = try await run { [person, database] connection in
            try await Self.all(Sits(group: group, at: date, person: person), connection, database.logger)
        }
        if found.isEmpty { throw .notFound }
        return found.compactMap { $0 }
    }

    /// The group's page kept (`GroupPageMemo`), else read in one prepared statement (`Page`).
    public func page(_ id: Int, week: DateInterval, at date: Date) async throws(GroupRepositoryError) -> GroupPage? {
        let read: @Sendable () async throws(GroupRepositoryError) -> (GroupPage, sittingUntil: Date?)? = {
            [person, database] () async throws(GroupRepositoryError) in
            try await run { connection in
                try await Self.all(Page(group: id, person: person, week: week, at: date), connection, database.logger)
                    .first
            }
        }
        guard let pages else { return try await read()?.0 }
        return try await pages.page(of: person, id, week: week, at: date, reading: read)
    }

    public func sit(_ id: Int, of group: Int) async throws(GroupRepositoryError) -> GroupSit? {
        let found = try await run { [person, database] connection in
            try await Self.all(SitOfMember(sit: id, group: group, person: person), connection, database.logger)
        }
        guard let (_, _, sit) = found.first else { throw .notFound }
        return sit
    }

    /// The sit's page kept (`GroupPageMemo`), else read in one prepared statement (`SitPage`),
    /// without the names, links and removals the group's page reads.
    public func sitPage(_ sit: Int, of group: Int, at date: Date) async throws(GroupRepositoryError) -> GroupSitPage? {
        let read:
            @Sendable () async throws(GroupRepositoryError) -> (
                GroupSitPage, members: [Int: Bool], sittingUntil: Date?
            )? = { [person, database] () async throws(GroupRepositoryError) in
                try await run { connection in
                    try await Self.all(
                        SitPage(sit: sit, group: group, person: person, at: date), connection, database.logger
                    ).first ?? nil
                }
            }
        guard let pages else { return try await read()?.0 }
        return try await pages.sitPage(of: person, sit, of: group, at: date, reading: read)
    }

    /// A sit's columns, as `sit(_:group:)` reads them.
    static let sitColumns = sitColumnList.joined(separator: ", ")
    /// The same, one a column: the group's page reads each as an array.
    static let sitColumnList = [
        "s.id", "s.profile_name", "s.segments::text", "s.starts_at", "s.weekly", "s.cancelled_at IS NOT NULL",
        "s.time_zone",
    ]

    public func calendarSits(at date: Date) async throws(GroupRepositoryError) -> [CalendarSit] {
        try await run { [person, database] connection in
            try await Self.all(CalendarSits(person: person, at: date), connection, database.logger).compactMap { $0 }
        }
    }

    /// Every sit of the person's groups not over, cancelled ones too until they are over
    /// (`GroupSit`): the calendar feed, prepared.
    struct CalendarSits: PreparedRead {
        static let sql = """
            SELECT \(PostgresGroupStore.sitColumns), s.group_id, g.name, coalesce(s.cancelled_at, s.created_at)
            FROM group_member me JOIN group_sit s ON s.group_id = me.group_id
            JOIN sitting_group g ON g.id = me.group_id
            WHERE me.person_id = $1 AND (s.ends_at > $2 OR (s.weekly AND (s.cancelled_at IS NULL OR s.cancelled_at > $3)))
            ORDER BY s.starts_at, s.id
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8, .timestamptz, .timestamptz]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(person: Int, at date: Date) {
            values = [person, date, date.addingTimeInterval(-GroupSit.cancelledWeeklyListing)]
        }
        func decodeRow(_ row: PostgresRow) throws -> CalendarSit? {
            let row = try row.decode((Int?, String?, String?, Date?, Bool?, Bool?, String?, Int, String, Date).self)
            let sit = try PostgresGroupStore.sit((row.0, row.1, row.2, row.3, row.4, row.5, row.6), group: row.7)
            return sit.map { CalendarSit(sit: $0, groupName: row.8, revisedAt: row.9) }
        }
    }

    public func calendarSit(_ id: Int, of group: Int) async throws(GroupRepositoryError) -> CalendarSit? {
        try await run { [person, database] connection in
            try await Self.all(SitFile(person: person, group: group, sit: id), connection, database.logger).first
        }
    }

    /// One sit of a group of the person's, with the group's name: "Add to calendar", prepared.
    struct SitFile: PreparedRead {
        static let sql = """
            SELECT \(PostgresGroupStore.sitColumns), s.group_id, g.name, coalesce(s.cancelled_at, s.created_at)
            FROM group_member me JOIN group_sit s ON s.group_id = me.group_id
            JOIN sitting_group g ON g.id = me.group_id
            WHERE me.person_id = $1 AND me.group_id = $2 AND s.id = $3
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(person: Int, group: Int, sit: Int) { values = [person, group, sit] }
        func decodeRow(_ row: PostgresRow) throws -> CalendarSit {
            let row = try row.decode((Int, String, String, Date, Bool, Bool, String, Int, String, Date).self)
            let sit = try PostgresGroupStore.sit((row.0, row.1, row.2, row.3, row.4, row.5, row.6), group: row.7)
            guard let sit else { throw PostgresDatabaseError.failed("A sit's row had no sit") }
            return CalendarSit(sit: sit, groupName: row.8, revisedAt: row.9)
        }
    }

    public func cancelSit(_ id: Int, of group: Int, at date: Date) async throws(GroupRepositoryError) {
        try await changeOne(
            group,
            """
            UPDATE group_sit SET cancelled_at = \(date)
            WHERE id = \(id) AND group_id = \(group) AND cancelled_at IS NULL
            AND EXISTS (
                SELECT 1 FROM group_member WHERE group_id = \(group) AND person_id = \(person) AND is_host)
            RETURNING id
            """)
    }

    /// A sit from its columns; nil for the row of nulls a membership without sits answers.
    static func sit(_ row: SitRow, group: Int) throws
        -> GroupSit?
    {
        guard let id = row.0, let name = row.1, let segments = row.2, let startsAt = row.3, let weekly = row.4 else {
            return nil
        }
        return GroupSit(
            id: id, group: group, profile: Profile(name: name, segments: try SegmentsJSON.decode(segments)),
            startsAt: startsAt, weekly: weekly, cancelled: row.5 ?? false,
            timeZone: row.6.flatMap(TimeZone.init(identifier:)) ?? .utc)
    }

    /// Locks the group's row, as the trigger does when a member goes, if the person is a member:
    /// whether they are.
    private func lockGroup(_ group: Int, _ connection: PostgresConnection) async throws -> Bool {
        try await connection.answersRow(
            """
            SELECT g.id FROM sitting_group g JOIN group_member me ON me.group_id = g.id
            WHERE g.id = \(group) AND me.person_id = \(person)
            FOR UPDATE OF g
            """, logger: database.logger)
    }

    /// The ids a statement answered, in its order.
    private static func ids(_ rows: PostgresRowSequence) async throws -> [Int] {
        var ids: [Int] = []
        for try await id in rows.decode(Int.self) { ids.append(id) }
        return ids
    }

    /// Runs a statement of `group` that answers the rows it changed; `.notFound` when it changed
    /// none (no such row, or this person is not its group's host).
    private func changeOne(_ group: Int, _ query: PostgresQuery) async throws(GroupRepositoryError) {
        let found = try await run { [database] connection in
            try await connection.answersRow(query, logger: database.logger)
        }
        if !found { throw .notFound }
        await changed([group])
    }
}
