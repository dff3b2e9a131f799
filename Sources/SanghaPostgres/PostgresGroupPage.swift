import Foundation
import PostgresNIO
import SanghaCore

/// The questions of a group's page and a sit's page, each prepared (`PreparedRead`): one at a
/// time for the repository's questions (`group`, `practice`, `sittingNow`, `sits`, `sit`), and
/// each page at once in one statement (`Page`, `SitPage`) whose lists keep the same orders.
extension PostgresGroupStore {
    /// The group and whether `person` hosts it; no row when they are not a member.
    struct Membership: PreparedRead {
        static let sql = """
            SELECT g.name, g.created_at, me.is_host
            FROM group_member me JOIN sitting_group g ON g.id = me.group_id
            WHERE me.group_id = $1 AND me.person_id = $2
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(group: Int, person: Int) { values = [group, person] }
        func decodeRow(_ row: PostgresRow) throws -> (String, Date, Bool) { try row.decode((String, Date, Bool).self) }
    }

    /// Hosts first, in the order they became members, then the others by name.
    struct Members: PreparedRead {
        static let sql = """
            SELECT p.id, p.name, p.username, m.is_host, m.joined_at
            FROM group_member m JOIN person p ON p.id = m.person_id
            WHERE m.group_id = $1
            AND EXISTS (SELECT 1 FROM group_member me WHERE me.group_id = $1 AND me.person_id = $2)
            ORDER BY \(order)
            """
        static let order =
            "m.is_host DESC, CASE WHEN m.is_host THEN m.joined_at END, CASE WHEN NOT m.is_host THEN lower(p.name) END, p.id"
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(group: Int, person: Int) { values = [group, person] }
        func decodeRow(_ row: PostgresRow) throws -> GroupMember {
            let (member, name, username, isHost, joinedAt) = try row.decode((Int, String, String, Bool, Date).self)
            return GroupMember(person: member, name: name, username: username, isHost: isHost, joinedAt: joinedAt)
        }
    }

    /// The links in force, for a host.
    struct Invitations: PreparedRead {
        static let sql = """
            SELECT i.id, i.created_at, i.expires_at FROM group_invitation i
            WHERE i.group_id = $1 AND i.expires_at > $2
            AND EXISTS (
                SELECT 1 FROM group_member me WHERE me.group_id = $1 AND me.person_id = $3 AND me.is_host)
            ORDER BY \(order)
            """
        static let order = "i.created_at, i.id"
        static let bindingDataTypes: [PostgresDataType] = [.int8, .timestamptz, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(group: Int, at date: Date, person: Int) { values = [group, date, person] }
        func decodeRow(_ row: PostgresRow) throws -> GroupInvitation {
            let (id, createdAt, expiresAt) = try row.decode((Int, Date, Date).self)
            return GroupInvitation(id: id, createdAt: createdAt, expiresAt: expiresAt)
        }
    }

    /// Those removed and not let back in, newest first, for a host.
    struct Removed: PreparedRead {
        static let sql = """
            SELECT p.id, p.name, p.username, r.removed_at
            FROM group_removal r JOIN person p ON p.id = r.person_id
            WHERE r.group_id = $1
            AND EXISTS (
                SELECT 1 FROM group_member me WHERE me.group_id = $1 AND me.person_id = $2 AND me.is_host)
            ORDER BY \(order)
            """
        static let order = "r.removed_at DESC, p.id"
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(group: Int, person: Int) { values = [group, person] }
        func decodeRow(_ row: PostgresRow) throws -> RemovedMember {
            let (member, name, username, removedAt) = try row.decode((Int, String, String, Date).self)
            return RemovedMember(person: member, name: name, username: username, removedAt: removedAt)
        }
    }

    /// Each member's sessions begun in `start ..< end`, by person id (each member's range of
    /// the (owner_id, started_at) index); no row when `person` is not a member.
    struct WeekPractice: PreparedRead {
        static let sql = """
            SELECT m.person_id, count(s.id)::bigint, coalesce(sum(s.seconds), 0)::bigint
            FROM group_member m
            LEFT JOIN sitting_session s ON s.owner_id = m.person_id AND s.started_at >= $1 AND s.started_at < $2
            WHERE m.group_id = $3
            AND EXISTS (SELECT 1 FROM group_member me WHERE me.group_id = $3 AND me.person_id = $4)
            GROUP BY m.person_id ORDER BY \(order)
            """
        static let order = "m.person_id"
        static let bindingDataTypes: [PostgresDataType] = [.timestamptz, .timestamptz, .int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(group: Int, from start: Date, to end: Date, person: Int) { values = [start, end, group, person] }
        func decodeRow(_ row: PostgresRow) throws -> MemberPractice {
            let (member, count, seconds) = try row.decode((Int, Int, Int).self)
            return MemberPractice(person: member, totals: SittingTotals(sessions: count, seconds: seconds))
        }
    }

    /// The person's membership joined with the members sitting (shown while their end is less
    /// than the grace ago): a row of nulls (nil) when no one is, no row at all when the person is
    /// not a member.
    struct Sitting: PreparedRead {
        static let sql = """
            SELECT p.id, p.name, s.profile_name, s.since, sit.id, s.sit_id IS NOT NULL AND sit.id IS NULL
            FROM group_member me
            LEFT JOIN (
                group_member m
                JOIN sitting_now s ON s.person_id = m.person_id
                JOIN person p ON p.id = m.person_id
                LEFT JOIN group_sit sit ON sit.id = s.sit_id AND sit.group_id = m.group_id
            ) ON m.group_id = me.group_id AND s.until > $1 AND p.show_when_sitting
            WHERE me.group_id = $2 AND me.person_id = $3
            ORDER BY \(order)
            """
        static let order = "s.since, p.id"
        static let bindingDataTypes: [PostgresDataType] = [.timestamptz, .int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        init(group: Int, at date: Date, person: Int) {
            values = [date.addingTimeInterval(-SittingNow.grace), group, person]
        }
        func decodeRow(_ row: PostgresRow) throws -> SittingNow? {
            let (member, name, profileName, since, sit, elsewhere) = try row.decode(
                (Int?, String?, String?, Date?, Int?, Bool?).self)
            guard let member, let name, let profileName, let since else { return nil }
            // Another group's sit is named by that group only.
            let inAnother = elsewhere ?? false
            return SittingNow(
                person: member, name: name, profileName: inAnother ? "" : profileName, since: since, sit: sit,
                inAnotherGroupsSit: inAnother)
        }
    }

    /// The sits not over at the date nor cancelled, joined with the person's membership: a nil
    /// for the row of nulls a membership without sits gives, no row when they are not a member.
    struct Sits: PreparedRead {
        static let sql = """
            SELECT \(PostgresGroupStore.sitColumns)
            FROM group_member me
            LEFT JOIN group_sit s ON s.group_id = me.group_id AND s.cancelled_at IS NULL
                AND (s.weekly OR s.ends_at > $1)
            WHERE me.group_id = $2 AND me.person_id = $3
            ORDER BY \(order)
            """
        static let order = "s.starts_at, s.id"
        static let bindingDataTypes: [PostgresDataType] = [.timestamptz, .int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        let group: Int
        init(group: Int, at date: Date, person: Int) { (self.group, values) = (group, [date, group, person]) }
        func decodeRow(_ row: PostgresRow) throws -> GroupSit? {
            try PostgresGroupStore.sit(try row.decode(SitRow.self), group: group)
        }
    }

    /// The group, whether the person hosts it, and one of its sits (nulls when it has no such
    /// sit); no row when they are not a member.
    struct SitOfMember: PreparedRead {
        static let sql = """
            SELECT g.name, g.created_at, me.is_host, \(PostgresGroupStore.sitColumns)
            FROM group_member me JOIN sitting_group g ON g.id = me.group_id
            LEFT JOIN group_sit s ON s.group_id = me.group_id AND s.id = $1
            WHERE me.group_id = $2 AND me.person_id = $3
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8, .int8]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        let group: Int
        init(sit: Int, group: Int, person: Int) { (self.group, values) = (group, [sit, group, person]) }
        func decodeRow(_ row: PostgresRow) throws -> (SittingGroup, isHost: Bool, GroupSit?) {
            let (name, createdAt, isHost, id, profile, segments, startsAt, weekly, cancelled, zone) = try row.decode(
                (String, Date, Bool, Int?, String?, String?, Date?, Bool?, Bool?, String?).self)
            return (
                SittingGroup(id: group, name: name, createdAt: createdAt), isHost,
                try PostgresGroupStore.sit((id, profile, segments, startsAt, weekly, cancelled, zone), group: group)
            )
        }
    }

    /// A sit's columns as `sit(_:group:)` reads them, nil for a row of nulls.
    typealias SitRow = (Int?, String?, String?, Date?, Bool?, Bool?, String?)

    /// The group as its page shows it to `person`, on one connection; nil when they are not a
    /// member.
    static func detail(_ person: Int, _ id: Int, at date: Date, _ connection: PostgresConnection, _ logger: Logger)
        async throws -> GroupDetail?
    {
        guard
            let (name, createdAt, isHost) = try await all(Membership(group: id, person: person), connection, logger)
                .first
        else { return nil }
        return GroupDetail(
            group: SittingGroup(id: id, name: name, createdAt: createdAt),
            members: try await all(Members(group: id, person: person), connection, logger),
            invitations: isHost
                ? try await all(Invitations(group: id, at: date, person: person), connection, logger) : [],
            isHost: isHost,
            removed: isHost ? try await all(Removed(group: id, person: person), connection, logger) : [])
    }

    /// A group's page in one statement, not seven one after another: the group and whether the
    /// person hosts it, then each part of the page in arrays, one a column, each in the order of
    /// the part's own statement above, and the earliest end of those sitting (when the page kept
    /// must be read again, `GroupPageMemo`); no row when the person is not a member. (An array of
    /// nothing is NULL.)
    struct Page: PreparedRead {
        static let sql = """
            SELECT g.name, g.created_at, me.is_host, members.*, invitations.*, removed.*, practice.*,
                sitting.*, sits.*, sitting_until.*
            FROM group_member me JOIN sitting_group g ON g.id = me.group_id
            CROSS JOIN LATERAL (
                SELECT \(arrays(["p.id", "p.name", "p.username", "m.is_host", "m.joined_at"], Members.order))
                FROM group_member m JOIN person p ON p.id = m.person_id WHERE m.group_id = me.group_id
            ) members
            CROSS JOIN LATERAL (
                SELECT \(arrays(["i.id", "i.created_at", "i.expires_at"], Invitations.order))
                FROM group_invitation i WHERE me.is_host AND i.group_id = me.group_id AND i.expires_at > $3
            ) invitations
            CROSS JOIN LATERAL (
                SELECT \(arrays(["p.id", "p.name", "p.username", "r.removed_at"], Removed.order))
                FROM group_removal r JOIN person p ON p.id = r.person_id
                WHERE me.is_host AND r.group_id = me.group_id
            ) removed
            CROSS JOIN LATERAL (
                SELECT \(arrays(["m.person_id", "m.sessions", "m.seconds"], WeekPractice.order))
                FROM (
                    SELECT m.person_id, count(s.id)::bigint AS sessions, coalesce(sum(s.seconds), 0)::bigint AS seconds
                    FROM group_member m
                    LEFT JOIN sitting_session s
                        ON s.owner_id = m.person_id AND s.started_at >= $4 AND s.started_at < $5
                    WHERE m.group_id = me.group_id GROUP BY m.person_id
                ) m
            ) practice
            \(sittingArrays(until: "$6"))
            CROSS JOIN LATERAL (
                SELECT \(arrays(PostgresGroupStore.sitColumnList, Sits.order))
                FROM group_sit s
                WHERE s.group_id = me.group_id AND s.cancelled_at IS NULL AND (s.weekly OR s.ends_at > $3)
            ) sits
            \(sittingUntil(until: "$6"))
            WHERE me.group_id = $1 AND me.person_id = $2
            """
        static let bindingDataTypes: [PostgresDataType] = [
            .int8, .int8, .timestamptz, .timestamptz, .timestamptz, .timestamptz,
        ]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        let group: Int
        init(group: Int, person: Int, week: DateInterval, at date: Date) {
            self.group = group
            values = [group, person, date, week.start, week.end, date.addingTimeInterval(-SittingNow.grace)]
        }

        func decodeRow(_ row: PostgresRow) throws -> (GroupPage, sittingUntil: Date?) {
            var columns = Columns(row)
            let found = SittingGroup(id: group, name: try columns.next(), createdAt: try columns.next())
            let isHost: Bool = try columns.next()

            let (memberIDs, names, usernames, hosts, joined) = (
                try columns.array(Int.self), try columns.array(String.self), try columns.array(String.self),
                try columns.array(Bool.self), try columns.array(Date.self)
            )
            let members = try Columns.rows(memberIDs, names, usernames, hosts, joined).map {
                GroupMember(
                    person: memberIDs[$0], name: names[$0], username: usernames[$0], isHost: hosts[$0],
                    joinedAt: joined[$0])
            }

            let (linkIDs, created, expires) = (
                try columns.array(Int.self), try columns.array(Date.self), try columns.array(Date.self)
            )
            let invitations = try Columns.rows(linkIDs, created, expires).map {
                GroupInvitation(id: linkIDs[$0], createdAt: created[$0], expiresAt: expires[$0])
            }

            let (removedIDs, removedNames, removedUsernames, removedAt) = (
                try columns.array(Int.self), try columns.array(String.self), try columns.array(String.self),
                try columns.array(Date.self)
            )
            let removed = try Columns.rows(removedIDs, removedNames, removedUsernames, removedAt).map {
                RemovedMember(
                    person: removedIDs[$0], name: removedNames[$0], username: removedUsernames[$0],
                    removedAt: removedAt[$0])
            }

            let (practiceIDs, sessions, seconds) = (
                try columns.array(Int.self), try columns.array(Int.self), try columns.array(Int.self)
            )
            let practice = try Columns.rows(practiceIDs, sessions, seconds).map {
                MemberPractice(
                    person: practiceIDs[$0], totals: SittingTotals(sessions: sessions[$0], seconds: seconds[$0]))
            }

            let sitting = try columns.sittingNow()

            let (sitIDsOfGroup, profiles, segments, starts, weekly, cancelled, zones) = (
                try columns.array(Int.self), try columns.array(String.self), try columns.array(String.self),
                try columns.array(Date.self), try columns.array(Bool.self), try columns.array(Bool.self),
                try columns.array(String.self)
            )
            let sits = try Columns.rows(sitIDsOfGroup, profiles, segments, starts, weekly, cancelled, zones).compactMap
            {
                try PostgresGroupStore.sit(
                    (sitIDsOfGroup[$0], profiles[$0], segments[$0], starts[$0], weekly[$0], cancelled[$0], zones[$0]),
                    group: group)
            }

            let page = GroupPage(
                detail: GroupDetail(
                    group: found, members: members, invitations: invitations, isHost: isHost, removed: removed),
                practice: practice, sitting: sitting, sits: sits)
            return (page, try columns.next(Date?.self))
        }
    }

    /// A sit's page in one statement: the group, whether the person hosts it, the sit (nulls
    /// when the group has no such sit), who is sitting, in arrays as `Page` has them, and for the
    /// page kept (`GroupPageMemo`) the members with whether each hosts, and the earliest end of
    /// those sitting; no row when the person is not a member.
    struct SitPage: PreparedRead {
        static let sql = """
            SELECT g.name, g.created_at, me.is_host, \(PostgresGroupStore.sitColumns), sitting.*, members.*,
                sitting_until.*
            FROM group_member me JOIN sitting_group g ON g.id = me.group_id
            LEFT JOIN group_sit s ON s.group_id = me.group_id AND s.id = $1
            \(sittingArrays(until: "$4"))
            CROSS JOIN LATERAL (
                SELECT array_agg(m.person_id), array_agg(m.is_host) FROM group_member m WHERE m.group_id = me.group_id
            ) members
            \(sittingUntil(until: "$4"))
            WHERE me.group_id = $2 AND me.person_id = $3
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8, .int8, .int8, .timestamptz]
        let values: [any PostgresNonThrowingEncodable & Sendable]
        let group: Int
        init(sit: Int, group: Int, person: Int, at date: Date) {
            self.group = group
            values = [sit, group, person, date.addingTimeInterval(-SittingNow.grace)]
        }

        /// Nil when the group has no such sit.
        func decodeRow(_ row: PostgresRow) throws -> (GroupSitPage, members: [Int: Bool], sittingUntil: Date?)? {
            var columns = Columns(row)
            let found = SittingGroup(id: group, name: try columns.next(), createdAt: try columns.next())
            let isHost: Bool = try columns.next()
            let sit = try PostgresGroupStore.sit(
                (
                    try columns.next(), try columns.next(), try columns.next(), try columns.next(), try columns.next(),
                    try columns.next(), try columns.next()
                ), group: group)
            let sitting = try columns.sittingNow()
            let (members, hosts) = (try columns.array(Int.self), try columns.array(Bool.self))
            let hosting = Dictionary(
                try Columns.rows(members, hosts).map { (members[$0], hosts[$0]) },
                uniquingKeysWith: { first, _ in first })
            let until = try columns.next(Date?.self)
            return sit.map { (GroupSitPage(sit: $0, group: found, isHost: isHost, sitting: sitting), hosting, until) }
        }
    }

    /// The earliest end of those `sittingArrays(until:)` answers, or NULL: when a page kept must
    /// be read again (`GroupPageMemo`).
    static func sittingUntil(until: String) -> String {
        """
        CROSS JOIN LATERAL (
            SELECT min(s.until)
            FROM group_member m
            JOIN sitting_now s ON s.person_id = m.person_id
            JOIN person p ON p.id = m.person_id
            WHERE m.group_id = me.group_id AND s.until > \(until) AND p.show_when_sitting
        ) sitting_until
        """
    }

    /// The members of `me`'s group sitting now (their end later than the parameter `until`), as
    /// `Sitting` answers them, in arrays (`Columns.sittingNow`). A sitter's sit is an id and a
    /// flag, as these arrays hold no NULL.
    static func sittingArrays(until: String) -> String {
        """
        CROSS JOIN LATERAL (
            SELECT \(arrays(
                ["p.id", "p.name", "s.profile_name", "s.since", "sit.id IS NOT NULL", "coalesce(sit.id, 0)",
                "s.sit_id IS NOT NULL AND sit.id IS NULL"], Sitting.order))
            FROM group_member m
            JOIN sitting_now s ON s.person_id = m.person_id
            JOIN person p ON p.id = m.person_id
            LEFT JOIN group_sit sit ON sit.id = s.sit_id AND sit.group_id = m.group_id
            WHERE m.group_id = me.group_id AND s.until > \(until) AND p.show_when_sitting
        ) sitting
        """
    }
}

extension Columns {
    /// Who is sitting, from `PostgresGroupStore.sittingArrays`.
    mutating func sittingNow() throws -> [SittingNow] {
        let (ids, names, profileNames, since, inGroupSit, sits, elsewhere) = (
            try array(Int.self), try array(String.self), try array(String.self), try array(Date.self),
            try array(Bool.self), try array(Int.self), try array(Bool.self)
        )
        return try Self.rows(ids, names, profileNames, since, inGroupSit, sits, elsewhere).map {
            // Another group's sit is named by that group only.
            SittingNow(
                person: ids[$0], name: names[$0], profileName: elsewhere[$0] ? "" : profileNames[$0], since: since[$0],
                sit: inGroupSit[$0] ? sits[$0] : nil, inAnotherGroupsSit: elsewhere[$0])
        }
    }
}
