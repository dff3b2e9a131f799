import Foundation
import Metrics
import SanghaCore

/// A FriendService whose calls are counted and timed (swift-metrics; at `/metrics` in
/// `sangha serve`): `sangha_friend_service_call_duration_seconds` by call and outcome, and
/// `sangha_friend_service_failures_total` by call and reason. It wraps the client of the
/// remote service, so each metric is one HTTP call.
public struct MeteredFriendService: FriendService {
    let service: any FriendService

    public init(_ service: any FriendService) {
        self.service = service
    }

    public func listFriends() async throws(FriendServiceError) -> [Friend] {
        try await measure("list") { () async throws(FriendServiceError) in try await service.listFriends() }
    }

    public func addFriend(_ draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        try await measure("add") { () async throws(FriendServiceError) in try await service.addFriend(draft) }
    }

    public func updateFriend(id: Int, with draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        try await measure("update") { () async throws(FriendServiceError) in
            try await service.updateFriend(id: id, with: draft)
        }
    }

    public func deleteFriend(id: Int) async throws(FriendServiceError) {
        try await measure("delete") { () async throws(FriendServiceError) in try await service.deleteFriend(id: id) }
    }

    private func measure<Value>(
        _ call: String, _ body: () async throws(FriendServiceError) -> Value
    ) async throws(FriendServiceError) -> Value {
        let start = ContinuousClock.now
        do {
            let value = try await body()
            Self.timer(call, outcome: "ok").record(duration: ContinuousClock.now - start)
            return value
        } catch {
            let reason = Self.name(of: error.reason)
            Self.timer(call, outcome: reason).record(duration: ContinuousClock.now - start)
            Counter(label: "sangha_friend_service_failures_total", dimensions: [("call", call), ("reason", reason)])
                .increment()
            throw error
        }
    }

    private static func timer(_ call: String, outcome: String) -> Metrics.Timer {
        Metrics.Timer(
            label: "sangha_friend_service_call_duration_seconds", dimensions: [("call", call), ("outcome", outcome)],
            preferredDisplayUnit: .seconds)
    }

    /// A reason as a label value: a few fixed words, never the message (which would make a
    /// series per message).
    static func name(of reason: FriendServiceError.Reason) -> String {
        switch reason {
        case .unauthorized: "unauthorized"
        case .notFound: "not_found"
        case .invalid: "invalid"
        case .server: "server_error"
        case .transport: "transport"
        case .decoding: "decoding"
        }
    }
}
