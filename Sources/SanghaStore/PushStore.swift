import Foundation
import GRDB
import SanghaCore
import SanghaStoreSupport

/// Devices, choices, the deployment's VAPID key and what was sent, in the `pushDevice`,
/// `pushChoice`, `pushSent` and `secret` tables of `SanghaDatabase`.
public struct PushStore: PushRepository, SQLiteStore {
    typealias Failure = PushRepositoryError
    let database: any DatabaseWriter

    public init(database: any DatabaseWriter) { self.database = database }

    public func vapidKey(keeping fresh: [UInt8]) async throws(PushRepositoryError) -> [UInt8] {
        try await write { db in
            try db.cachedStatement(
                sql: "INSERT INTO secret (name, value) VALUES ('vapid', ?) ON CONFLICT (name) DO NOTHING"
            ).execute(arguments: [Data(fresh)])
            return [UInt8](
                try Data.fetchOne(db.cachedStatement(sql: "SELECT value FROM secret WHERE name = 'vapid'"))
                    ?? Data(fresh))
        }
    }

    public func devices(of person: Int) async throws(PushRepositoryError) -> [PushDevice] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT \(Self.deviceColumns) FROM pushDevice WHERE personID = ? ORDER BY createdAt DESC, id DESC"
                ), arguments: [person]
            ).map(Self.device)
        }
    }

    public func add(_ device: PushDevice, limit: Int) async throws(PushRepositoryError) -> PushDevice {
        try await write { db in
            // A browser subscribed again (or by someone else now) is the same device: replaced.
            try db.cachedStatement(sql: "DELETE FROM pushDevice WHERE endpoint = ?").execute(arguments: [
                device.endpoint
            ])
            try db.cachedStatement(
                sql: """
                    INSERT INTO pushDevice (personID, endpoint, p256dh, auth, name, sessionKey, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                device.person, device.endpoint, Data(device.p256dh), Data(device.auth), device.name, device.session,
                device.createdAt,
            ])
            var kept = device
            kept.id = Int(db.lastInsertedRowID)
            try db.cachedStatement(
                sql: """
                    DELETE FROM pushDevice WHERE personID = ? AND id NOT IN (
                        SELECT id FROM pushDevice WHERE personID = ? ORDER BY createdAt DESC, id DESC LIMIT ?)
                    """
            ).execute(arguments: [device.person, device.person, limit])
            return kept
        }
    }

    public func remove(device id: Int, of person: Int) async throws(PushRepositoryError) -> Bool {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM pushDevice WHERE id = ? AND personID = ?").execute(arguments: [
                id, person,
            ])
            return db.changesCount > 0
        }
    }

    public func signedOut(session: String?, endpoint: String?, of person: Int) async throws(PushRepositoryError) {
        try await write { db in
            try db.cachedStatement(
                sql: "DELETE FROM pushDevice WHERE personID = ? AND (sessionKey = ? OR endpoint = ?)"
            ).execute(arguments: [person, session, endpoint])
        }
    }

    public func choices(of person: Int) async throws(PushRepositoryError) -> PushChoices {
        try await read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT sits, reminder, sitting FROM pushChoice WHERE personID = ?"),
                arguments: [person]
            ).map { PushChoices(sits: $0[0], reminder: $0[1], sitting: $0[2]) } ?? .standard
        }
    }

    public func setChoices(_ choices: PushChoices, of person: Int) async throws(PushRepositoryError) {
        try await write { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO pushChoice (personID, sits, reminder, sitting) VALUES (?, ?, ?, ?)
                    ON CONFLICT (personID) DO UPDATE SET
                        sits = excluded.sits, reminder = excluded.reminder, sitting = excluded.sitting
                    """
            ).execute(arguments: [person, choices.sits, choices.reminder, choices.sitting])
        }
    }

    public func delete(device id: Int) async throws(PushRepositoryError) {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM pushDevice WHERE id = ?").execute(arguments: [id])
        }
    }

    public func sits(beginningFrom from: Date, to: Date) async throws(PushRepositoryError) -> [CalendarSit] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT s.id, s.groupID, s.profileName, s.segments, s.startsAt, s.weekly, 0, s.timeZone, g.name
                        FROM groupSit s JOIN sittingGroup g ON g.id = s.groupID
                        WHERE s.cancelledAt IS NULL AND (s.weekly OR (s.startsAt >= ? AND s.startsAt <= ?))
                        ORDER BY s.startsAt, s.id
                        """), arguments: [StoredDate(from), StoredDate(to)]
            ).map { row in
                CalendarSit(
                    sit: GroupSit(
                        id: row[0], group: row[1],
                        profile: Profile(name: row[2], segments: try SegmentsJSON.decode(row[3])), startsAt: row[4],
                        weekly: row[5], cancelled: false, timeZone: TimeZone(identifier: row[7]) ?? .utc),
                    groupName: row[8])
            }
        }
    }

    public func sitRecipients(of group: Int) async throws(PushRepositoryError) -> [PushRecipient] {
        try await read { db in
            Self.recipients(
                try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT p.id, p.timeZone, \(Self.deviceColumns("d")), p.language
                            FROM groupMember m JOIN person p ON p.id = m.personID
                            JOIN pushDevice d ON d.personID = p.id
                            LEFT JOIN pushChoice c ON c.personID = p.id
                            WHERE m.groupID = ? AND NOT p.isDisabled AND coalesce(c.sits, 1)
                            ORDER BY p.id, d.id
                            """), arguments: [group]))
        }
    }

    public func reminderRecipients() async throws(PushRepositoryError) -> [ReminderRecipient] {
        try await read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT p.id, p.timeZone, \(Self.deviceColumns("d")), p.dayStartHour, p.reminderMinutes,
                            (SELECT max(day) FROM practiceDay WHERE ownerID = p.id), p.language
                        FROM person p JOIN pushDevice d ON d.personID = p.id
                        LEFT JOIN pushChoice c ON c.personID = p.id
                        WHERE p.reminderMinutes IS NOT NULL AND NOT p.isDisabled AND coalesce(c.reminder, 1)
                        ORDER BY p.id, d.id
                        """))
            let extra = Self.deviceColumnCount + 2
            return Self.recipients(rows).map { recipient in
                let row = rows.first { ($0[0] as Int) == recipient.person }!
                return ReminderRecipient(
                    recipient: recipient, dayStartHour: row[extra], minutes: row[extra + 1], lastDaySat: row[extra + 2])
            }
        }
    }

    public func sittingStarts(since: Date, at date: Date) async throws(PushRepositoryError) -> [SittingStart] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT p.id, p.name, s.since, sit.groupID
                        FROM sittingNow s JOIN person p ON p.id = s.personID
                        LEFT JOIN groupSit sit ON sit.id = s.sitID
                        WHERE s.since >= ? AND s.until > ? AND p.showWhenSitting AND NOT p.isDisabled
                        ORDER BY s.since, p.id
                        """), arguments: [StoredDate(since), StoredDate(date)]
            ).map { SittingStart(person: $0[0], name: $0[1], since: $0[2], sitGroup: $0[3]) }
        }
    }

    public func sittingRecipients(of start: SittingStart, at date: Date) async throws(PushRepositoryError)
        -> [SittingRecipient]
    {
        try await read { db in
            // Each member of the sitter's groups once: the sit's group first, then the lowest id.
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT p.id, p.timeZone, \(Self.deviceColumns("d")), g.id, g.name, p.language
                        FROM groupMember mine JOIN groupMember m ON m.groupID = mine.groupID AND m.personID != mine.personID
                        JOIN sittingGroup g ON g.id = m.groupID
                        JOIN person p ON p.id = m.personID
                        JOIN pushDevice d ON d.personID = p.id
                        JOIN pushChoice c ON c.personID = p.id AND c.sitting
                        WHERE mine.personID = ? AND NOT p.isDisabled
                            AND NOT EXISTS (SELECT 1 FROM sittingNow n WHERE n.personID = p.id AND n.until > ?)
                        ORDER BY p.id, g.id = ? DESC, g.id, d.id
                        """), arguments: [start.person, StoredDate(date), start.sitGroup ?? -1])
            let extra = Self.deviceColumnCount + 2
            var group: [Int: (Int, String)] = [:]
            for row in rows where group[row[0]] == nil { group[row[0]] = (row[extra], row[extra + 1]) }
            let firstGroupRows = rows.filter { group[$0[0]]!.0 == ($0[extra] as Int) }
            return Self.recipients(firstGroupRows).map {
                SittingRecipient(recipient: $0, group: group[$0.person]!.0, groupName: group[$0.person]!.1)
            }
        }
    }

    public func claim(_ key: String, devices: [Int], at date: Date) async throws(PushRepositoryError) -> [Int] {
        try await write { db in
            var claimed: [Int] = []
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO pushSent (key, deviceID, sentAt)
                    SELECT ?, id, ? FROM pushDevice WHERE id = ?
                    ON CONFLICT DO NOTHING
                    """)
            for device in devices {
                try insert.execute(arguments: [key, date, device])
                if db.changesCount > 0 { claimed.append(device) }
            }
            return claimed
        }
    }

    public func forgetClaims(before date: Date) async throws(PushRepositoryError) {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM pushSent WHERE sentAt < ?").execute(arguments: [StoredDate(date)])
        }
    }

    /// A device's columns, as `device(_:from:)` reads them.
    static func deviceColumns(_ table: String) -> String {
        ["id", "personID", "endpoint", "p256dh", "auth", "name", "createdAt", "sessionKey"].map { "\(table).\($0)" }
            .joined(separator: ", ")
    }
    static let deviceColumns = deviceColumns("pushDevice")
    static let deviceColumnCount = 8

    static func device(_ row: Row) -> PushDevice { device(row, from: 0) }

    static func device(_ row: Row, from start: Int) -> PushDevice {
        PushDevice(
            id: row[start], person: row[start + 1], endpoint: row[start + 2], p256dh: [UInt8](row[start + 3] as Data),
            auth: [UInt8](row[start + 4] as Data), name: row[start + 5], createdAt: row[start + 6],
            session: row[start + 7])
    }

    /// Rows of (person, zone, device columns…, language last), ordered by person: one recipient each.
    static func recipients(_ rows: [Row]) -> [PushRecipient] {
        var recipients: [PushRecipient] = []
        for row in rows {
            let device = device(row, from: 2)
            if recipients.last?.person == device.person {
                recipients[recipients.count - 1].devices.append(device)
            } else {
                recipients.append(
                    PushRecipient(
                        person: device.person, timeZone: TimeZone(identifier: row[1]) ?? .utc, devices: [device],
                        language: (row[row.count - 1] as String?).flatMap(Language.shipped(tag:))))
            }
        }
        return recipients
    }
}
