import Foundation
import SanghaCore
import SanghaStore
import SanghaWeb

/// The app's parts for the tools that run it on fixtures (`sangha-gallery`, `sangha-bench
/// serve-pages`): SQLite in memory and a FriendService whose list never changes. They serve
/// fixtures and pages' bytes, never anyone's data.
public enum FixtureDependencies {
    public static func make() throws -> Dependencies {
        let data = SQLitePersonalData(database: try SanghaDatabase.inMemory())
        return Dependencies(
            people: data.people, data: data,
            friendServices: FriendServiceDirectory(FixedFriendService(friends: [])))
    }
}

/// A FriendService whose list is `friends`, always; changes are refused.
public struct FixedFriendService: FriendService {
    public let friends: [Friend]

    public init(friends: [Friend]) {
        self.friends = friends
    }

    public func listFriends() async throws(FriendServiceError) -> [Friend] { friends }

    public func addFriend(_ draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        throw FriendServiceError(.invalid("read-only"))
    }

    public func updateFriend(id: Int, with draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        throw FriendServiceError(.invalid("read-only"))
    }

    public func deleteFriend(id: Int) async throws(FriendServiceError) {
        throw FriendServiceError(.invalid("read-only"))
    }
}
