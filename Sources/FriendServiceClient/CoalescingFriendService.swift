import Foundation
import SanghaCore
import Synchronization

/// A FriendService in front of another that makes concurrent list requests share one call
/// (single flight), so a busy friends page costs the service one request at a time, not one per
/// page view.
///
/// A list request joins the call in flight only if no write through this service has finished
/// since that call started: a page asked for after the app's own successful add, edit or delete
/// never shows a list older than that write.
public final class CoalescingFriendService: FriendService {
    private typealias ListCall = Task<Result<[Friend], FriendServiceError>, Never>

    private struct State {
        /// Counts the writes that have finished.
        var writes = 0
        var inFlight: (writesBefore: Int, call: ListCall)?
    }

    private let base: any FriendService
    private let state = Mutex(State())

    public init(_ base: any FriendService) {
        self.base = base
    }

    public func listFriends() async throws(FriendServiceError) -> [Friend] {
        let call = state.withLock { state -> ListCall in
            if let inFlight = state.inFlight, inFlight.writesBefore == state.writes {
                return inFlight.call
            }
            let call = ListCall { [base] in
                do throws(FriendServiceError) {
                    return .success(try await base.listFriends())
                } catch {
                    return .failure(error)
                }
            }
            state.inFlight = (state.writes, call)
            return call
        }
        let result = await call.value
        state.withLock { state in
            if state.inFlight?.call == call { state.inFlight = nil }
        }
        return try result.get()
    }

    public func addFriend(_ draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        let friend = try await base.addFriend(draft)
        wrote()
        return friend
    }

    public func updateFriend(id: Int, with draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        let friend = try await base.updateFriend(id: id, with: draft)
        wrote()
        return friend
    }

    public func deleteFriend(id: Int) async throws(FriendServiceError) {
        try await base.deleteFriend(id: id)
        wrote()
    }

    private func wrote() {
        state.withLock { $0.writes += 1 }
    }
}
