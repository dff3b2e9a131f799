import Foundation
import PostgresNIO
import SanghaStoreSupport

/// The schema, as numbered migrations. A migration once released is never edited: a change is
/// a new one at the end.
enum PostgresMigrations {
    struct Migration: Sendable {
        let number: Int
        let name: String
        let statements: [PostgresQuery]
    }

    static let all: [Migration] = [
        Migration(
            number: 1, name: "create profile, saved friend list, sitting session",
            statements: [
                """
                CREATE TABLE profile (
                    id BIGSERIAL PRIMARY KEY,
                    name TEXT NOT NULL,
                    segments JSONB NOT NULL,
                    version INTEGER NOT NULL
                )
                """,
                """
                CREATE TABLE saved_friend_list (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    friends JSONB NOT NULL,
                    saved_at TIMESTAMPTZ NOT NULL
                )
                """,
                """
                CREATE TABLE sitting_session (
                    id BIGSERIAL PRIMARY KEY,
                    profile_id BIGINT REFERENCES profile (id) ON DELETE SET NULL,
                    profile_name TEXT NOT NULL,
                    started_at TIMESTAMPTZ NOT NULL,
                    seconds INTEGER NOT NULL,
                    completed BOOLEAN NOT NULL
                )
                """,
                "CREATE INDEX sitting_session_started_at ON sitting_session (started_at)",
                "CREATE INDEX sitting_session_profile_id ON sitting_session (profile_id)",
            ]),
        // The profiles list pages through names in this order.
        Migration(
            number: 2, name: "index profiles by name",
            statements: ["CREATE INDEX profile_name ON profile (lower(name), id)"]),
        // The history's totals, kept by the database as sessions come and go, so reading them
        // does not count every session.
        Migration(
            number: 3, name: "total of sitting sessions",
            statements: [
                // Instances of the version before may record sessions meanwhile: none may land
                // between the count and the trigger.
                "LOCK TABLE sitting_session IN SHARE ROW EXCLUSIVE MODE",
                """
                CREATE TABLE sitting_total (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    sessions BIGINT NOT NULL,
                    seconds BIGINT NOT NULL
                )
                """,
                "INSERT INTO sitting_total SELECT 1, count(*), coalesce(sum(seconds), 0) FROM sitting_session",
                """
                CREATE FUNCTION sitting_session_count() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'INSERT' THEN
                        UPDATE sitting_total SET sessions = sessions + 1, seconds = seconds + NEW.seconds WHERE id = 1;
                    ELSE
                        UPDATE sitting_total SET sessions = sessions - 1, seconds = seconds - OLD.seconds WHERE id = 1;
                    END IF;
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER sitting_session_counted AFTER INSERT OR DELETE ON sitting_session
                FOR EACH ROW EXECUTE FUNCTION sitting_session_count()
                """,
            ]),
        // People. Profiles and sitting sessions get an owner; those made before people existed
        // have none until the first person signs up, who adopts them. Deleting a person deletes
        // everything that is theirs.
        Migration(
            number: 4, name: "people",
            statements: [
                "LOCK TABLE profile, sitting_session IN SHARE ROW EXCLUSIVE MODE",
                """
                CREATE TABLE person (
                    id BIGSERIAL PRIMARY KEY,
                    username TEXT NOT NULL,
                    name TEXT NOT NULL,
                    about TEXT NOT NULL DEFAULT '',
                    password_hash TEXT NOT NULL,
                    friend_service_token TEXT,
                    created_at TIMESTAMPTZ NOT NULL
                )
                """,
                "CREATE UNIQUE INDEX person_username ON person (lower(username))",
                """
                CREATE TABLE sign_in_session (
                    key TEXT PRIMARY KEY,
                    person_id BIGINT NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                    last_used_at TIMESTAMPTZ NOT NULL
                )
                """,
                "CREATE INDEX sign_in_session_person_id ON sign_in_session (person_id)",
                "CREATE INDEX sign_in_session_last_used_at ON sign_in_session (last_used_at)",
                "CREATE TABLE sign_in_failure (username TEXT NOT NULL, at TIMESTAMPTZ NOT NULL)",
                "CREATE INDEX sign_in_failure_username ON sign_in_failure (lower(username), at)",
                "CREATE INDEX sign_in_failure_at ON sign_in_failure (at)",
                "ALTER TABLE profile ADD COLUMN owner_id BIGINT REFERENCES person (id) ON DELETE CASCADE",
                "DROP INDEX profile_name",
                "CREATE INDEX profile_owner_name ON profile (owner_id, lower(name), id)",
                "ALTER TABLE sitting_session ADD COLUMN owner_id BIGINT REFERENCES person (id) ON DELETE CASCADE",
                "CREATE INDEX sitting_session_owner_started_at ON sitting_session (owner_id, started_at)",
                "DROP TRIGGER sitting_session_counted ON sitting_session",
                "DROP FUNCTION sitting_session_count()",
                "DROP TABLE sitting_total",
                """
                CREATE TABLE sitting_total (
                    owner_id BIGINT PRIMARY KEY REFERENCES person (id) ON DELETE CASCADE,
                    sessions BIGINT NOT NULL,
                    seconds BIGINT NOT NULL
                )
                """,
                // A session is counted when it has an owner: recorded by one, or adopted.
                """
                CREATE FUNCTION sitting_session_count() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.owner_id IS NOT NULL
                        AND (TG_OP = 'INSERT' OR OLD.owner_id IS NULL) THEN
                        INSERT INTO sitting_total VALUES (NEW.owner_id, 1, NEW.seconds)
                        ON CONFLICT (owner_id) DO UPDATE
                        SET sessions = sitting_total.sessions + 1, seconds = sitting_total.seconds + excluded.seconds;
                    ELSIF TG_OP = 'DELETE' AND OLD.owner_id IS NOT NULL THEN
                        UPDATE sitting_total SET sessions = sessions - 1, seconds = seconds - OLD.seconds
                        WHERE owner_id = OLD.owner_id;
                    END IF;
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER sitting_session_counted AFTER INSERT OR DELETE OR UPDATE OF owner_id ON sitting_session
                FOR EACH ROW EXECUTE FUNCTION sitting_session_count()
                """,
                // The saved list was the deployment's; each person's is saved from their next visit.
                "DROP TABLE saved_friend_list",
                """
                CREATE TABLE saved_friend_list (
                    person_id BIGINT PRIMARY KEY REFERENCES person (id) ON DELETE CASCADE,
                    friends JSONB NOT NULL,
                    saved_at TIMESTAMPTZ NOT NULL
                )
                """,
            ]),
        // A session ends 90 days after its sign-in whatever its use; those already open count
        // from this migration. The default keeps an instance of the version before it working
        // during a rolling upgrade.
        Migration(
            number: 5, name: "sign-in session start",
            statements: ["ALTER TABLE sign_in_session ADD COLUMN started_at TIMESTAMPTZ NOT NULL DEFAULT now()"]
        ),
        // Administrators, disabled people, the last sign-in; one-use links (invitations and
        // password resets, by the digest of their token); the deployment's cookie secret. A
        // deployment from before has its earliest person as administrator.
        Migration(
            number: 6, name: "the door",
            statements: [
                "ALTER TABLE person ADD COLUMN is_administrator BOOLEAN NOT NULL DEFAULT false",
                "ALTER TABLE person ADD COLUMN is_disabled BOOLEAN NOT NULL DEFAULT false",
                "ALTER TABLE person ADD COLUMN last_sign_in_at TIMESTAMPTZ",
                """
                UPDATE person SET is_administrator = true
                WHERE id = (SELECT id FROM person ORDER BY created_at, id LIMIT 1)
                """,
                """
                CREATE TABLE one_use_link (
                    key TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    person_id BIGINT NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                    expires_at TIMESTAMPTZ NOT NULL
                )
                """,
                "CREATE INDEX one_use_link_person_id ON one_use_link (person_id)",
                "CREATE TABLE secret (name TEXT PRIMARY KEY, value BYTEA NOT NULL)",
            ]),
        // Groups, their members (hosts among them) and their invitation links (by the digest of
        // their token). When a member goes, by leaving, removed or with their account, a group
        // left without members is deleted, and one left without a host gets the member who
        // joined first as host. The trigger locks the group's row first, so members going from
        // one group at once wait for each other; it does nothing for a group being deleted.
        Migration(
            number: 7, name: "groups",
            statements: [
                """
                CREATE TABLE sitting_group (
                    id BIGSERIAL PRIMARY KEY,
                    name TEXT NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL
                )
                """,
                """
                CREATE TABLE group_member (
                    group_id BIGINT NOT NULL REFERENCES sitting_group (id) ON DELETE CASCADE,
                    person_id BIGINT NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                    is_host BOOLEAN NOT NULL,
                    joined_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (group_id, person_id)
                )
                """,
                "CREATE INDEX group_member_person_id ON group_member (person_id)",
                """
                CREATE TABLE group_invitation (
                    id BIGSERIAL PRIMARY KEY,
                    group_id BIGINT NOT NULL REFERENCES sitting_group (id) ON DELETE CASCADE,
                    key TEXT NOT NULL UNIQUE,
                    created_at TIMESTAMPTZ NOT NULL,
                    expires_at TIMESTAMPTZ NOT NULL
                )
                """,
                "CREATE INDEX group_invitation_group_id ON group_invitation (group_id)",
                """
                CREATE FUNCTION group_member_leave() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM 1 FROM sitting_group WHERE id = OLD.group_id FOR UPDATE;
                    IF NOT FOUND THEN
                        RETURN NULL;
                    END IF;
                    IF NOT EXISTS (SELECT 1 FROM group_member WHERE group_id = OLD.group_id) THEN
                        DELETE FROM sitting_group WHERE id = OLD.group_id;
                    ELSIF NOT EXISTS (SELECT 1 FROM group_member WHERE group_id = OLD.group_id AND is_host) THEN
                        UPDATE group_member SET is_host = true
                        WHERE group_id = OLD.group_id AND person_id = (
                            SELECT person_id FROM group_member WHERE group_id = OLD.group_id
                            ORDER BY joined_at, person_id LIMIT 1);
                    END IF;
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER group_member_left AFTER DELETE ON group_member
                FOR EACH ROW EXECUTE FUNCTION group_member_leave()
                """,
            ]),
        // "Sitting now": whether a person shows it ("Show me when I sit", on unless they turn it
        // off), and each person's sit under way (one at most), with the time it said it would
        // end; it goes with its person.
        Migration(
            number: 8, name: "sitting now",
            statements: [
                "ALTER TABLE person ADD COLUMN show_when_sitting BOOLEAN NOT NULL DEFAULT true",
                """
                CREATE TABLE sitting_now (
                    person_id BIGINT PRIMARY KEY REFERENCES person (id) ON DELETE CASCADE,
                    profile_name TEXT NOT NULL,
                    since TIMESTAMPTZ NOT NULL,
                    until TIMESTAMPTZ NOT NULL
                )
                """,
            ]),
        // The sits a host schedules: a copy of the profile (its name and segments), when it
        // first begins and ends, whether it comes back every week, and when a host cancelled it
        // (kept, so that who sat in it still records their session). Who sits in one says so in
        // `sitting_now`; a session sat with a group keeps the group's name.
        Migration(
            number: 9, name: "group sits",
            statements: [
                """
                CREATE TABLE group_sit (
                    id BIGSERIAL PRIMARY KEY,
                    group_id BIGINT NOT NULL REFERENCES sitting_group (id) ON DELETE CASCADE,
                    profile_name TEXT NOT NULL,
                    segments JSONB NOT NULL,
                    starts_at TIMESTAMPTZ NOT NULL,
                    ends_at TIMESTAMPTZ NOT NULL,
                    weekly BOOLEAN NOT NULL,
                    created_at TIMESTAMPTZ NOT NULL,
                    cancelled_at TIMESTAMPTZ
                )
                """,
                "CREATE INDEX group_sit_group_id ON group_sit (group_id, starts_at)",
                "ALTER TABLE sitting_now ADD COLUMN sit_id BIGINT REFERENCES group_sit (id) ON DELETE SET NULL",
                "ALTER TABLE sitting_session ADD COLUMN group_name TEXT",
            ]),
        // What a person writes about a session (Add a sit, Edit), and whether their pages show
        // streaks ("Show streaks", on unless they turn it off).
        Migration(
            number: 10, name: "session notes, show streaks",
            statements: [
                "ALTER TABLE sitting_session ADD COLUMN note TEXT",
                "ALTER TABLE person ADD COLUMN show_streaks BOOLEAN NOT NULL DEFAULT true",
            ]),
        // Each person's time zone and the hour their day begins (those already here live in
        // the time zone of the instance that migrates), and the days they sat counted per day in
        // them: triggers keep the count as sessions come and go, and count again when either
        // setting changes. The history, the home page and the person's page read days, never
        // every session.
        Migration(
            number: 11, name: "practice days",
            statements: [
                "LOCK TABLE sitting_session IN SHARE ROW EXCLUSIVE MODE",
                // A default too: an instance of the version before still signs people up.
                "ALTER TABLE person ADD COLUMN time_zone TEXT NOT NULL DEFAULT \(unescaped: MigratingZone.sqlLiteral)",
                "ALTER TABLE person ADD COLUMN day_start_hour INTEGER NOT NULL DEFAULT 0",
                // A weekly sit keeps its time of day in its host's zone (those already here: the server's).
                "ALTER TABLE group_sit ADD COLUMN time_zone TEXT NOT NULL DEFAULT \(unescaped: MigratingZone.sqlLiteral)",
                """
                CREATE FUNCTION sangha_day(started TIMESTAMPTZ, zone TEXT, start_hour INTEGER) RETURNS INTEGER
                LANGUAGE sql STABLE AS $$
                    SELECT floor((extract(epoch FROM started AT TIME ZONE zone) - start_hour * 3600) / 86400)::integer
                $$
                """,
                """
                CREATE TABLE practice_day (
                    owner_id BIGINT NOT NULL REFERENCES person (id) ON DELETE CASCADE,
                    day INTEGER NOT NULL,
                    sessions INTEGER NOT NULL,
                    seconds BIGINT NOT NULL,
                    PRIMARY KEY (owner_id, day)
                )
                """,
                """
                INSERT INTO practice_day (owner_id, day, sessions, seconds)
                SELECT s.owner_id, sangha_day(s.started_at, p.time_zone, p.day_start_hour) AS d, count(*), sum(s.seconds)
                FROM sitting_session s JOIN person p ON p.id = s.owner_id
                GROUP BY s.owner_id, d
                """,
                """
                CREATE FUNCTION practice_day_count() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    counted INTEGER;
                BEGIN
                    -- FOR SHARE: a change of the person's time zone or day start (and its recount)
                    -- waits for this session's transaction, or this one for it.
                    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.owner_id IS NOT NULL
                        AND (TG_OP = 'INSERT' OR OLD.owner_id IS NULL) THEN
                        SELECT sangha_day(NEW.started_at, time_zone, day_start_hour) INTO counted
                        FROM person WHERE id = NEW.owner_id FOR SHARE;
                        IF counted IS NOT NULL THEN
                            INSERT INTO practice_day (owner_id, day, sessions, seconds)
                            VALUES (NEW.owner_id, counted, 1, NEW.seconds)
                            ON CONFLICT (owner_id, day) DO UPDATE
                            SET sessions = practice_day.sessions + 1, seconds = practice_day.seconds + excluded.seconds;
                        END IF;
                    ELSIF TG_OP = 'DELETE' AND OLD.owner_id IS NOT NULL THEN
                        SELECT sangha_day(OLD.started_at, time_zone, day_start_hour) INTO counted
                        FROM person WHERE id = OLD.owner_id FOR SHARE;
                        UPDATE practice_day SET sessions = sessions - 1, seconds = seconds - OLD.seconds
                        WHERE owner_id = OLD.owner_id AND day = counted;
                        DELETE FROM practice_day WHERE owner_id = OLD.owner_id AND day = counted AND sessions <= 0;
                    END IF;
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER practice_day_counted AFTER INSERT OR DELETE OR UPDATE OF owner_id ON sitting_session
                FOR EACH ROW EXECUTE FUNCTION practice_day_count()
                """,
                """
                CREATE FUNCTION practice_day_recount() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    DELETE FROM practice_day WHERE owner_id = NEW.id;
                    INSERT INTO practice_day (owner_id, day, sessions, seconds)
                    SELECT NEW.id, sangha_day(started_at, NEW.time_zone, NEW.day_start_hour) AS d, count(*), sum(seconds)
                    FROM sitting_session WHERE owner_id = NEW.id GROUP BY d;
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER practice_day_recounted AFTER UPDATE OF time_zone, day_start_hour ON person
                FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone
                    OR OLD.day_start_hour IS DISTINCT FROM NEW.day_start_hour)
                EXECUTE FUNCTION practice_day_recount()
                """,
            ]),
        // The id the sitting page gives a sit before it posts it (it keeps the sit on the device
        // until the post answers): a person's sit is recorded once, however often it is posted,
        // by however many instances at once.
        Migration(
            number: 12, name: "sit client ids",
            statements: [
                "ALTER TABLE sitting_session ADD COLUMN client_id TEXT",
                """
                CREATE UNIQUE INDEX sitting_session_client_id ON sitting_session (owner_id, client_id)
                WHERE client_id IS NOT NULL
                """,
            ]),
        // A person's calendar link (the SHA-256 of its token: the token is shown once) and the
        // time of day their calendar reminds them to sit.
        Migration(
            number: 13, name: "calendars",
            statements: [
                "ALTER TABLE person ADD COLUMN calendar_key TEXT",
                "CREATE UNIQUE INDEX person_calendar_key ON person (calendar_key) WHERE calendar_key IS NOT NULL",
                "ALTER TABLE person ADD COLUMN reminder_minutes INTEGER",
            ]),
        // Who a host removed from a group: no link lets them join again until a host lets them
        // back in. Gone with the group or the person.
        Migration(
            number: 14, name: "groupRemovals",
            statements: [
                """
                CREATE TABLE group_removal (
                    group_id BIGINT NOT NULL REFERENCES sitting_group(id) ON DELETE CASCADE,
                    person_id BIGINT NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                    removed_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (group_id, person_id)
                )
                """
            ]),
        // Who signs in through the group's identity provider: the pair (issuer, subject) names
        // them, never an e-mail or a username. Gone with the person.
        Migration(
            number: 15, name: "providerIdentities",
            statements: [
                """
                CREATE TABLE provider_identity (
                    issuer TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    person_id BIGINT NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                    PRIMARY KEY (issuer, subject)
                )
                """,
                "CREATE INDEX provider_identity_person_id ON provider_identity (person_id)",
            ]),
        // Whether a password started the session: with --password-sign-in off those end. Of the
        // sessions before, only those of people without a password are surely the provider's;
        // the default counts a session an instance of the version before starts during a rolling
        // upgrade as a password's.
        Migration(
            number: 16, name: "sign-in session method",
            statements: [
                "ALTER TABLE sign_in_session ADD COLUMN by_password BOOLEAN NOT NULL DEFAULT true",
                """
                UPDATE sign_in_session SET by_password = false
                WHERE person_id IN (SELECT id FROM person WHERE password_hash = '')
                """,
            ]),
        // /admin reads a page of people by name.
        Migration(
            number: 17, name: "person name index",
            statements: ["CREATE INDEX person_name ON person (lower(name), id)"]),
        // A file previewed for import, until "Import" (by the SHA-256 of the token its preview
        // shows): one a person, for an hour. Gone with the person.
        Migration(
            number: 18, name: "pending imports",
            statements: [
                """
                CREATE TABLE pending_import (
                    key TEXT PRIMARY KEY,
                    owner_id BIGINT NOT NULL UNIQUE REFERENCES person (id) ON DELETE CASCADE,
                    file BYTEA NOT NULL,
                    expires_at TIMESTAMPTZ NOT NULL
                )
                """,
                "CREATE INDEX pending_import_expires_at ON pending_import (expires_at)",
            ]),
        // Web Push: each person's devices (their browsers' subscriptions, at most ten; the
        // session each was added under, so that signing out there removes it), what each wants
        // to hear of, and each message claimed per device: the first instance to insert (key,
        // device) sends it. The deployment's VAPID key is a row of `secret`, made on first start.
        Migration(
            number: 19, name: "push notifications",
            statements: [
                """
                CREATE TABLE push_device (
                    id BIGSERIAL PRIMARY KEY,
                    person_id BIGINT NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                    endpoint TEXT NOT NULL UNIQUE,
                    p256dh BYTEA NOT NULL,
                    auth BYTEA NOT NULL,
                    name TEXT NOT NULL,
                    session_key TEXT,
                    created_at TIMESTAMPTZ NOT NULL
                )
                """,
                "CREATE INDEX push_device_person_id ON push_device (person_id, created_at)",
                """
                CREATE TABLE push_choice (
                    person_id BIGINT PRIMARY KEY REFERENCES person(id) ON DELETE CASCADE,
                    sits BOOLEAN NOT NULL,
                    reminder BOOLEAN NOT NULL,
                    sitting BOOLEAN NOT NULL
                )
                """,
                """
                CREATE TABLE push_sent (
                    key TEXT NOT NULL,
                    device_id BIGINT NOT NULL REFERENCES push_device(id) ON DELETE CASCADE,
                    sent_at TIMESTAMPTZ NOT NULL,
                    PRIMARY KEY (key, device_id)
                )
                """,
                "CREATE INDEX push_sent_sent_at ON push_sent (sent_at)",
                "CREATE INDEX push_sent_device_id ON push_sent (device_id)",
            ]),
        // The language a person chose in Settings; NULL: as their browser says.
        Migration(number: 20, name: "person language", statements: ["ALTER TABLE person ADD COLUMN language TEXT"]),
    ]

    /// Any number, the same in every instance: the key of the advisory lock migrations run under.
    static let lockKey = 7_117_000_001
}

extension PostgresDatabase {
    /// Applies the migrations not applied yet, in order, in one transaction under an advisory
    /// lock: instances starting at the same moment wait for each other, and each migration is
    /// applied once. Answers the numbers it applied. It may take `timeout` (another instance
    /// may hold the lock), longer than a page's call.
    @discardableResult
    public func migrate(timeout: Duration = .seconds(60)) async throws(PostgresDatabaseError) -> [Int] {
        try await withTransaction(timeout: timeout) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresMigrations.lockKey))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS sangha_migration (
                    number INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """, logger: logger)
            var applied = Set<Int>()
            for try await number in try await connection.query("SELECT number FROM sangha_migration", logger: logger)
                .decode(Int.self)
            {
                applied.insert(number)
            }
            var now: [Int] = []
            for migration in PostgresMigrations.all where !applied.contains(migration.number) {
                for statement in migration.statements {
                    try await connection.query(statement, logger: logger)
                }
                try await connection.query(
                    "INSERT INTO sangha_migration (number, name) VALUES (\(migration.number), \(migration.name))",
                    logger: logger)
                now.append(migration.number)
            }
            return now
        }
    }

    /// The migrations applied, by number.
    public func appliedMigrations() async throws(PostgresDatabaseError) -> [Int] {
        try await withConnection { connection in
            var numbers: [Int] = []
            let rows = try await connection.query("SELECT number FROM sangha_migration ORDER BY number", logger: logger)
            for try await number in rows.decode(Int.self) { numbers.append(number) }
            return numbers
        }
    }
}
