import Foundation
import GRDB
import SanghaCore
import SanghaStoreSupport

/// Each person's profiles, sitting sessions and saved friends list in one SQLite file. The
/// stores it hands out are made per request and share what this process keeps in memory.
public struct SQLitePersonalData: PersonalData {
    public let database: any DatabaseWriter
    let profileCache = ProfileCache()
    let friendListThrottle = FriendListSaveThrottle()
    let signInSessions = SignInSessionMemo()
    /// One process holds the file: group events go from its routes to its streams in memory.
    public let groupEvents: any GroupEventBus = InProcessGroupEventBus()

    public func ping() async throws {
        try await database.readInline { db in try db.execute(sql: "SELECT 1") }
    }

    public init(database: any DatabaseWriter) {
        self.database = database
    }

    public func profiles(of person: Int) -> any ProfileRepository {
        ProfileStore(database: database, owner: person, cache: profileCache)
    }

    public func sessions(of person: Int) -> any SittingSessionRepository {
        SittingSessionStore(database: database, owner: person)
    }

    public func savedFriends(of person: Int) -> any FriendListStorage {
        FriendListStore(database: database, person: person, lastSaved: friendListThrottle)
    }

    public func groups(of person: Int) -> any GroupRepository {
        GroupStore(database: database, person: person)
    }

    /// The people of the same file, who forget this data's memory of a person they delete.
    public var people: PeopleStore {
        PeopleStore(
            database: database, sessions: signInSessions,
            onDelete: { [profileCache, friendListThrottle] person in
                profileCache.forgetAll()
                friendListThrottle.forget(person)
            })
    }
}
