import FriendServiceServer
import Logging
import SanghaWeb

/// The embedded FriendService's lists, reached in its store directly (the same process).
struct FriendStoreLists: EmbeddedFriendLists {
    let store: FriendStore
    let logger: Logger

    func claimUnowned(for token: String) async {
        do {
            try await store.moveList(from: "", to: token)
        } catch {
            logger.error("The friends kept before people existed could not be moved: \(error)")
        }
    }

    func delete(token: String) async {
        do {
            try await store.deleteList(token)
        } catch {
            logger.error("The friends of a deleted account could not be removed: \(error)")
        }
    }
}
