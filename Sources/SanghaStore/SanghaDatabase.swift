import Foundation
import GRDB
import SanghaCore
import SanghaStoreSupport
import Synchronization

/// Sangha's own SQLite file, `sangha.sqlite` in the data folder: people and their sign-in
/// sessions, profiles, sitting sessions and each person's last known friends list. A `DatabasePool` keeps it in WAL mode: readers never wait for the writer, and
/// a transaction that was committed survives a crash of the process.
public enum SanghaDatabase {
    public static let fileName = "sangha.sqlite"

    /// Opens (creating it when absent) the file in `directory` and brings its schema up to date.
    public static func open(directory: URL) throws -> any DatabaseWriter {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: directory.appendingPathComponent(fileName).path, configuration: configuration)
        try migrator.migrate(pool)
        return pool
    }

    /// A database in memory, for tests and the tools that run the app on fixtures.
    public static func inMemory() throws -> any DatabaseWriter {
        let queue = try DatabaseQueue(configuration: configuration)
        try migrator.migrate(queue)
        return queue
    }

    /// Every connection to the file: with `sanghaDay`, the SQL function the practice's triggers
    /// count days with. Another process writing the file (`sangha people` while `serve` runs)
    /// holds its lock for a moment: a write waits up to 5 s for it (on GRDB's writer queue, not
    /// a request's thread) rather than failing at once with "database is locked".
    public static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in db.add(function: dayFunction) }
        return configuration
    }

    /// `sanghaDay(second, timeZone, dayStartHour)`: the person's day (`DayClock`) of the Unix
    /// second `second` as a day number. SQLite knows no time zone but UTC, so Foundation's tz
    /// database answers; each zone is looked up once.
    static let dayFunction = DatabaseFunction("sanghaDay", argumentCount: 3, pure: true) { values in
        // strftime('%s', …) answers text.
        guard let second = Int.fromDatabaseValue(values[0]) ?? String.fromDatabaseValue(values[0]).flatMap({ Int($0) }),
            let name = String.fromDatabaseValue(values[1]),
            let hour = Int.fromDatabaseValue(values[2])
        else { return nil }
        let zone = zones.withLock { zones in
            if let zone = zones[name] { return zone }
            let zone = TimeZone(identifier: name) ?? .utc
            zones[name] = zone
            return zone
        }
        let date = Date(timeIntervalSince1970: TimeInterval(second))
        return DayClock.day(ofSecond: second, offset: zone.secondsFromGMT(for: date), startHour: hour).number
    }

    private static let zones = Mutex<[String: TimeZone]>([:])

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createProfile") { db in
            try db.create(table: "profile") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("name", .text).notNull()
                table.column("segments", .jsonText).notNull()
                table.column("version", .integer).notNull()
            }
        }
        migrator.registerMigration("createSavedFriendList") { db in
            try db.create(table: "savedFriendList") { table in
                // One row: the last list the FriendService gave.
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("friends", .jsonText).notNull()
                table.column("savedAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("createSittingSession") { db in
            try db.create(table: "sittingSession") { table in
                table.autoIncrementedPrimaryKey("id")
                // The profile sat with; a deleted profile's sessions stay, under its name.
                table.column("profileID", .integer).references("profile", onDelete: .setNull)
                table.column("profileName", .text).notNull()
                table.column("startedAt", .datetime).notNull().indexed()
                table.column("seconds", .integer).notNull()
                table.column("completed", .boolean).notNull()
            }
        }
        migrator.registerMigration("indexProfileName") { db in
            // The profiles list pages through names in this order.
            try db.execute(sql: "CREATE INDEX profile_on_name ON profile (name COLLATE NOCASE, id)")
        }
        migrator.registerMigration("totalSittingSessions") { db in
            // The history's totals, kept by SQLite as sessions come and go, so reading them does
            // not count every session.
            try db.execute(
                sql: """
                    CREATE TABLE sittingTotal (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        sessions INTEGER NOT NULL,
                        seconds INTEGER NOT NULL
                    );
                    INSERT INTO sittingTotal SELECT 1, count(*), coalesce(sum(seconds), 0) FROM sittingSession;
                    CREATE TRIGGER sittingSessionCounted AFTER INSERT ON sittingSession BEGIN
                        UPDATE sittingTotal SET sessions = sessions + 1, seconds = seconds + NEW.seconds WHERE id = 1;
                    END;
                    CREATE TRIGGER sittingSessionUncounted AFTER DELETE ON sittingSession BEGIN
                        UPDATE sittingTotal SET sessions = sessions - 1, seconds = seconds - OLD.seconds WHERE id = 1;
                    END;
                    """)
        }
        migrator.registerMigration("people") { db in
            // Profiles and sitting sessions get an owner. Those made before people existed have
            // none until the first person signs up (`PeopleStore.create` adopts them). Deleting
            // a person deletes everything that is theirs.
            try db.execute(
                sql: """
                    CREATE TABLE person (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        username TEXT NOT NULL UNIQUE COLLATE NOCASE,
                        name TEXT NOT NULL,
                        about TEXT NOT NULL DEFAULT '',
                        passwordHash TEXT NOT NULL,
                        friendServiceToken TEXT,
                        createdAt DATETIME NOT NULL
                    );
                    CREATE TABLE signInSession (
                        key TEXT PRIMARY KEY,
                        personID INTEGER NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                        lastUsedAt DATETIME NOT NULL
                    );
                    CREATE INDEX signInSession_on_personID ON signInSession (personID);
                    CREATE INDEX signInSession_on_lastUsedAt ON signInSession (lastUsedAt);
                    CREATE TABLE signInFailure (
                        username TEXT NOT NULL COLLATE NOCASE,
                        at DATETIME NOT NULL
                    );
                    CREATE INDEX signInFailure_on_username ON signInFailure (username, at);
                    CREATE INDEX signInFailure_on_at ON signInFailure (at);

                    ALTER TABLE profile ADD COLUMN ownerID INTEGER REFERENCES person (id) ON DELETE CASCADE;
                    DROP INDEX profile_on_name;
                    CREATE INDEX profile_on_owner_name ON profile (ownerID, name COLLATE NOCASE, id);

                    ALTER TABLE sittingSession ADD COLUMN ownerID INTEGER REFERENCES person (id) ON DELETE CASCADE;
                    CREATE INDEX sittingSession_on_owner_startedAt ON sittingSession (ownerID, startedAt);
                    DROP TRIGGER sittingSessionCounted;
                    DROP TRIGGER sittingSessionUncounted;
                    DROP TABLE sittingTotal;
                    CREATE TABLE sittingTotal (
                        ownerID INTEGER PRIMARY KEY REFERENCES person (id) ON DELETE CASCADE,
                        sessions INTEGER NOT NULL,
                        seconds INTEGER NOT NULL
                    );
                    CREATE TRIGGER sittingSessionCounted AFTER INSERT ON sittingSession
                    WHEN NEW.ownerID IS NOT NULL BEGIN
                        INSERT INTO sittingTotal VALUES (NEW.ownerID, 1, NEW.seconds)
                        ON CONFLICT (ownerID) DO UPDATE SET sessions = sessions + 1, seconds = seconds + excluded.seconds;
                    END;
                    CREATE TRIGGER sittingSessionAdopted AFTER UPDATE OF ownerID ON sittingSession
                    WHEN OLD.ownerID IS NULL AND NEW.ownerID IS NOT NULL BEGIN
                        INSERT INTO sittingTotal VALUES (NEW.ownerID, 1, NEW.seconds)
                        ON CONFLICT (ownerID) DO UPDATE SET sessions = sessions + 1, seconds = seconds + excluded.seconds;
                    END;
                    CREATE TRIGGER sittingSessionUncounted AFTER DELETE ON sittingSession
                    WHEN OLD.ownerID IS NOT NULL BEGIN
                        UPDATE sittingTotal SET sessions = sessions - 1, seconds = seconds - OLD.seconds
                        WHERE ownerID = OLD.ownerID;
                    END;

                    -- The saved list was the deployment's; each person's is saved from their next visit.
                    DROP TABLE savedFriendList;
                    CREATE TABLE savedFriendList (
                        personID INTEGER PRIMARY KEY REFERENCES person (id) ON DELETE CASCADE,
                        friends TEXT NOT NULL,
                        savedAt DATETIME NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("signInSessionStart") { db in
            // A session ends 90 days after its sign-in whatever its use. Those started before
            // this migration count from their last use.
            try db.execute(
                sql: """
                    ALTER TABLE signInSession ADD COLUMN startedAt DATETIME;
                    UPDATE signInSession SET startedAt = lastUsedAt;
                    """)
        }
        migrator.registerMigration("door") { db in
            // Administrators, disabled people, the last sign-in; one-use links (invitations and
            // password resets, by the digest of their token); the deployment's cookie secret.
            // A deployment from before has its earliest person as administrator.
            try db.execute(
                sql: """
                    ALTER TABLE person ADD COLUMN isAdministrator BOOLEAN NOT NULL DEFAULT 0;
                    ALTER TABLE person ADD COLUMN isDisabled BOOLEAN NOT NULL DEFAULT 0;
                    ALTER TABLE person ADD COLUMN lastSignInAt DATETIME;
                    UPDATE person SET isAdministrator = 1
                    WHERE id = (SELECT id FROM person ORDER BY createdAt, id LIMIT 1);
                    CREATE TABLE oneUseLink (
                        key TEXT PRIMARY KEY,
                        kind TEXT NOT NULL,
                        personID INTEGER NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                        expiresAt DATETIME NOT NULL
                    );
                    CREATE INDEX oneUseLink_on_personID ON oneUseLink (personID);
                    CREATE TABLE secret (
                        name TEXT PRIMARY KEY,
                        value BLOB NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("groups") { db in
            // Groups, their members (hosts among them) and their invitation links (by the digest
            // of their token). When a member goes, by leaving or with their account, a group
            // left without members is deleted, and one left without a host gets the member who
            // joined first as host.
            try db.execute(
                sql: """
                    CREATE TABLE sittingGroup (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        name TEXT NOT NULL,
                        createdAt DATETIME NOT NULL
                    );
                    CREATE TABLE groupMember (
                        groupID INTEGER NOT NULL REFERENCES sittingGroup (id) ON DELETE CASCADE,
                        personID INTEGER NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                        isHost BOOLEAN NOT NULL,
                        joinedAt DATETIME NOT NULL,
                        PRIMARY KEY (groupID, personID)
                    ) WITHOUT ROWID;
                    CREATE INDEX groupMember_on_personID ON groupMember (personID);
                    CREATE TABLE groupInvitation (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        groupID INTEGER NOT NULL REFERENCES sittingGroup (id) ON DELETE CASCADE,
                        key TEXT NOT NULL UNIQUE,
                        createdAt DATETIME NOT NULL,
                        expiresAt DATETIME NOT NULL
                    );
                    CREATE INDEX groupInvitation_on_groupID ON groupInvitation (groupID);
                    CREATE TRIGGER groupMemberGone AFTER DELETE ON groupMember BEGIN
                        DELETE FROM sittingGroup WHERE id = OLD.groupID
                        AND NOT EXISTS (SELECT 1 FROM groupMember WHERE groupID = OLD.groupID);
                        UPDATE groupMember SET isHost = 1 WHERE groupID = OLD.groupID
                        AND NOT EXISTS (SELECT 1 FROM groupMember WHERE groupID = OLD.groupID AND isHost)
                        AND personID = (
                            SELECT personID FROM groupMember WHERE groupID = OLD.groupID
                            ORDER BY joinedAt, personID LIMIT 1);
                    END;
                    """)
        }
        migrator.registerMigration("sittingNow") { db in
            // Who is sitting now (a row a person, while their sit lasts), and whether they show
            // it to their groups.
            try db.execute(
                sql: """
                    ALTER TABLE person ADD COLUMN showWhenSitting BOOLEAN NOT NULL DEFAULT 1;
                    CREATE TABLE sittingNow (
                        personID INTEGER PRIMARY KEY REFERENCES person (id) ON DELETE CASCADE,
                        profileName TEXT NOT NULL,
                        since DATETIME NOT NULL,
                        until DATETIME NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("groupSits") { db in
            // The sits a host schedules: a copy of the profile (its name and segments), when it
            // first begins and ends, whether it comes back every week, and when a host cancelled
            // it (kept, so that who sat in it still records their session). Who sits in one says
            // so in `sittingNow`; a session sat with a group keeps the group's name.
            try db.execute(
                sql: """
                    CREATE TABLE groupSit (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        groupID INTEGER NOT NULL REFERENCES sittingGroup (id) ON DELETE CASCADE,
                        profileName TEXT NOT NULL,
                        segments TEXT NOT NULL,
                        startsAt DATETIME NOT NULL,
                        endsAt DATETIME NOT NULL,
                        weekly BOOLEAN NOT NULL,
                        createdAt DATETIME NOT NULL,
                        cancelledAt DATETIME
                    );
                    CREATE INDEX groupSit_on_groupID ON groupSit (groupID, startsAt);
                    ALTER TABLE sittingNow ADD COLUMN sitID INTEGER REFERENCES groupSit (id) ON DELETE SET NULL;
                    ALTER TABLE sittingSession ADD COLUMN groupName TEXT;
                    """)
        }
        migrator.registerMigration("sessionNotes") { db in
            // What a person writes about a session (Add a sit, Edit), and whether their pages
            // show streaks ("Show streaks", on unless they turn it off).
            try db.execute(
                sql: """
                    ALTER TABLE sittingSession ADD COLUMN note TEXT;
                    ALTER TABLE person ADD COLUMN showStreaks BOOLEAN NOT NULL DEFAULT 1;
                    """)
        }
        migrator.registerMigration("practiceDays") { db in
            // Each person's time zone and the hour their day begins (those already here live in
            // the server's), each group sit's (its host's: a weekly one keeps its time of day
            // there), and the days they sat counted per day in them: a trigger keeps the
            // count as sessions come and go, and counts again when either setting changes. The
            // history, the home page and the person's page read days, never every session.
            let zone = MigratingZone.sqlLiteral
            try db.execute(
                sql: """
                    ALTER TABLE person ADD COLUMN timeZone TEXT NOT NULL DEFAULT \(zone);
                    ALTER TABLE person ADD COLUMN dayStartHour INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE groupSit ADD COLUMN timeZone TEXT NOT NULL DEFAULT \(zone);
                    CREATE TABLE practiceDay (
                        ownerID INTEGER NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                        day INTEGER NOT NULL,
                        sessions INTEGER NOT NULL,
                        seconds INTEGER NOT NULL,
                        PRIMARY KEY (ownerID, day)
                    ) WITHOUT ROWID;
                    INSERT INTO practiceDay (ownerID, day, sessions, seconds)
                    SELECT s.ownerID, sanghaDay(strftime('%s', s.startedAt), p.timeZone, p.dayStartHour) AS d,
                        count(*), sum(s.seconds)
                    FROM sittingSession s JOIN person p ON p.id = s.ownerID
                    GROUP BY s.ownerID, d;

                    CREATE TRIGGER practiceDayCounted AFTER INSERT ON sittingSession
                    WHEN NEW.ownerID IS NOT NULL BEGIN
                        INSERT INTO practiceDay (ownerID, day, sessions, seconds)
                        SELECT NEW.ownerID, sanghaDay(strftime('%s', NEW.startedAt), timeZone, dayStartHour), 1,
                            NEW.seconds
                        FROM person WHERE id = NEW.ownerID
                        ON CONFLICT (ownerID, day) DO UPDATE
                        SET sessions = sessions + 1, seconds = seconds + excluded.seconds;
                    END;
                    CREATE TRIGGER practiceDayAdopted AFTER UPDATE OF ownerID ON sittingSession
                    WHEN OLD.ownerID IS NULL AND NEW.ownerID IS NOT NULL BEGIN
                        INSERT INTO practiceDay (ownerID, day, sessions, seconds)
                        SELECT NEW.ownerID, sanghaDay(strftime('%s', NEW.startedAt), timeZone, dayStartHour), 1,
                            NEW.seconds
                        FROM person WHERE id = NEW.ownerID
                        ON CONFLICT (ownerID, day) DO UPDATE
                        SET sessions = sessions + 1, seconds = seconds + excluded.seconds;
                    END;
                    CREATE TRIGGER practiceDayUncounted AFTER DELETE ON sittingSession
                    WHEN OLD.ownerID IS NOT NULL BEGIN
                        UPDATE practiceDay SET sessions = sessions - 1, seconds = seconds - OLD.seconds
                        WHERE ownerID = OLD.ownerID AND day = (
                            SELECT sanghaDay(strftime('%s', OLD.startedAt), timeZone, dayStartHour)
                            FROM person WHERE id = OLD.ownerID);
                        DELETE FROM practiceDay WHERE ownerID = OLD.ownerID AND sessions <= 0 AND day = (
                            SELECT sanghaDay(strftime('%s', OLD.startedAt), timeZone, dayStartHour)
                            FROM person WHERE id = OLD.ownerID);
                    END;
                    CREATE TRIGGER practiceDaysRecounted AFTER UPDATE OF timeZone, dayStartHour ON person
                    WHEN OLD.timeZone IS NOT NEW.timeZone OR OLD.dayStartHour IS NOT NEW.dayStartHour BEGIN
                        DELETE FROM practiceDay WHERE ownerID = NEW.id;
                        INSERT INTO practiceDay (ownerID, day, sessions, seconds)
                        SELECT NEW.id, sanghaDay(strftime('%s', startedAt), NEW.timeZone, NEW.dayStartHour) AS d,
                            count(*), sum(seconds)
                        FROM sittingSession WHERE ownerID = NEW.id GROUP BY d;
                    END;
                    """)
        }
        migrator.registerMigration("sitClientIDs") { db in
            // The id the sitting page gives a sit before it posts it (it keeps the sit on the
            // device until the post answers): a person's sit is recorded once, however often
            // it is posted.
            try db.execute(
                sql: """
                    ALTER TABLE sittingSession ADD COLUMN clientID TEXT;
                    CREATE UNIQUE INDEX sittingSession_clientID ON sittingSession (ownerID, clientID)
                        WHERE clientID IS NOT NULL;
                    """)
        }
        migrator.registerMigration("calendars") { db in
            // A person's calendar link (the SHA-256 of its token: the token is shown once) and
            // the time of day their calendar reminds them to sit.
            try db.execute(
                sql: """
                    ALTER TABLE person ADD COLUMN calendarKey TEXT;
                    CREATE UNIQUE INDEX person_calendarKey ON person (calendarKey) WHERE calendarKey IS NOT NULL;
                    ALTER TABLE person ADD COLUMN reminderMinutes INTEGER;
                    """)
        }
        migrator.registerMigration("groupRemovals") { db in
            // Who a host removed from a group: no link lets them join again until a host lets
            // them back in. Gone with the group or the person.
            try db.execute(
                sql: """
                    CREATE TABLE groupRemoval (
                        groupID INTEGER NOT NULL REFERENCES sittingGroup(id) ON DELETE CASCADE,
                        personID INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                        removedAt DATETIME NOT NULL,
                        PRIMARY KEY (groupID, personID)
                    );
                    """)
        }
        migrator.registerMigration("providerIdentities") { db in
            // Who signs in through the group's identity provider: the pair (issuer, subject)
            // names them, never an e-mail or a username. Gone with the person.
            try db.execute(
                sql: """
                    CREATE TABLE providerIdentity (
                        issuer TEXT NOT NULL,
                        subject TEXT NOT NULL,
                        personID INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                        PRIMARY KEY (issuer, subject)
                    );
                    CREATE INDEX providerIdentity_personID ON providerIdentity (personID);
                    """)
        }
        migrator.registerMigration("signInSessionMethod") { db in
            // Whether a password started the session: with --password-sign-in off those end. Of
            // the sessions before, only those of people without a password are surely the
            // provider's.
            try db.execute(
                sql: """
                    ALTER TABLE signInSession ADD COLUMN byPassword BOOLEAN NOT NULL DEFAULT 1;
                    UPDATE signInSession SET byPassword = 0
                    WHERE personID IN (SELECT id FROM person WHERE passwordHash = '');
                    """)
        }
        migrator.registerMigration("personName") { db in
            // /admin reads a page of people by name.
            try db.execute(sql: "CREATE INDEX person_on_name ON person (name COLLATE NOCASE, id)")
        }
        migrator.registerMigration("pendingImports") { db in
            // A file previewed for import, until "Import" (by the SHA-256 of the token its
            // preview shows): one a person, for an hour. Gone with the person.
            try db.execute(
                sql: """
                    CREATE TABLE pendingImport (
                        key TEXT PRIMARY KEY,
                        ownerID INTEGER NOT NULL UNIQUE REFERENCES person (id) ON DELETE CASCADE,
                        file BLOB NOT NULL,
                        expiresAt DATETIME NOT NULL
                    );
                    CREATE INDEX pendingImport_on_expiresAt ON pendingImport (expiresAt);
                    """)
        }
        migrator.registerMigration("pushNotifications") { db in
            // Web Push: each person's devices (their browsers' subscriptions, at most ten; the
            // session each was added under, so that signing out there removes it), what each
            // wants to hear of, and each message claimed per device, once whatever the number of
            // instances. The deployment's VAPID key is a row of `secret`, made on first start.
            try db.execute(
                sql: """
                    CREATE TABLE pushDevice (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        personID INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                        endpoint TEXT NOT NULL UNIQUE,
                        p256dh BLOB NOT NULL,
                        auth BLOB NOT NULL,
                        name TEXT NOT NULL,
                        sessionKey TEXT,
                        createdAt DATETIME NOT NULL
                    );
                    CREATE INDEX pushDevice_on_personID ON pushDevice (personID, createdAt);
                    CREATE TABLE pushChoice (
                        personID INTEGER PRIMARY KEY REFERENCES person(id) ON DELETE CASCADE,
                        sits BOOLEAN NOT NULL,
                        reminder BOOLEAN NOT NULL,
                        sitting BOOLEAN NOT NULL
                    );
                    CREATE TABLE pushSent (
                        key TEXT NOT NULL,
                        deviceID INTEGER NOT NULL REFERENCES pushDevice(id) ON DELETE CASCADE,
                        sentAt DATETIME NOT NULL,
                        PRIMARY KEY (key, deviceID)
                    ) WITHOUT ROWID;
                    CREATE INDEX pushSent_on_sentAt ON pushSent (sentAt);
                    CREATE INDEX pushSent_on_deviceID ON pushSent (deviceID);
                    """)
        }
        migrator.registerMigration("personLanguage") { db in
            // The language a person chose in Settings; NULL: as their browser says.
            try db.execute(sql: "ALTER TABLE person ADD COLUMN language TEXT")
        }
        return migrator
    }

    /// The migrations applied to `database`, oldest first.
    public static func appliedMigrations(_ database: any DatabaseWriter) async throws -> [String] {
        try await database.readAside { db in try migrator.appliedMigrations(db) }
    }
}
