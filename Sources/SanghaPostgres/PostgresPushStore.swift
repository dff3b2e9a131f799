import Foundation
import PostgresNIO
import SanghaCore
import SanghaStoreSupport

/// Devices, choices, the deployment's VAPID key and what was sent, in PostgreSQL:
/// `push_device`, `push_choice`, `push_sent` and `secret`. `push_sent`'s key (message, device)
/// is what makes a message go once to a device however many instances run: the instance whose
/// `INSERT` adds the row sends it; the others find it there and skip.
public struct PostgresPushStore: PushRepository, PostgresStore {
    typealias Failure = PushRepositoryError
    let database: PostgresDatabase

    public init(database: PostgresDatabase) { self.database = database }

    public func vapidKey(keeping fresh: [UInt8]) async throws(PushRepositoryError) -> [UInt8] {
        try await run { [database] connection in
            try await connection.query(
                """
                INSERT INTO secret (name, value) VALUES ('vapid', \(ByteBuffer(bytes: fresh)))
                ON CONFLICT (name) DO NOTHING
                """, logger: database.logger)
            let rows = try await connection.query(
                "SELECT value FROM secret WHERE name = 'vapid'", logger: database.logger)
            for try await value in rows.decode(ByteBuffer.self) { return Array(value.readableBytesView) }
            return fresh
        }
    }

    typealias DeviceRow = (Int, Int, String, ByteBuffer, ByteBuffer, String, Date, String?)

    static func deviceColumns(_ table: String) -> String {
        ["id", "person_id", "endpoint", "p256dh", "auth", "name", "created_at", "session_key"].map { "\(table).\($0)" }
            .joined(separator: ", ")
    }

    static func device(_ row: DeviceRow) -> PushDevice {
        PushDevice(
            id: row.0, person: row.1, endpoint: row.2, p256dh: Array(row.3.readableBytesView),
            auth: Array(row.4.readableBytesView), name: row.5, createdAt: row.6, session: row.7)
    }

    public func devices(of person: Int) async throws(PushRepositoryError) -> [PushDevice] {
        try await run { [database] connection in
            var devices: [PushDevice] = []
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.deviceColumns("d")) FROM push_device d WHERE d.person_id = \(person)
                ORDER BY d.created_at DESC, d.id DESC
                """, logger: database.logger)
            for try await row in rows.decode(DeviceRow.self) { devices.append(Self.device(row)) }
            return devices
        }
    }

    public func add(_ device: PushDevice, limit: Int) async throws(PushRepositoryError) -> PushDevice {
        try await transaction { [database] connection in
            // A browser subscribed again (or by someone else now) is the same device: replaced.
            try await connection.query(
                "DELETE FROM push_device WHERE endpoint = \(device.endpoint)", logger: database.logger)
            let rows = try await connection.query(
                """
                INSERT INTO push_device (person_id, endpoint, p256dh, auth, name, session_key, created_at)
                VALUES (\(device.person), \(device.endpoint), \(ByteBuffer(bytes: device.p256dh)),
                    \(ByteBuffer(bytes: device.auth)), \(device.name), \(device.session), \(device.createdAt))
                RETURNING id
                """, logger: database.logger)
            var kept = device
            for try await id in rows.decode(Int.self) { kept.id = id }
            try await connection.query(
                """
                DELETE FROM push_device WHERE person_id = \(device.person) AND id NOT IN (
                    SELECT id FROM push_device WHERE person_id = \(device.person)
                    ORDER BY created_at DESC, id DESC LIMIT \(limit))
                """, logger: database.logger)
            return kept
        }
    }

    public func remove(device id: Int, of person: Int) async throws(PushRepositoryError) -> Bool {
        try await run { [database] connection in
            let rows = try await connection.query(
                "DELETE FROM push_device WHERE id = \(id) AND person_id = \(person) RETURNING id",
                logger: database.logger)
            for try await _ in rows.decode(Int.self) { return true }
            return false
        }
    }

    public func signedOut(session: String?, endpoint: String?, of person: Int) async throws(PushRepositoryError) {
        try await run { [database] connection in
            try await connection.query(
                """
                DELETE FROM push_device
                WHERE person_id = \(person) AND (session_key = \(session) OR endpoint = \(endpoint))
                """, logger: database.logger)
        }
    }

    public func choices(of person: Int) async throws(PushRepositoryError) -> PushChoices {
        try await run { [database] connection in
            let rows = try await connection.query(
                "SELECT sits, reminder, sitting FROM push_choice WHERE person_id = \(person)", logger: database.logger)
            for try await (sits, reminder, sitting) in rows.decode((Bool, Bool, Bool).self) {
                return PushChoices(sits: sits, reminder: reminder, sitting: sitting)
            }
            return .standard
        }
    }

    public func setChoices(_ choices: PushChoices, of person: Int) async throws(PushRepositoryError) {
        try await run { [database] connection in
            try await connection.query(
                """
                INSERT INTO push_choice (person_id, sits, reminder, sitting)
                VALUES (\(person), \(choices.sits), \(choices.reminder), \(choices.sitting))
                ON CONFLICT (person_id) DO UPDATE SET
                    sits = excluded.sits, reminder = excluded.reminder, sitting = excluded.sitting
                """, logger: database.logger)
        }
    }

    public func delete(device id: Int) async throws(PushRepositoryError) {
        try await run { [database] connection in
            try await connection.query("DELETE FROM push_device WHERE id = \(id)", logger: database.logger)
        }
    }

    public func sits(beginningFrom from: Date, to: Date) async throws(PushRepositoryError) -> [CalendarSit] {
        try await run { [database] connection in
            var sits: [CalendarSit] = []
            let rows = try await connection.query(
                """
                SELECT s.id, s.group_id, s.profile_name, s.segments::text, s.starts_at, s.weekly, s.time_zone, g.name
                FROM group_sit s JOIN sitting_group g ON g.id = s.group_id
                WHERE s.cancelled_at IS NULL AND (s.weekly OR (s.starts_at >= \(from) AND s.starts_at <= \(to)))
                ORDER BY s.starts_at, s.id
                """, logger: database.logger)
            for try await row in rows.decode((Int, Int, String, String, Date, Bool, String, String).self) {
                sits.append(
                    CalendarSit(
                        sit: GroupSit(
                            id: row.0, group: row.1,
                            profile: Profile(name: row.2, segments: try SegmentsJSON.decode(row.3)), startsAt: row.4,
                            weekly: row.5, cancelled: false, timeZone: TimeZone(identifier: row.6) ?? .utc),
                        groupName: row.7))
            }
            return sits
        }
    }

    public func sitRecipients(of group: Int) async throws(PushRepositoryError) -> [PushRecipient] {
        try await run { [database] connection in
            var rows: [(String, String?, DeviceRow)] = []
            let result = try await connection.query(
                """
                SELECT p.time_zone, p.language, \(unescaped: Self.deviceColumns("d"))
                FROM group_member m JOIN person p ON p.id = m.person_id
                JOIN push_device d ON d.person_id = p.id
                LEFT JOIN push_choice c ON c.person_id = p.id
                WHERE m.group_id = \(group) AND NOT p.is_disabled AND coalesce(c.sits, true)
                ORDER BY p.id, d.id
                """, logger: database.logger)
            for try await row in result.decode(
                (String, String?, Int, Int, String, ByteBuffer, ByteBuffer, String, Date, String?).self)
            {
                rows.append((row.0, row.1, (row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9)))
            }
            return Self.recipients(rows)
        }
    }

    public func reminderRecipients() async throws(PushRepositoryError) -> [ReminderRecipient] {
        try await run { [database] connection in
            var rows: [(String, String?, DeviceRow)] = []
            var extra: [Int: (Int, Int, Int?)] = [:]
            let result = try await connection.query(
                """
                SELECT p.time_zone, p.language, \(unescaped: Self.deviceColumns("d")), p.day_start_hour, p.reminder_minutes,
                    (SELECT max(day) FROM practice_day WHERE owner_id = p.id)
                FROM person p JOIN push_device d ON d.person_id = p.id
                LEFT JOIN push_choice c ON c.person_id = p.id
                WHERE p.reminder_minutes IS NOT NULL AND NOT p.is_disabled AND coalesce(c.reminder, true)
                ORDER BY p.id, d.id
                """, logger: database.logger)
            for try await row in result.decode(
                (String, String?, Int, Int, String, ByteBuffer, ByteBuffer, String, Date, String?, Int, Int, Int?).self)
            {
                rows.append((row.0, row.1, (row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9)))
                extra[row.3] = (row.10, row.11, row.12)
            }
            return Self.recipients(rows).map {
                let (hour, minutes, last) = extra[$0.person]!
                return ReminderRecipient(recipient: $0, dayStartHour: hour, minutes: minutes, lastDaySat: last)
            }
        }
    }

    public func sittingStarts(since: Date, at date: Date) async throws(PushRepositoryError) -> [SittingStart] {
        try await run { [database] connection in
            var starts: [SittingStart] = []
            let rows = try await connection.query(
                """
                SELECT p.id, p.name, s.since, sit.group_id
                FROM sitting_now s JOIN person p ON p.id = s.person_id
                LEFT JOIN group_sit sit ON sit.id = s.sit_id
                WHERE s.since >= \(since) AND s.until > \(date) AND p.show_when_sitting AND NOT p.is_disabled
                ORDER BY s.since, p.id
                """, logger: database.logger)
            for try await (person, name, since, group) in rows.decode((Int, String, Date, Int?).self) {
                starts.append(SittingStart(person: person, name: name, since: since, sitGroup: group))
            }
            return starts
        }
    }

    public func sittingRecipients(of start: SittingStart, at date: Date) async throws(PushRepositoryError)
        -> [SittingRecipient]
    {
        try await run { [database] connection in
            // Each member of the sitter's groups once: the sit's group first, then the lowest id.
            var rows: [(String, String?, DeviceRow)] = []
            var group: [Int: (Int, String)] = [:]
            let result = try await connection.query(
                """
                WITH told AS (
                    SELECT DISTINCT ON (m.person_id) m.person_id, g.id AS group_id, g.name
                    FROM group_member mine
                    JOIN group_member m ON m.group_id = mine.group_id AND m.person_id <> mine.person_id
                    JOIN sitting_group g ON g.id = m.group_id
                    WHERE mine.person_id = \(start.person)
                    ORDER BY m.person_id, g.id = \(start.sitGroup ?? -1) DESC, g.id
                )
                SELECT p.time_zone, p.language, \(unescaped: Self.deviceColumns("d")), told.group_id, told.name
                FROM told JOIN person p ON p.id = told.person_id
                JOIN push_device d ON d.person_id = p.id
                JOIN push_choice c ON c.person_id = p.id AND c.sitting
                WHERE NOT p.is_disabled
                    AND NOT EXISTS (SELECT 1 FROM sitting_now n WHERE n.person_id = p.id AND n.until > \(date))
                ORDER BY p.id, d.id
                """, logger: database.logger)
            for try await row in result.decode(
                (String, String?, Int, Int, String, ByteBuffer, ByteBuffer, String, Date, String?, Int, String).self)
            {
                rows.append((row.0, row.1, (row.2, row.3, row.4, row.5, row.6, row.7, row.8, row.9)))
                group[row.3] = (row.10, row.11)
            }
            return Self.recipients(rows).map {
                SittingRecipient(recipient: $0, group: group[$0.person]!.0, groupName: group[$0.person]!.1)
            }
        }
    }

    public func claim(_ key: String, devices: [Int], at date: Date) async throws(PushRepositoryError) -> [Int] {
        guard !devices.isEmpty else { return [] }
        return try await run { [database] connection in
            var claimed: [Int] = []
            let rows = try await connection.query(
                """
                INSERT INTO push_sent (key, device_id, sent_at)
                SELECT \(key), d.id, \(date) FROM push_device d WHERE d.id = ANY(\(devices))
                ON CONFLICT DO NOTHING
                RETURNING device_id
                """, logger: database.logger)
            for try await id in rows.decode(Int.self) { claimed.append(id) }
            return claimed.sorted()
        }
    }

    public func forgetClaims(before date: Date) async throws(PushRepositoryError) {
        try await run { [database] connection in
            try await connection.query("DELETE FROM push_sent WHERE sent_at < \(date)", logger: database.logger)
        }
    }

    /// Rows of (zone, language, device), ordered by person: one recipient each.
    static func recipients(_ rows: [(String, String?, DeviceRow)]) -> [PushRecipient] {
        var recipients: [PushRecipient] = []
        for (zone, language, row) in rows {
            let device = device(row)
            if recipients.last?.person == device.person {
                recipients[recipients.count - 1].devices.append(device)
            } else {
                recipients.append(
                    PushRecipient(
                        person: device.person, timeZone: TimeZone(identifier: zone) ?? .utc, devices: [device],
                        language: language.flatMap(Language.shipped(tag:))))
            }
        }
        return recipients
    }
}
