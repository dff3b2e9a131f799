import Foundation

/// The FriendService as the app sees it: the four calls of the original API.
///
/// View models receive it by injection; the live implementation is `URLSessionFriendService`
/// (FriendServiceClient), tests use fakes.
public protocol FriendService: Sendable {
    /// `GET /listFriends`
    func listFriends() async throws(FriendServiceError) -> [Friend]
    /// `POST /addFriend`: the stored friend with its new id.
    func addFriend(_ draft: FriendDraft) async throws(FriendServiceError) -> Friend
    /// `PATCH /editFriend/{id}`: the updated friend.
    func updateFriend(id: Int, with draft: FriendDraft) async throws(FriendServiceError) -> Friend
    /// `DELETE /editFriend/{id}`
    func deleteFriend(id: Int) async throws(FriendServiceError)
}
