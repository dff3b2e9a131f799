import Foundation
import GRDB
import SanghaCore
import SanghaStoreSupport

/// Each person's profiles, sitting sessions and saved friends list in one SQLite file. The
/// stores it hands out are made per request and share what this process keeps in memory: the
/// sign-in sessions found, the profiles read and each person's practice (`Memo`s). On a file, they are kept only while
/// `otherProcessWrites` runs (a service of `sangha serve`) and has checked lately that no other
/// process wrote the file, and forgotten when one did; a database in memory is this process's
/// alone.
public struct SQLitePersonalData: PersonalData {
    public let database: any DatabaseWriter
    /// The check for other processes' writes to the file (nil for a database in memory), which
    /// `serve` runs.
    public let otherProcessWrites: OtherProcessWrites?
    let profileMemo: ProfileMemo
    let practiceMemo: PracticeMemo
    let friendListThrottle = FriendListSaveThrottle()
    let signInSessions: Memo<String, KeptSignInSession>
    let calendarKeys: Memo<String, Person>
    let overviews: Memo<KeptOverview.Key, KeptOverview>
    /// One process serves the file: group events go from its routes to its streams in memory.
    public let groupEvents: any GroupEventBus

    public func ping() async throws {
        try await database.readInline { db in try db.execute(sql: "SELECT 1") }
    }

    /// `freshness`: how old the last check for other processes' writes may be for what is kept
    /// to be used (tests that must see the memory at work lengthen it).
    public init(database: any DatabaseWriter, freshness: Duration = OtherProcessWrites.freshness) {
        self.database = database
        let watch = (database as? DatabasePool).map { OtherProcessWrites(pool: $0, freshness: freshness) }
        otherProcessWrites = watch
        let kept: any ChangeWatch = watch ?? AloneOnData()
        let profiles = ProfileMemo(watch: kept)
        let sessions = Memo<String, KeptSignInSession>(watch: kept, limit: 100_000)
        let practice = PracticeMemo(watch: kept)
        let calendars = Memo<String, Person>(watch: kept, limit: 10_000)
        let overviews = Memo<KeptOverview.Key, KeptOverview>(watch: kept, limit: 1_000)
        (profileMemo, signInSessions, practiceMemo, calendarKeys) = (profiles, sessions, practice, calendars)
        self.overviews = overviews
        let events = InProcessGroupEventBus()
        groupEvents = events
        // Another process wrote (`sangha people disable`): nothing kept may be trusted, and the
        // group streams check their sign-ins again.
        watch?.whenChanged {
            sessions.forgetAll()
            calendars.forgetAll()
            overviews.forgetAll()
            profiles.forgetAll()
            practice.forgetAll()
            events.missed()
        }
    }

    public func profiles(of person: Int) -> any ProfileRepository {
        ProfileStore(database: database, owner: person, memo: profileMemo, practice: practiceMemo)
    }

    public func sessions(of person: Int) -> any SittingSessionRepository {
        SittingSessionStore(database: database, owner: person, memo: practiceMemo)
    }

    public func savedFriends(of person: Int) -> any FriendListStorage {
        FriendListStore(database: database, person: person, lastSaved: friendListThrottle)
    }

    public func groups(of person: Int) -> any GroupRepository {
        GroupStore(database: database, person: person, pages: practiceMemo.groupPages)
    }

    /// Devices, choices and what was sent, for notifications.
    public var push: PushStore { PushStore(database: database) }

    /// The people of the same file, who forget this data's memory of a person they delete.
    public var people: PeopleStore {
        PeopleStore(
            database: database, sessions: signInSessions, calendarKeys: calendarKeys, overviews: overviews,
            onDelete: { [profileMemo, practiceMemo, friendListThrottle] person in
                profileMemo.forget(owner: person)
                practiceMemo.forget(person: person)
                friendListThrottle.forget(person)
            },
            onUpdate: { [practiceMemo] person in practiceMemo.forget(person: person) })
    }
}
