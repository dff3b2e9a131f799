import Foundation
import SanghaCore
import Synchronization
import Testing

/// A FriendService whose every call is a closure the test sets. A call the test did not set
/// records a test failure, so a test states exactly what it expects to be called.
public final class FakeFriendService: FriendService {
    public typealias List = @Sendable () async throws(FriendServiceError) -> [Friend]
    public typealias Add = @Sendable (FriendDraft) async throws(FriendServiceError) -> Friend
    public typealias Update = @Sendable (Int, FriendDraft) async throws(FriendServiceError) -> Friend
    public typealias Delete = @Sendable (Int) async throws(FriendServiceError) -> Void

    private let list: List
    private let add: Add
    private let update: Update
    private let delete: Delete
    private let calls = Mutex<[String]>([])

    public init(
        list: @escaping List = { () throws(FriendServiceError) in throw FakeFriendService.unimplemented("listFriends")
        },
        add: @escaping Add = { _ throws(FriendServiceError) in throw FakeFriendService.unimplemented("addFriend") },
        update: @escaping Update = { _, _ throws(FriendServiceError) in
            throw FakeFriendService.unimplemented("updateFriend")
        },
        delete: @escaping Delete = { _ throws(FriendServiceError) in
            throw FakeFriendService.unimplemented("deleteFriend")
        }
    ) {
        self.list = list
        self.add = add
        self.update = update
        self.delete = delete
    }

    /// A service that answers every list with `friends`.
    public static func listing(_ friends: [Friend]) -> FakeFriendService {
        FakeFriendService(list: { friends })
    }

    /// A service whose every call fails with `reason`.
    public static func failing(_ reason: FriendServiceError.Reason) -> FakeFriendService {
        let error = FriendServiceError(reason)
        return FakeFriendService(
            list: { () throws(FriendServiceError) in throw error },
            add: { _ throws(FriendServiceError) in throw error },
            update: { _, _ throws(FriendServiceError) in throw error },
            delete: { _ throws(FriendServiceError) in throw error }
        )
    }

    /// The calls made so far, e.g. `["listFriends", "addFriend"]`.
    public var recordedCalls: [String] { calls.withLock { $0 } }

    public func listFriends() async throws(FriendServiceError) -> [Friend] {
        record("listFriends")
        return try await list()
    }

    public func addFriend(_ draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        record("addFriend")
        return try await add(draft)
    }

    public func updateFriend(id: Int, with draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        record("updateFriend")
        return try await update(id, draft)
    }

    public func deleteFriend(id: Int) async throws(FriendServiceError) {
        record("deleteFriend")
        try await delete(id)
    }

    private func record(_ call: String) {
        calls.withLock { $0.append(call) }
    }

    public static func unimplemented(_ call: String) -> FriendServiceError {
        Issue.record("FakeFriendService.\(call) was called but the test did not expect it")
        return FriendServiceError(.transport("unimplemented: \(call)"))
    }
}

extension Friend {
    public static let jane = Friend(id: 1, firstname: "Jane", lastname: "Doe", phonenumber: "+15550100")
    public static let kenji = Friend(id: 2, firstname: "Kenji", lastname: "Satō", phonenumber: "0312345678")
    public static let amira = Friend(id: 3, firstname: "Amira", lastname: "O'Neil-Haddad", phonenumber: "+447700900123")
}
