import Foundation
import Logging
import Resilience
import SanghaCore

/// A FriendService behind a `CircuitBreaker`: the clients of every token of one service share
/// one breaker.
///
/// Its numbers: 3 failures in a row are not bad luck (the client already waits the whole timeout
/// for each), 5 s is long enough to spare a hung service the pile of requests and short enough
/// that a restarted one is seen at once, and 60 s bounds how long a service that is back goes
/// unnoticed. A wrong token's 401 is an answer, not a failure of the service.
public struct BreakingFriendService: FriendService {
    let service: any FriendService
    let breaker: CircuitBreaker<FriendServiceError>

    public init(_ service: any FriendService, breaker: CircuitBreaker<FriendServiceError>) {
        self.service = service
        self.breaker = breaker
    }

    public func listFriends() async throws(FriendServiceError) -> [Friend] {
        try await breaker.read { [service] () async throws(FriendServiceError) in try await service.listFriends() }
    }

    public func addFriend(_ draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        try await breaker.run { () async throws(FriendServiceError) in try await service.addFriend(draft) }
    }

    public func updateFriend(id: Int, with draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        try await breaker.run { () async throws(FriendServiceError) in
            try await service.updateFriend(id: id, with: draft)
        }
    }

    public func deleteFriend(id: Int) async throws(FriendServiceError) {
        try await breaker.run { () async throws(FriendServiceError) in try await service.deleteFriend(id: id) }
    }
}

extension CircuitBreaker where Failure == FriendServiceError {
    /// The breaker of the FriendService at `address` (`BreakingFriendService`).
    public convenience init(
        friendService address: String, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        logger: Logger = Logger(label: "sangha.friend-service")
    ) {
        self.init(
            name: "The FriendService \(address)", metrics: "sangha_friend_service", now: now, logger: logger,
            isUnanswered: Self.isUnanswered, placeholder: FriendServiceError(.transport("The request timed out.")))
    }

    /// Whether the service did not answer (the failures the breaker counts): no connection, no
    /// answer in time, or a proxy in front of it saying so (502, 503, 504). A refusal, another
    /// 5xx or a body that could not be read are the service's answers.
    static func isUnanswered(_ error: FriendServiceError) -> Bool {
        switch error.reason {
        case .transport: true
        case .server(let status): [502, 503, 504].contains(status)
        default: false
        }
    }

}
