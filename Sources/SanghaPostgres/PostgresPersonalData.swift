import SanghaCore
import SanghaStoreSupport

/// Each person's profiles, sitting sessions and saved friends list in PostgreSQL. The stores it
/// hands out are made per request; nothing of the data is kept in memory.
public struct PostgresPersonalData: PersonalData {
    public let database: PostgresDatabase
    let friendListThrottle = FriendListSaveThrottle()

    public init(database: PostgresDatabase) {
        self.database = database
    }

    public func profiles(of person: Int) -> any ProfileRepository {
        PostgresProfileStore(database: database, owner: person)
    }

    public func sessions(of person: Int) -> any SittingSessionRepository {
        PostgresSittingSessionStore(database: database, owner: person)
    }

    public func savedFriends(of person: Int) -> any FriendListStorage {
        PostgresFriendListStore(database: database, person: person, lastSaved: friendListThrottle)
    }

    /// The people of the same database.
    public var people: PostgresPeopleStore {
        PostgresPeopleStore(database: database, onDelete: { [friendListThrottle] in friendListThrottle.forget($0) })
    }
}
