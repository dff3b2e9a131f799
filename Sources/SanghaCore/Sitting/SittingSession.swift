import Foundation

/// A session sat with a profile: when it began, how long it lasted, and whether it ran to the
/// end. It keeps the profile's name, so deleting the profile keeps its sessions under that name.
public struct SittingSession: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    /// The profile sat with; nil once that profile is deleted.
    public var profileID: Int?
    public var profileName: String
    public var startedAt: Date
    public var seconds: Int
    public var completed: Bool
    /// The group it was sat with (a group sit), by the group's name then; nil for a sit alone.
    public var groupName: String?
    /// What the person wrote about it; nil when nothing.
    public var note: String?

    /// A session stopped before this many seconds is not recorded.
    public static let minimumStoppedSeconds = 60

    /// How long before now a session may have been sat and still be recorded: 30 days. The
    /// sitting page keeps a sit on the device until Sangha can be reached, so a phone offline
    /// for a retreat still sends its sits. Counted from when the session could have ended at
    /// the earliest (its start plus its seconds), so that the longest session (three 24-hour
    /// sections) is still recorded when it ends: the start must be no earlier than
    /// `now - recentWindow - seconds`.
    public static let recentWindow: TimeInterval = 30 * 86_400
    /// How far past now a session's start may be, for a browser's clock that runs a little
    /// ahead of the server's: 10 minutes. Later than that it is in the future, and refused.
    public static let clockSkewAllowance: TimeInterval = 600
    /// Why a session that begins past `clockSkewAllowance` from now is refused.
    public static let futureMessage = "The session's start is in the future."
    /// Why a session sat longer ago than `recentWindow` is refused.
    public static let tooOldMessage =
        "The session began too long ago: only sessions from the last 30 days are recorded."

    public init(
        id: Int = 0, profileID: Int?, profileName: String, startedAt: Date, seconds: Int, completed: Bool,
        groupName: String? = nil, note: String? = nil
    ) {
        self.groupName = groupName
        self.note = note
        self.id = id
        self.profileID = profileID
        self.profileName = profileName
        self.startedAt = startedAt
        self.seconds = seconds
        self.completed = completed
    }

    /// Why the session is not recorded as of `now`, or nil: a length from one second to
    /// three days, a stopped one of at least a minute, a start no later than
    /// `clockSkewAllowance` (10 minutes) from now, and no earlier than `recentWindow` (30 days)
    /// before the session could have ended (`now - 48 h - seconds`).
    /// In `words`' language (the English of `futureMessage` and `tooOldMessage` by default).
    public func refusal(now: Date, words: Words) -> String? {
        if !(1...86_400 * 3).contains(seconds) { return words.sittingLengthRange }
        if !completed && seconds < Self.minimumStoppedSeconds {
            return words.sittingStoppedEarly
        }
        if startedAt > now.addingTimeInterval(Self.clockSkewAllowance) { return words.sittingFuture }
        if startedAt < now.addingTimeInterval(-Self.recentWindow - TimeInterval(seconds)) { return words.sittingTooOld }
        return nil
    }
}

extension SittingSession {
    /// Where the export (and `sessions(after:limit:)`) is: a session's start and id, oldest first.
    public struct Cursor: Sendable, Equatable {
        public var startedAt: Date
        public var id: Int

        public init(startedAt: Date, id: Int) {
            (self.startedAt, self.id) = (startedAt, id)
        }
    }

    public var cursor: Cursor { Cursor(startedAt: startedAt, id: id) }

    /// What makes two sessions the same one when a file is imported: the start (to the second),
    /// the seconds and the profile's name.
    public struct ImportKey: Hashable, Sendable {
        /// The start to the whole second, as the export writes it: a sit kept with a fraction of
        /// a second (posted before starts were kept to the second) is found by its own export.
        public var start: Int64
        public var seconds: Int
        public var profileName: String

        public init(startedAt: Date, seconds: Int, profileName: String) {
            start = Int64(startedAt.timeIntervalSince1970.rounded(.down))
            (self.seconds, self.profileName) = (seconds, profileName)
        }
    }

    public var importKey: ImportKey { ImportKey(startedAt: startedAt, seconds: seconds, profileName: profileName) }

    /// Of `sessions`, those whose `importKey` is neither in `kept` nor on one before them in
    /// `sessions`, in order; and how many are left out so.
    public static func new(_ sessions: [SittingSession], kept: Set<ImportKey>) -> (
        new: [SittingSession], existing: Int
    ) {
        var keys = kept
        let new = sessions.filter { keys.insert($0.importKey).inserted }
        return (new, sessions.count - new.count)
    }

    /// What an import found: sessions to add (or added), and sessions already there.
    public struct ImportCount: Sendable, Equatable {
        public var added: Int
        public var existing: Int

        public init(added: Int, existing: Int) {
            (self.added, self.existing) = (added, existing)
        }
    }

    /// Whether `text` can be a client's id for a sit: 1 to 64 letters, digits and "-" (a
    /// `crypto.randomUUID()` is 36).
    public static func isClientID(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
            }
    }

    /// `2026-11-23T06:00:00Z` or `2026-11-23T06:00:00-03:00`, with or without fractional
    /// seconds, as the sitting page posts a start and the export writes one; to the whole second
    /// (below it dropped). A log keeps starts to the second: the export writes whole seconds, so
    /// a sit posted with `.123` and imported back from the export is the one already there.
    public static func date(iso8601 text: String) -> Date? {
        ((try? Date(text, strategy: .iso8601))
            ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)))
            .map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
    }

    /// A note is at most this many characters.
    public static let noteLengthLimit = 1000

    /// Why `note` cannot be a session's note, or nil: at most `noteLengthLimit` characters, and
    /// no control characters but line breaks and tabs. In `words`' language.
    public static func noteRefusal(_ note: String, words: Words) -> String? {
        if note.count > noteLengthLimit { return words.historyNoteTooLong(limit: words.number(noteLengthLimit)) }
        let allowed: Set<Unicode.Scalar> = ["\n", "\r", "\t"]
        if note.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !allowed.contains($0) }) {
            return words.historyNoteControl
        }
        return nil
    }
    /// The most sessions an import may bring a person's history to: three sits a day for 45
    /// years. Without it one person could fill the disk by importing the same large file with
    /// its starts moved, again and again.
    public static let historyLimit = 50_000

    /// A sit typed in lasts at most a day.
    public static let longestEntry = 86_400
}

/// Where one person's sitting sessions are kept: SQLite (SanghaStore) or PostgreSQL
/// (SanghaPostgres), both held to one conformance suite.
public protocol SittingSessionRepository: Sendable {
    /// Stores a new session; the answer has its id. With `clientID` (the id the sitting page
    /// gave the sit before it posted it), a session the person already recorded with that id is
    /// the answer and nothing more is stored: a post sent twice (a lost answer, two tabs, two
    /// instances at once) records one sit.
    func record(_ session: SittingSession, clientID: String?) async throws(SittingSessionRepositoryError)
        -> SittingSession
    /// The newest sessions first: at most `limit`, after skipping the `offset` newest.
    func recent(limit: Int, offset: Int) async throws(SittingSessionRepositoryError) -> [SittingSession]
    /// How many sessions there are and how long they lasted together.
    func totals() async throws(SittingSessionRepositoryError) -> SittingTotals
    /// The practice on the person's day `today`: the totals, the days sat over `Practice.window`
    /// days, the streak, and the newest `recent` sessions after skipping `offset`, read at
    /// once. The storage keeps a count per day in the person's time zone and day start (kept
    /// by the database as sessions come and go and as those settings change), so what is read
    /// grows with the days sat, never with the sessions.
    func practice(today: LocalDay, recent: Int, offset: Int) async throws(SittingSessionRepositoryError) -> Practice
    /// One of the person's sessions, or nil.
    func session(id: Int) async throws(SittingSessionRepositoryError) -> SittingSession?
    /// Replaces the person's session `session.id`, keeping its id; false when there is none.
    func update(_ session: SittingSession) async throws(SittingSessionRepositoryError) -> Bool
    /// Deletes the person's session; false when there is none.
    func delete(id: Int) async throws(SittingSessionRepositoryError) -> Bool
    /// The sessions oldest first (by start, then id), those after `cursor`, at most `limit`: the
    /// export reads them a page at a time, in memory of a page whatever their number.
    func sessions(after cursor: SittingSession.Cursor?, limit: Int) async throws(SittingSessionRepositoryError)
        -> [SittingSession]
    /// Of `sessions`, those not kept yet: no session of the person's (nor one before it in
    /// `sessions`) has its `importKey`. Counts them and those already there, and, when `commit`,
    /// adds the new ones. Throws `.historyFull` (adding nothing) when they would take the
    /// person's history past `limit` sessions.
    func importSessions(_ sessions: [SittingSession], commit: Bool, limit: Int)
        async throws(SittingSessionRepositoryError) -> SittingSession.ImportCount

    /// Keeps `file`, which the person previewed for import (`PendingImport`), under `key` (the
    /// SHA-256 of the token the preview names it by) until `expiresAt`, in place of any file
    /// they kept before; every file kept by anyone that has expired at `date` is forgotten too.
    func keepImport(_ file: Data, key: String, at date: Date, expiresAt: Date)
        async throws(SittingSessionRepositoryError)
    /// The person's file kept under `key`, unless it has expired at `date`: nil for none, for
    /// another person's, and once forgotten.
    func keptImport(key: String, at date: Date) async throws(SittingSessionRepositoryError) -> Data?
    /// Forgets the person's file kept under `key` (it was imported: its token is used).
    func forgetImport(key: String) async throws(SittingSessionRepositoryError)
}

extension SittingSessionRepository {
    /// An import, up to `SittingSession.historyLimit`.
    public func importSessions(_ sessions: [SittingSession], commit: Bool) async throws(SittingSessionRepositoryError)
        -> SittingSession.ImportCount
    {
        try await importSessions(sessions, commit: commit, limit: SittingSession.historyLimit)
    }

    /// Stores a new session (one without a client's id: typed in, imported).
    public func record(_ session: SittingSession) async throws(SittingSessionRepositoryError) -> SittingSession {
        try await record(session, clientID: nil)
    }

    /// The newest sessions first, at most `limit`.
    public func recent(limit: Int) async throws(SittingSessionRepositoryError) -> [SittingSession] {
        try await recent(limit: limit, offset: 0)
    }
}

/// Sessions counted together: all of them, or a day's.
public struct SittingTotals: Sendable, Equatable {
    public var sessions: Int
    public var seconds: Int

    public init(sessions: Int, seconds: Int) {
        self.sessions = sessions
        self.seconds = seconds
    }

    public static let zero = SittingTotals(sessions: 0, seconds: 0)

    public static func + (left: SittingTotals, right: SittingTotals) -> SittingTotals {
        SittingTotals(sessions: left.sessions + right.sessions, seconds: left.seconds + right.seconds)
    }
}

public enum SittingSessionRepositoryError: Error, Sendable, Equatable {
    /// The storage failed: the message is for the log.
    case storage(String)
    /// The database could not be reached in time; it may be back in a moment.
    case unreachable(String)
    /// An import would take the person's history past `SittingSession.historyLimit`; nothing
    /// was imported. `sessions` is how many it holds.
    case historyFull(sessions: Int)
}
