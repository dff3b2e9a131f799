import SanghaCore
import SanghaStoreSupport

/// Each person's profiles, sitting sessions, saved friends list and groups in PostgreSQL. The
/// stores it hands out are made per request. With a `PostgresChangeFeed`, sign-in sessions,
/// profiles read by id, pages of each person's profiles and each person's practice are kept in
/// memory while it listens,
/// and forgotten at every change any instance announces; without one, nothing is kept. Group
/// events travel by the feed too; without one, they reach this instance only.
public struct PostgresPersonalData: PersonalData {
    public let database: PostgresDatabase
    public let groupEvents: any GroupEventBus
    let friendListThrottle = FriendListSaveThrottle()
    let signInSessions: Memo<String, KeptSignInSession>
    let calendarKeys: Memo<String, Person>
    let overviews: Memo<KeptOverview.Key, KeptOverview>
    let profileMemo: ProfileMemo
    let practiceMemo: PracticeMemo

    /// `maximumAge`: how long a kept value may be used at most (tests lengthen or shorten it).
    public init(
        database: PostgresDatabase, feed: PostgresChangeFeed? = nil,
        maximumAge: Duration = PostgresChangeFeed.maximumAge
    ) {
        self.database = database
        let watch: any ChangeWatch = feed.map { $0 as any ChangeWatch } ?? UnwatchedData()
        let (sessions, profiles, practice) = (
            Memo<String, KeptSignInSession>(watch: watch, maximumAge: maximumAge),
            ProfileMemo(watch: watch, maximumAge: maximumAge),
            PracticeMemo(watch: watch, maximumAge: maximumAge)
        )
        let calendars = Memo<String, Person>(watch: watch, maximumAge: maximumAge)
        let overviews = Memo<KeptOverview.Key, KeptOverview>(watch: watch, maximumAge: maximumAge, limit: 1_000)
        (signInSessions, profileMemo, practiceMemo, calendarKeys) = (sessions, profiles, practice, calendars)
        self.overviews = overviews
        groupEvents = PostgresGroupEventBus(database: database, feed: feed)
        feed?.subscribe { change in
            switch change {
            case nil:
                sessions.forgetAll()
                calendars.forgetAll()
                overviews.forgetAll()
                profiles.forgetAll()
                practice.forgetAll()
            case .session(let key):
                sessions.forget(key)
                overviews.forgetAll()
            case .person(let id):
                sessions.forget { $1.person.id == id }
                calendars.forget { $1.id == id }
                overviews.forgetAll()
                profiles.forget(owner: id)
                // A new time zone or day start counts their days again; a deleted person's
                // groups count one member fewer.
                practice.forget(person: id)
            case .profile(let id):
                profiles.forget(profile: id)
            case .profileList(let owner):
                profiles.forgetPages(of: owner)
                // A profile deleted leaves its sessions without it.
                practice.forget(owner: owner)
            case .practice(let owner):
                practice.forget(owner: owner)
            case .groupPage(let id):
                practice.groupPages.forget(group: id)
            case .groupsOf(let person):
                practice.groupPages.forget(listOf: person)
            case .group:
                break
            }
        }
    }

    /// Devices, choices and what was sent, for notifications.
    public var push: PostgresPushStore { PostgresPushStore(database: database) }

    public func ping() async throws {
        try await database.withConnection { [database] connection in
            try await connection.query("SELECT 1", logger: database.logger)
        }
    }

    public func profiles(of person: Int) -> any ProfileRepository {
        PostgresProfileStore(database: database, owner: person, memo: profileMemo, practice: practiceMemo)
    }

    public func sessions(of person: Int) -> any SittingSessionRepository {
        PostgresSittingSessionStore(database: database, owner: person, memo: practiceMemo)
    }

    public func savedFriends(of person: Int) -> any FriendListStorage {
        PostgresFriendListStore(database: database, person: person, lastSaved: friendListThrottle)
    }

    public func groups(of person: Int) -> any GroupRepository {
        PostgresGroupStore(database: database, person: person, pages: practiceMemo.groupPages)
    }

    /// The people of the same database.
    public var people: PostgresPeopleStore {
        PostgresPeopleStore(
            database: database, sessions: signInSessions, calendarKeys: calendarKeys, overviews: overviews,
            onDelete: { [friendListThrottle, profileMemo, practiceMemo] person in
                friendListThrottle.forget(person)
                profileMemo.forget(owner: person)
                practiceMemo.forget(person: person)
            },
            onUpdate: { [practiceMemo] person in practiceMemo.forget(person: person) })
    }
}
