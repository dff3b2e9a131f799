import Foundation

/// What went wrong talking to the FriendService, as a reason the view models can name.
public struct FriendServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// 401: the service wants a valid bearer token.
        case unauthorized
        /// 404: no friend with that id.
        case notFound
        /// 400: the service refused the values, with its reason.
        case invalid(String)
        /// 5xx, or any other status the contract does not name.
        case server(status: Int)
        /// No connection, refused, timed out.
        case transport(String)
        /// The service answered something that is not the JSON of the contract.
        case decoding(String)
    }

    public let reason: Reason

    public init(_ reason: Reason) {
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .unauthorized: "FriendService: unauthorized (401)"
        case .notFound: "FriendService: not found (404)"
        case .invalid(let message): "FriendService: invalid (400): \(message)"
        case .server(let status): "FriendService: server error (\(status))"
        case .transport(let message): "FriendService: transport failure: \(message)"
        case .decoding(let message): "FriendService: undecodable answer: \(message)"
        }
    }
}
